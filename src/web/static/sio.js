// A small Socket.IO v4 client for the pages (Engine.IO 4 over WebSocket only, the default
// namespace, events without acks): what the chat page needs, with no external script.
// Connects with a single-use ticket from POST /api/gateway/ticket (the page cannot read its
// HttpOnly session cookie), and reconnects with a new one when the connection drops.
'use strict';

class Gateway {
  constructor() {
    this.handlers = new Map();
    this.ws = null;
    this.closed = false;
    this.retryMs = 500;
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

  retry() {
    if (this.closed) return;
    setTimeout(() => this.open(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 10000);
  }

  // Engine.IO: 0 open, 2 ping, 4 message; Socket.IO inside 4: 0 connect, 2 event, 4 error.
  packet(ws, data, ticket) {
    if (data[0] === '0') ws.send('40' + JSON.stringify({ ticket }));
    else if (data === '2') ws.send('3');
    else if (data.startsWith('40')) {
      this.retryMs = 500;
      this.emitLocal('connect');
    } else if (data.startsWith('44')) {
      this.emitLocal('connect_error', JSON.parse(data.slice(2)));
      ws.close(); // a refusal is final for this ticket; the next try asks for a new one
    } else if (data.startsWith('42')) {
      const [name, payload] = JSON.parse(data.slice(2));
      this.emitLocal(name, payload);
    }
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
