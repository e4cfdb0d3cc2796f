// Sign-ins a node serves in a second: ACCOUNTS people (default 200) registered, then signed in
// again and again by CONCURRENCY clients at once (default 16) for SECONDS (default 10), with
// right passwords. Reported: sign-ins a second answered 200, those refused 503 (the hashing
// pool's queue full), p50/p99 of a sign-in, and the server's CPU per sign-in. The hash is the
// server's own (Argon2id now; PRACA_BIN of an older build compares scrypt).
//
//   PRACA_BIN=build/praca node bench/logins.js
'use strict';
const { startServer, api, register } = require('../tests/e2e/helpers');
const { cpuNs, pct } = require('./measure');

const ACCOUNTS = Number(process.env.ACCOUNTS || 200);
const CONCURRENCY = Number(process.env.CONCURRENCY || 16);
const SECONDS = Number(process.env.SECONDS || 10);
const ARGS = (process.env.ARGS || '').split(' ').filter(Boolean);

(async () => {
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0', ...ARGS] });
  const people = [];
  const t0 = Date.now();
  for (let i = 0; i < ACCOUNTS; i += CONCURRENCY) {
    people.push(...await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ACCOUNTS - i) }, () => register(srv.url))));
  }
  console.log(`registered ${ACCOUNTS} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const lat = [];
  let ok = 0, busy = 0, other = 0, n = 0;
  const until = Date.now() + SECONDS * 1000;
  const c0 = cpuNs(srv.proc.pid), w0 = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < until) {
      const who = people[n++ % people.length];
      const s = process.hrtime.bigint();
      const r = await api(srv.url, 'POST', '/api/auth/login', { body: { username: who.user.username, password: 'senha-secreta-1' } });
      lat.push(Number(process.hrtime.bigint() - s) / 1e6);
      if (r.status === 200) ok++; else if (r.status === 503) busy++; else other++;
    }
  }));
  const wall = (Date.now() - w0) / 1000, cpuMs = (cpuNs(srv.proc.pid) - c0) / 1e6;
  console.log(`sign-ins: ${(ok / wall).toFixed(1)} a second answered 200 (${ok} in ${wall.toFixed(1)} s), ${busy} answered 503, ${other} other`);
  console.log(`latency p50 ${pct(lat, 0.5).toFixed(1)} ms, p99 ${pct(lat, 0.99).toFixed(1)} ms; server CPU ${(cpuMs / Math.max(ok, 1)).toFixed(1)} ms per sign-in`);
  await srv.stop();
})().catch((e) => { console.error(e); process.exit(1); });
