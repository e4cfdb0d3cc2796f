// The gateway with python-socketio 5 (Debian's python3-socketio, under /usr/bin/python3):
// default, websocket-only and polling-only connections, events, and connect errors without
// a reconnect loop.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startServer, api, appWithBot, install, serverWithMembers, sharedServer } = require('./helpers');

const SCRIPT = path.join(__dirname, 'python_bot.py');
const srv = sharedServer();

// Runs the python bot; `during(lines)` is called once its connect() has returned.
function runBot(token, mode, during, seconds = 4, { base = srv.url, reconnect = false } = {}) {
  return new Promise((resolve, reject) => {
    const args = [SCRIPT, base, token, mode, String(seconds), ...(reconnect ? ['reconnect'] : [])];
    const p = spawn('/usr/bin/python3', args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
        if (line.kind === 'ready' && !started) {
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

test('python-socketio: after a SIGTERM and a restart the bot reconnects by itself and gets events', async () => {
  const s1 = await startServer();
  let s2;
  try {
    const w = await serverWithMembers(s1.url, 0);
    const info = await appWithBot(s1.url, w.owner, { intents: ['messages.read'] });
    await install(s1.url, w.owner, info, w.sid, { permissions: 768 });
    const url = `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`;
    const lines = await runBot(info.botToken, 'default', async (seen) => {
      s1.proc.kill('SIGTERM');
      assert.equal((await s1.exited).code, 0);
      s2 = await startServer({ dir: s1.dir, args: ['--port', String(s1.port)] });
      const until = Date.now() + 6000;
      while (seen.filter((l) => l.kind === 'connected').length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await api(s2.url, 'POST', url, { token: w.owner.token, body: { content: 'de volta' } });
    }, 9, { base: s1.url, reconnect: true });
    // Failed attempts while it is down show as connect_error; the client keeps trying.
    const life = lines.map((l) => l.kind).filter((k) => k !== 'connect_error' && k !== 'ready');
    assert.deepEqual(life.slice(0, 3), ['connected', 'disconnect', 'connected'], JSON.stringify(lines));
    assert.ok(lines.some((l) => l.kind === 'event' && l.content === 'de volta'), JSON.stringify(lines));
  } finally {
    if (s2) {
      const r = await s2.stop();
      assert.equal(r.code, 0, s2.stderr);
    }
    await s1.stop();
  }
});
