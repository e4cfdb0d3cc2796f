// A small Socket.IO v4 client for the pages (Engine.IO 4 over WebSocket only, the default
// namespace, events and acknowledgements): what the chat page needs, with no external script.
// Connects with a single-use ticket from POST /api/gateway/ticket (the page cannot read its
// HttpOnly session cookie), and reconnects with a new one when the connection drops. It opts
// into connection-state recovery: a reconnect presents its session id and the last offset it
// processed, the server replays what came meanwhile, and an event already processed (an offset
// not past the last) is not applied twice. A reconnect the server could not resume ('resumed'
// with false) or a gap it reports ('EVENTS_GAP') tells the page to read what it shows again.
import { $, api, requireSession } from './common.js';
import { t } from './i18n.js';

export class Gateway {
  constructor() {
    this.handlers = new Map();
    this.ws = null;
    this.closed = false;
    this.retryMs = 500;
    this.acks = new Map(); // id → resolve, for events sent with an acknowledgement
    this.nextAck = 0;
    this.pid = null; // the session to resume, from the server's CONNECT answer
    this.offset = null; // the position of the last event processed (a decimal string)
    this.connectedOnce = false;
  }

  // Positions are decimal strings that only grow; they may pass 2^53.
  static after(a, b) {
    return a.length !== b.length ? a.length > b.length : a > b;
  }

  // Sends an event and resolves with the server's acknowledgement (rejects after 5 s or when
  // the connection is not open).
  emitWithAck(name, payload) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return reject(new Error(t('live.none')));
      const id = this.nextAck++;
      const timer = setTimeout(() => { this.acks.delete(id); reject(new Error(t('live.no.answer'))); }, 5000);
      this.acks.set(id, (answer) => { clearTimeout(timer); resolve(answer); });
      this.ws.send(`42${id}` + JSON.stringify([name, payload]));
    });
  }

  on(name, fn) {
    this.handlers.set(name, fn);
    return this;
  }

  emitLocal(name, payload) {
    const fn = this.handlers.get(name);
    if (fn) fn(payload);
  }

  async open() {
    let ticket;
    try {
      ({ ticket } = await api('POST', '/api/gateway/ticket'));
    } catch (e) {
      if (e.status === 401) return requireSession();
      return this.retry();
    }
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}/socket.io/?EIO=4&transport=websocket`);
    this.ws = ws;
    ws.onmessage = (m) => this.packet(ws, String(m.data), ticket);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.emitLocal('disconnect');
      this.retry();
    };
  }

  // Each wait is drawn from half to one and a half of the current step, which doubles up to 10 s:
  // when a server restarts, its pages come back spread over the step instead of all at once.
  retry() {
    if (this.closed) return;
    setTimeout(() => this.open(), Math.round(this.retryMs * (0.5 + Math.random())));
    this.retryMs = Math.min(this.retryMs * 2, 10000);
  }

  // Engine.IO: 0 open, 2 ping, 4 message; Socket.IO inside 4: 0 connect, 2 event, 4 error.
  packet(ws, data, ticket) {
    if (data[0] === '0') {
      const auth = { ticket, recovery: true };
      if (this.pid) Object.assign(auth, { pid: this.pid }, this.offset ? { offset: this.offset } : {});
      ws.send('40' + JSON.stringify(auth));
    } else if (data === '2') ws.send('3');
    else if (data.startsWith('40')) {
      this.retryMs = 500;
      const answer = JSON.parse(data.slice(2) || '{}');
      const resumed = Boolean(this.pid) && answer.pid === this.pid;
      const reconnect = this.connectedOnce;
      this.pid = answer.pid || null;
      this.connectedOnce = true;
      this.emitLocal('connect');
      if (reconnect) this.emitLocal('resumed', resumed);
    } else if (data.startsWith('44')) {
      this.emitLocal('connect_error', JSON.parse(data.slice(2)));
      ws.close(); // a refusal is final for this ticket; the next try asks for a new one
    } else if (data.startsWith('42')) {
      const [name, payload, offset] = JSON.parse(data.slice(2));
      if (typeof offset === 'string') {
        if (this.offset && !Gateway.after(offset, this.offset)) return; // already processed
        this.offset = offset;
      }
      this.emitLocal(name, payload);
    } else if (data.startsWith('43')) { // 43<id>[answer]
      const at = data.indexOf('[');
      const done = this.acks.get(Number(data.slice(2, at)));
      this.acks.delete(Number(data.slice(2, at)));
      if (done) done(JSON.parse(data.slice(at))[0]);
    }
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
