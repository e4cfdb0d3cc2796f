// One of the fan-out bench's client processes (bench/large_server.js forks them): connects the
// tokens it is given with the official Socket.IO client over WebSocket, then counts each
// MESSAGE_CREATE whose content is "fan <sent at, ms since the epoch>" and keeps its latency.
// Messages: {cmd: 'report'} → {delivered, latencies}; the parent kills it afterwards.
'use strict';
const { io } = require('socket.io-client');

const [url, tokensJson] = process.argv.slice(2);
const tokens = JSON.parse(tokensJson);
const now = () => performance.timeOrigin + performance.now();
const latencies = [];
let connected = 0;
let failed = 0;

function connect(token) {
  return new Promise((resolve) => {
    const s = io(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    s.on('connect', () => { connected++; resolve(); });
    s.on('connect_error', () => { failed++; resolve(); });
    s.on('MESSAGE_CREATE', (m) => {
      const at = /^fan (\d+(\.\d+)?)$/.exec(m && m.content);
      if (at) latencies.push(now() - Number(at[1]));
    });
  });
}

(async () => {
  for (let i = 0; i < tokens.length; i += 100) await Promise.all(tokens.slice(i, i + 100).map(connect));
  process.send({ ready: true, connected, failed });
})();

process.on('message', (m) => {
  if (m.cmd === 'report') process.send({ delivered: latencies.length, latencies });
});
