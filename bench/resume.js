// The cost of a resume from the event log: a bot comes back with an offset N events behind (a
// pid this process never saw, as after a restart) and gets them all before live events.
// Prints the time from CONNECT to the last replayed event and the server's CPU for it.
//
//   node bench/resume.js [missed events, default 10000]
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const WebSocket = require('ws');

const BIN = path.resolve(process.env.PRACA_BIN || 'build/praca');
const MISSED = Number(process.argv[2] || 10000);
const TICK = 1e6 / 100; // µs per clock tick (USER_HZ 100)

async function start() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'praca-resume-'));
  const proc = spawn(BIN, ['serve', '--port', '0', '--data', path.join(dir, 'p.db'), '--access-log=0', '--rate-limit-scale', '1000000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => {
    let out = '';
    proc.stdout.on('data', (d) => { out += d; const m = out.match(/listening on (http:\/\/\S+)/); if (m) resolve(m[1]); });
  });
  return { proc, url };
}

const cpu = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * TICK; };

async function call(base, method, p, token, body) {
  const r = await fetch(base + p, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body && JSON.stringify(body) });
  return r.json();
}

(async () => {
  const s = await start();
  const owner = await call(s.url, 'POST', '/api/auth/register', null, { username: 'dono', password: 'senha-secreta-1' });
  const server = await call(s.url, 'POST', '/api/servers', owner.token, { name: 'bench' });
  const sid = server.server.id, cid = server.channels[0].id;
  const app = (await call(s.url, 'POST', '/api/applications', owner.token, { name: 'Bench' })).application;
  const bot = await call(s.url, 'POST', `/api/applications/${app.id}/bot`, owner.token);
  await call(s.url, 'PUT', `/api/applications/${app.id}/oauth/redirect-uris`, owner.token, { redirectUris: ['https://x.example/cb'] });
  await call(s.url, 'PUT', `/api/applications/${app.id}/intents`, owner.token, { intents: ['messages.read'] });
  const q = new URLSearchParams({ client_id: bot.application.clientId, redirect_uri: 'https://x.example/cb', permissions: '768' });
  const startInstall = await call(s.url, 'GET', `/api/oauth2/authorize/start?${q}`, owner.token);
  await call(s.url, 'POST', `/api/oauth2/authorize/${startInstall.authorizeSessionId}/complete`, owner.token, { serverId: sid });
  const url = `/api/bot/servers/${sid}/channels/${cid}/messages`;
  const first = await call(s.url, 'GET', '/api/bot/events?after=0', bot.token);
  const offset = first.next;
  let sent = 0;
  const send = async () => { while (sent < MISSED) { sent++; await call(s.url, 'POST', url, bot.token, { content: `m${sent}` }); } };
  await Promise.all(Array.from({ length: 16 }, send));
  await new Promise((r) => setTimeout(r, 500));
  const before = cpu(s.proc.pid);
  const t0 = process.hrtime.bigint();
  let got = 0;
  let firstAt = 0;
  await new Promise((resolve) => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    ws.on('message', (d) => {
      const t = d.toString();
      if (t[0] === '0') ws.send(`40${JSON.stringify({ token: bot.token, recovery: true, pid: 'p'.repeat(20), offset })}`);
      else if (t.startsWith('42')) {
        if (!got) firstAt = Number(process.hrtime.bigint() - t0) / 1e6;
        if (++got === MISSED) { ws.close(); resolve(); }
      }
    });
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const used = cpu(s.proc.pid) - before;
  s.proc.kill('SIGTERM');
  console.log(JSON.stringify({ missed: MISSED, replayed: got, msToFirst: +firstAt.toFixed(1), msToLast: +ms.toFixed(1), serverCpuMs: +(used / 1000).toFixed(1), serverCpuUsPerEvent: +(used / MISSED).toFixed(2) }));
})();
