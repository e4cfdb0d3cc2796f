// A person's data archive ("Baixar meus dados") for an account of N messages (default 100,000)
// among OTHERS (default 4) times as many by someone else in the same channel, written straight
// into SQLite while the server is stopped; then the archive is asked for and followed: the time
// from the request to ready, its size, and the server's resident memory sampled every 10 ms
// before and during the making (it should not grow with N: the archive is written page by page).
//
//   N=10000 PRACA_BIN=build/praca node bench/export.js
//   N=100000 PRACA_BIN=build/praca node bench/export.js
'use strict';
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const { startServer, api, serverWithMembers } = require('../tests/e2e/helpers');

const N = Number(process.env.N || 100000);
const OTHERS = Number(process.env.OTHERS || 4);

const SEED_PY = `
import sqlite3, sys
path, n, others, channel, server, author, other = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
db = sqlite3.connect(path)
db.execute('PRAGMA synchronous=OFF')
cur = db.cursor()
cur.execute('BEGIN')
t0 = 1735689600000
for i in range(n * (1 + others)):
    who = author if i % (1 + others) == 0 else other
    cur.execute("INSERT INTO messages (id, channel_id, server_id, author_id, type, content, created_at) VALUES (?, ?, ?, ?, 'text', ?, ?)",
                ('01900000-%04x-7000-8000-%012x' % (i >> 48, i & 0xffffffffffff), channel, server, who,
                 'mensagem número %d de um arquivo de teste, com algumas palavras a mais' % i, t0 + i * 1000))
cur.execute('COMMIT')
db.commit()
`;

function rssKb(pid) {
  const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return m ? Number(m[1]) : 0;
}

async function main() {
  const args = ['--rate-limit-scale', '100000', '--access-log=0'];
  const first = await startServer({ single: true, args });
  const w = await serverWithMembers(first.url, 1);
  const cid = w.server.channels[0].id;
  const store = first.storeArgs;
  await first.stop();
  const seeded = spawnSync('/usr/bin/python3', ['-c', SEED_PY, store[1], String(N), String(OTHERS), cid, w.sid, w.owner.user.id, w.members[0].user.id], { encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error('seed: ' + seeded.stderr);
  const srv = await startServer({ single: true, dir: first.dir, store, args });
  try {
    const pid = srv.proc.pid;
    const call = (method, p) => api(srv.url, method, p, { token: w.owner.token });
    await call('GET', '/api/users/@me');
    const before = rssKb(pid);
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, rssKb(pid)); }, 10);
    const t = process.hrtime.bigint();
    const started = await call('POST', '/api/users/@me/exports');
    if (started.status !== 202) throw new Error(started.text);
    let x;
    for (;;) {
      x = (await call('GET', '/api/users/@me/exports')).body.exports[0];
      if (x.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    clearInterval(sampler);
    if (x.status !== 'ready') throw new Error('archive ' + x.status);
    const res = await fetch(`${srv.url}/api/users/@me/exports/${x.id}/archive`, { headers: { authorization: `Bearer ${w.owner.token}` } });
    const bytes = Buffer.from(await res.arrayBuffer()).length;
    console.log(JSON.stringify({ messages: N, othersInChannel: N * OTHERS, readyMs: Math.round(ms), archiveBytes: bytes,
                                 rssBeforeKb: before, rssPeakKb: peak, rssGrowthKb: peak - before }));
  } finally {
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
