// Events pushed over HTTP: what pushing costs the server per event, and how late events reach
// the endpoint, at RATE messages a second (default 1,000) for SECONDS (default 10).
//
// One server, one application whose bot has messages.read, one receiver (node:http in this
// process, answering 204). The same load runs in ROUNDS (default 3) pairs of rounds in one run:
// with pushing paused (the baseline: the sends, the log, the gateway), then on. The difference
// in the server's CPU (utime + stime from /proc/PID/stat) per send, over the events delivered, is
// the cost of pushing one event; lag is the time from the send's answer to the batch's arrival,
// per message. Also checked: every message arrives once, in position order.
//
//   PRACA_BIN=build/praca node bench/event_push.js
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const { spawnSync } = require('node:child_process');
const { startServer, api, appWithBot, install, serverWithMembers } = require('../tests/e2e/helpers');

const RATE = Number(process.env.RATE || 1000);
const SECONDS = Number(process.env.SECONDS || 10);
const ROUNDS = Number(process.env.ROUNDS || 3);
const TICK = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;
const cpuMs = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return ((Number(f[11]) + Number(f[12])) * 1000) / TICK; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const srv = await startServer({ args: ['--rate-limit-scale', '100000', '--access-log=0', '--allow-private-endpoints'] });
  const sentAt = new Map();
  const lagOf = new Map();
  const seen = new Set();
  let duplicates = 0, outOfOrder = 0, lastPosition = 0n, batches = 0;
  const receiver = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      batches++;
      for (const e of JSON.parse(Buffer.concat(chunks)).events) {
        if (e.type !== 'MESSAGE_CREATE') continue;
        const position = BigInt(e.position);
        if (position <= lastPosition) outOfOrder++;
        lastPosition = position;
        if (seen.has(e.data.content)) { duplicates++; continue; }
        seen.add(e.data.content);
        const t = sentAt.get(e.data.content);
        if (t !== undefined) lagOf.set(e.data.content, now - t);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const { owner, sid, server } = await serverWithMembers(srv.url, 0);
    const info = await appWithBot(srv.url, owner, { name: 'Carteiro', intents: ['messages.read'] });
    await install(srv.url, owner, info, sid, { permissions: 256 | 512 | 4096 | 65536 });
    await api(srv.url, 'POST', `/api/applications/${info.app.id}/interactions/signing-secret/rotate`, { token: owner.token });
    const url = `${srv.url}/api/bot/servers/${sid}/channels/${server.channels[0].id}/messages`;
    const headers = { authorization: `Bearer ${info.botToken}`, 'content-type': 'application/json' };

    // RATE sends a second, in slices of 10 ms; each send's answer time is kept by its text.
    const load = async (tag) => {
      const total = RATE * SECONDS;
      const perSlice = RATE / 100;
      const pending = [];
      const t0 = performance.now();
      for (let i = 0; i < total; i++) {
        const content = `${tag}${i}`;
        // A keep-alive connection the server closed as the request went out is tried again; the
        // nonce makes that safe (the message is created once).
        const body = JSON.stringify({ content, nonce: content, enforceNonce: true });
        const send = (tries) => fetch(url, { method: 'POST', headers, body }).catch((e) => { if (tries > 0) return send(tries - 1); throw e; });
        pending.push(send(2).then(async (r) => {
          if (r.status !== 200) throw new Error(`${r.status} ${await r.text()}`);
          await r.arrayBuffer();
          sentAt.set(content, performance.now());
        }));
        if ((i + 1) % perSlice === 0) {
          const due = t0 + ((i + 1) / perSlice) * 10;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
        }
      }
      await Promise.all(pending);
      return { total, ms: performance.now() - t0 };
    };

    const config = `/api/applications/${info.app.id}/events-config`;
    const owned = async (method, path, body) => {
      const r = await api(srv.url, method, path, { token: owner.token, body });
      if (r.status !== 200) throw new Error(r.text);
      return r.body;
    };
    await owned('PUT', config, { eventsEndpointUrl: `http://127.0.0.1:${receiver.address().port}/eventos` });
    await owned('POST', `${config}/pause`);
    await load('w'); // warm up

    // Rounds alternate: the same load with pushing paused, then on (from the log's end, so the
    // paused round's events are not pushed during it).
    let offCpu = 0, onCpu = 0, offSends = 0, onSends = 0, onEvents = 0, sentRate = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let before = cpuMs(srv.proc.pid);
      offSends += (await load(`a${round}-`)).total;
      await sleep(300);
      offCpu += cpuMs(srv.proc.pid) - before;

      const { lastPosition } = await owned('GET', config);
      await owned('POST', `${config}/replay`, { after: lastPosition });
      await owned('POST', `${config}/resume`);
      await sleep(300);
      const tag = `p${round}-`;
      before = cpuMs(srv.proc.pid);
      const pushed = await load(tag);
      const until = Date.now() + 30000;
      const count = () => [...seen].filter((c) => c.startsWith(tag)).length;
      while (count() < pushed.total && Date.now() < until) await sleep(20);
      await sleep(300 - 20);
      onCpu += cpuMs(srv.proc.pid) - before;
      onSends += pushed.total;
      onEvents += count();
      sentRate = Math.round(pushed.total / (pushed.ms / 1000));
      await owned('POST', `${config}/pause`);
    }
    const pLags = [...sentAt.keys()].filter((c) => c[0] === 'p').map((c) => lagOf.get(c)).filter((x) => x !== undefined);
    console.log(JSON.stringify({
      measure: 'events pushed over HTTP', rate: RATE, seconds: SECONDS, rounds: ROUNDS, sentRatePerSec: sentRate,
      pausedCpuUsPerSend: +((offCpu * 1000) / offSends).toFixed(1),
      pushingCpuUsPerSend: +((onCpu * 1000) / onSends).toFixed(1),
      pushCpuUsPerEvent: +(((onCpu / onSends - offCpu / offSends) * 1000 * onSends) / onEvents).toFixed(1),
      delivered: onEvents, of: onSends, duplicates, outOfOrder, batches,
      eventsPerBatch: +(onEvents / batches).toFixed(1),
      lagP50Ms: pct(pLags, 50), lagP99Ms: pct(pLags, 99), lagMaxMs: pct(pLags, 100),
    }));
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
