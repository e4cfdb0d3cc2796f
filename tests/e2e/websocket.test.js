// The WebSocket layer under Socket.IO, byte by byte: fragments, control frames, protocol errors,
// the message limit, and a peer that pings without reading.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const net = require('node:net');
const { startServer } = require('./helpers');

let srv;
test.before(async () => { srv = await startServer(); });
test.after(async () => { await srv.stop(); });

const OP = { CONT: 0, TEXT: 1, BIN: 2, CLOSE: 8, PING: 9, PONG: 10 };

// A client frame: masked unless told otherwise.
function frame(op, payload, { fin = true, mask = true, rsv = 0, claim } = {}) {
  const data = Buffer.from(payload);
  const len = claim ?? data.length;
  const head = [(fin ? 0x80 : 0) | (rsv << 4) | op];
  if (len < 126) head.push((mask ? 0x80 : 0) | len);
  else if (len <= 0xffff) head.push((mask ? 0x80 : 0) | 126, len >> 8, len & 255);
  else {
    head.push((mask ? 0x80 : 0) | 127);
    for (let i = 7; i >= 0; i--) head.push(Number((BigInt(len) >> BigInt(8 * i)) & 255n));
  }
  if (!mask) return Buffer.concat([Buffer.from(head), data]);
  const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(data.map((b, i) => b ^ key[i % 4]));
  return Buffer.concat([Buffer.from(head), key, body]);
}

// Server frames out of a byte stream (after the 101 head).
function parseFrames(buf) {
  const frames = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const op = buf[at] & 15;
    let len = buf[at + 1] & 127, head = 2;
    if (len === 126) { if (buf.length - at < 4) break; len = buf.readUInt16BE(at + 2); head = 4; }
    else if (len === 127) { if (buf.length - at < 10) break; len = Number(buf.readBigUInt64BE(at + 2)); head = 10; }
    if (buf.length - at < head + len) break;
    frames.push({ op, data: buf.subarray(at + head, at + head + len) });
    at += head + len;
  }
  return frames;
}

// Opens a raw WebSocket to the Engine.IO endpoint; collects every frame until the socket closes.
function open() {
  return new Promise((resolve, reject) => {
    const sock = net.connect(srv.port, '127.0.0.1', () => {
      sock.write('GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n' +
        'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
    });
    let raw = Buffer.alloc(0), body = null;
    const c = { sock, closed: false, frames: () => (body ? parseFrames(body) : []) };
    c.ended = new Promise((r) => sock.on('close', () => { c.closed = true; r(); }));
    sock.on('error', () => {});
    sock.on('data', (d) => {
      if (body) { body = Buffer.concat([body, d]); return; }
      raw = Buffer.concat([raw, d]);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!/^HTTP\/1\.1 101 /.test(raw.toString('latin1'))) return reject(new Error(raw.toString()));
      body = raw.subarray(end + 4);
      resolve(c);
    });
  });
}

async function until(c, pred, what) {
  for (let i = 0; i < 200; i++) {
    const hit = c.frames().find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ${what}; got ${JSON.stringify(c.frames().map((f) => [f.op, f.data.toString()]))}`);
}

const closeCode = (f) => f.data.readUInt16BE(0);

test('a message in three fragments, written one byte at a time, is one message', async () => {
  const c = await open();
  await until(c, (f) => f.op === OP.TEXT && f.data[0] === 0x30, 'open packet');
  const text = '40{"token":"not-a-token"}';
  const parts = [
    frame(OP.TEXT, text.slice(0, 3), { fin: false }),
    frame(OP.PING, 'entre'), // control frames may come between fragments
    frame(OP.CONT, text.slice(3, 10), { fin: false }),
    frame(OP.CONT, text.slice(10)),
  ];
  for (const b of Buffer.concat(parts)) {
    c.sock.write(Buffer.from([b]));
    await new Promise((r) => setImmediate(r));
  }
  const pong = await until(c, (f) => f.op === OP.PONG, 'pong');
  assert.equal(pong.data.toString(), 'entre', 'a pong carries the ping payload');
  const err = await until(c, (f) => f.op === OP.TEXT && f.data.toString().startsWith('44'), 'connect_error');
  assert.match(err.data.toString(), /^44\{"message":/);
  c.sock.destroy();
});

test('a close frame is answered with the same code, then the connection ends', async () => {
  const c = await open();
  c.sock.write(frame(OP.CLOSE, Buffer.from([0x0f, 0xa0]))); // 4000
  await c.ended;
  const close = c.frames().find((f) => f.op === OP.CLOSE);
  assert.ok(close, 'a close frame came back');
  assert.equal(closeCode(close), 4000);
});

for (const [name, bytes] of [
  ['an unmasked frame', () => frame(OP.TEXT, '3', { mask: false })],
  ['a reserved bit', () => frame(OP.TEXT, '3', { rsv: 4 })],
  ['an unknown opcode', () => frame(3, '3')],
  ['a continuation of nothing', () => frame(OP.CONT, '3')],
  ['a new message inside a fragmented one', () => Buffer.concat([frame(OP.TEXT, '4', { fin: false }), frame(OP.TEXT, '3')])],
  ['a fragmented ping', () => frame(OP.PING, 'x', { fin: false })],
]) {
  test(`${name} ends the connection with 1002`, async () => {
    const c = await open();
    c.sock.write(bytes());
    await c.ended;
    const close = c.frames().find((f) => f.op === OP.CLOSE);
    assert.ok(close, 'a close frame before the end');
    assert.equal(closeCode(close), 1002);
  });
}

test('a message over maxPayload ends the connection with 1009, before its body is read', async () => {
  const c = await open();
  c.sock.write(frame(OP.TEXT, 'x'.repeat(16), { claim: 2_000_000 }).subarray(0, 30));
  await c.ended;
  const close = c.frames().find((f) => f.op === OP.CLOSE);
  assert.equal(closeCode(close), 1009);
  // Over the limit in pieces too.
  const d = await open();
  const piece = 'y'.repeat(600_000);
  d.sock.write(Buffer.concat([frame(OP.TEXT, piece, { fin: false }), frame(OP.CONT, piece)]));
  await d.ended;
  assert.equal(closeCode(d.frames().find((f) => f.op === OP.CLOSE)), 1009);
});

test('pings from a peer that never reads stop being answered; its descriptor is let go', async () => {
  const fds = () => require('node:fs').readdirSync(`/proc/${srv.proc.pid}/fd`).length;
  const rss = () => Number(require('node:fs').readFileSync(`/proc/${srv.proc.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
  const fdsBefore = fds();
  const c = await open();
  c.sock.pause();
  const before = rss();
  const ping = frame(OP.PING, 'p'.repeat(125));
  const batch = Buffer.concat(Array.from({ length: 1000 }, () => ping));
  for (let i = 0; i < 200 && !c.closed; i++) { // up to 26 MB of pings, 25 MB of pongs if all were kept
    if (!c.sock.write(batch)) await new Promise((r) => { c.sock.once('drain', r); setTimeout(r, 200); });
  }
  const grew = rss() - before;
  assert.ok(grew < 16 * 1024, `RSS grew by ${grew} KiB`);
  // Closed with 1008 once its answers piled up; the close cannot be flushed to a peer that does
  // not read, so the socket is closed regardless a couple of seconds later.
  for (let i = 0; i < 100 && fds() > fdsBefore; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(fds(), fdsBefore, 'the connection\'s descriptor was closed');
  c.sock.destroy();
});

test('a binary event before CONNECT is refused at once: no attachment is held for it', async () => {
  const c = await open();
  await until(c, (f) => f.op === OP.TEXT && f.data[0] === 0x30, 'open packet');
  const started = Date.now();
  c.sock.write(frame(OP.TEXT, '451-["x",{"_placeholder":true,"num":0}]'));
  await c.ended;
  assert.ok(Date.now() - started < 2000, `closed after ${Date.now() - started} ms`);
});
