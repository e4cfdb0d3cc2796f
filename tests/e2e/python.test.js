// The gateway with python-socketio 5 (Debian's python3-socketio, under /usr/bin/python3):
// default, websocket-only and polling-only connections, events, and connect errors without
// a reconnect loop.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer, api, appWithBot, install, serverWithMembers } = require('./helpers');

const SCRIPT = path.join(__dirname, 'python_bot.py');
let srv;
test.before(async () => { srv = await startServer(); });
test.after(async () => { const r = await srv.stop(); assert.equal(r.code, 0, srv.stderr); });

// Runs the python bot; `during(lines)` is called once it reported being connected.
function runBot(token, mode, during, seconds = 4) {
  return new Promise((resolve, reject) => {
    const p = spawn('/usr/bin/python3', [SCRIPT, srv.url, token, mode, String(seconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = [];
    let out = '', err = '';
    let started = false;
    p.stdout.on('data', (d) => {
      out += d;
      let i;
      while ((i = out.indexOf('\n')) >= 0) {
        const line = JSON.parse(out.slice(0, i));
        out = out.slice(i + 1);
        lines.push(line);
        if (line.kind === 'connected' && !started) {
          started = true;
          Promise.resolve(during && during(lines)).catch(reject);
        }
      }
    });
    p.stderr.on('data', (d) => { err += d; });
    p.on('exit', (code) => (code === 0 ? resolve(lines) : reject(new Error(`python exited ${code}: ${err}`))));
  });
}

for (const mode of ['default', 'websocket', 'polling']) {
  test(`python-socketio ${mode}: connects and receives MESSAGE_CREATE`, async () => {
    const w = await serverWithMembers(srv.url, 0);
    const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
    await install(srv.url, w.owner, info, w.sid, { permissions: 768 });
    const url = `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`;
    const lines = await runBot(info.botToken, mode, async () => {
      await new Promise((r) => setTimeout(r, 300));
      await api(srv.url, 'POST', url, { token: w.owner.token, body: { content: `olá python ${mode}` } });
    });
    assert.equal(lines[0].kind, 'connected');
    if (mode === 'websocket') assert.equal(lines[0].transport, 'websocket');
    if (mode === 'polling') assert.equal(lines[0].transport, 'polling');
    assert.ok(lines.some((l) => l.kind === 'event' && l.content === `olá python ${mode}`), JSON.stringify(lines));
  });
}

test('python-socketio: connect errors carry the message and do not start a reconnect loop', async () => {
  for (const [token, message] of [['invalido', 'Token inválido'], ['-', 'Sem token']]) {
    const lines = await runBot(token, 'default');
    const errors = lines.filter((l) => l.kind === 'connect_error');
    assert.equal(errors.length, 1, JSON.stringify(lines));
    assert.deepEqual(errors[0].data, { message });
    assert.equal(lines.filter((l) => l.kind === 'connected').length, 0);
  }
});
