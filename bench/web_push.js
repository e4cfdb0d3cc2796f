// Web Push: what a push costs and how long it takes, against a push service on the loopback that
// answers 201 at once (this process; it decrypts one push per message, RFC 8291, to check it).
//  1. A DM to a person with one device, one at a time: the send's answer, and send → the push
//     arriving (p50, p99).
//  2. PEOPLE people with DEVICES devices each (1,000 by default), all hearing everything from one
//     server: a message, one at a time, to its first and last push, and Praça's CPU per push.
//  3. A send's own answer in that server, with those devices told of every message (pushes
//     pile up behind the sends), against the same sends told to nobody (level "nothing"), and
//     against a server with no device at all.
//
//   PEOPLE=100 DEVICES=10 N=200 M=20 PRACA_BIN=build/praca node bench/web_push.js
'use strict';
const http = require('node:http');
const crypto = require('node:crypto');
const { cpuNs, pct } = require('./measure');
const { startServer, api, register, freePort } = require('../tests/e2e/helpers');
const { decrypt } = require('../tests/e2e/push_service');

const PEOPLE = Number(process.env.PEOPLE || 100);
const DEVICES = Number(process.env.DEVICES || 10);
const N = Number(process.env.N || 200);
const M = Number(process.env.M || 20);

// The push service: each device's path, its keys, and when pushes came.
function sink() {
  const devices = new Map(); // path → {ecdh, auth}
  const arrivals = []; // {at (ms, hrtime), path, body}
  let waiting = null;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ at: Number(process.hrtime.bigint()) / 1e6, path: req.url, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
      if (waiting && arrivals.length >= waiting.n) { waiting.resolve(); waiting = null; }
    });
  });
  return {
    server, devices, arrivals,
    device(base) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const path = `/push/${crypto.randomBytes(8).toString('hex')}`;
      devices.set(path, { ecdh, auth });
      return { endpoint: base + path, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
    },
    until(n, ms = 60000) {
      if (arrivals.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiting = { n, resolve };
        setTimeout(() => reject(new Error(`${arrivals.length} of ${n} pushes in ${ms} ms`)), ms).unref();
      });
    },
    read(a) {
      const d = devices.get(a.path);
      return JSON.parse(decrypt(a.body, d.ecdh, d.auth));
    },
  };
}

const now = () => Number(process.hrtime.bigint()) / 1e6;
const round = (x) => +x.toFixed(2);

async function main() {
  const push = sink();
  const port = await freePort();
  await new Promise((r) => push.server.listen(port, '127.0.0.1', r));
  const base = `http://127.0.0.1:${port}`;
  const srv = await startServer({ single: true, args: ['--allow-private-endpoints', '--rate-limit-scale', '100000',
    '--registrations-per-address', '0', '--access-log=0'] });
  const call = (who, method, path, body) => api(srv.url, method, path, { token: who.token, body });
  const pid = srv.proc.pid;
  try {
    const owner = await register(srv.url);
    const { server, channels } = (await call(owner, 'POST', '/api/servers', { name: 'Bancada' })).body;
    const sid = server.id, cid = channels[0].id;
    const code = (await call(owner, 'POST', `/api/servers/${sid}/invites`, {})).body.code;
    const send = async (content) => {
      const t0 = now();
      const r = await call(owner, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { content });
      if (r.status !== 200) throw new Error(`send: ${r.status} ${r.text}`);
      return now() - t0;
    };
    // 3, first: no device anywhere.
    const bare = [];
    for (let i = 0; i < N; i++) bare.push(await send(`sem aparelhos ${i}`));

    // 1. A DM, one device.
    const bia = await register(srv.url);
    await call(bia, 'POST', `/api/invites/${code}/join`);
    await call(bia, 'PUT', '/api/users/@me/push-subscriptions', push.device(base));
    const dm = (await call(owner, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
    const dmSend = [], dmPush = [];
    for (let i = 0; i < N; i++) {
      const had = push.arrivals.length; // the push may come before the send's answer
      const t0 = now();
      const r = await call(owner, 'POST', `/api/dms/${dm.id}/messages`, { content: `dm ${i}` });
      dmSend.push(now() - t0);
      await push.until(had + 1);
      const a = push.arrivals[had];
      if (push.read(a).messageId !== r.body.message.id) throw new Error('the push is not the message\'s');
      dmPush.push(a.at - t0);
    }
    console.log(JSON.stringify({ case: 'dm, one device', sends: N, send_p50_ms: round(pct(dmSend, 0.5)), send_p99_ms: round(pct(dmSend, 0.99)),
      push_p50_ms: round(pct(dmPush, 0.5)), push_p99_ms: round(pct(dmPush, 0.99)) }));

    // 2. PEOPLE × DEVICES devices, all hearing everything.
    const people = [bia];
    while (people.length < PEOPLE) {
      const batch = await Promise.all(Array.from({ length: Math.min(8, PEOPLE - people.length) }, () => register(srv.url)));
      people.push(...batch);
    }
    for (const p of people) {
      if (p !== bia) await call(p, 'POST', `/api/invites/${code}/join`);
      const have = p === bia ? 1 : 0;
      for (let d = have; d < DEVICES; d++) await call(p, 'PUT', '/api/users/@me/push-subscriptions', push.device(base));
      await call(p, 'PUT', `/api/servers/${sid}/notification-settings`, { level: 'nothing' });
    }
    const devices = PEOPLE * DEVICES;
    // 3, second: the devices are there, and told nothing.
    const untold = [];
    for (let i = 0; i < N; i++) untold.push(await send(`ninguém ouve ${i}`));
    for (const p of people) await call(p, 'PUT', `/api/servers/${sid}/notification-settings`, { level: 'all' });
    const first = [], last = [];
    let pushes = 0;
    const cpu0 = cpuNs(pid);
    for (let i = 0; i < M; i++) {
      const had = push.arrivals.length;
      const t0 = now();
      await send(`todos ouvem ${i}`);
      await push.until(had + devices);
      first.push(push.arrivals[had].at - t0);
      last.push(push.arrivals[had + devices - 1].at - t0);
      push.read(push.arrivals[had + devices - 1]);
      pushes += devices;
    }
    const cpu = (cpuNs(pid) - cpu0) / 1000;
    console.log(JSON.stringify({ case: `${devices} devices told of each message`, messages: M,
      first_push_p50_ms: round(pct(first, 0.5)), last_push_p50_ms: round(pct(last, 0.5)), last_push_p99_ms: round(pct(last, 0.99)),
      cpu_us_per_push: round(cpu / pushes), cpu_ms_per_message: round(cpu / M / 1000) }));
    // 3, third: sends one after the other while every one of them makes `devices` pushes.
    const had = push.arrivals.length;
    const told = [];
    for (let i = 0; i < N; i++) told.push(await send(`uma após a outra ${i}`));
    const sendsDone = now();
    await push.until(had + N * devices, 600000);
    const drained = now() - sendsDone;
    const row = (name, xs) => ({ case: name, sends: N, send_p50_ms: round(pct(xs, 0.5)), send_p99_ms: round(pct(xs, 0.99)) });
    console.log(JSON.stringify(row('send, no device anywhere', bare)));
    console.log(JSON.stringify(row(`send, ${devices} devices told nothing`, untold)));
    console.log(JSON.stringify({ ...row(`send, ${devices} devices told of each`, told), pushes: N * devices,
      pushes_done_ms_after_last_send: Math.round(drained) }));
  } finally {
    await srv.stop();
    push.server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
