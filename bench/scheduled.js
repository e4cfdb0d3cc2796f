// What the scheduler costs while messages wait, and while many come due at once.
//
// PENDING scheduled messages (default 100,000), due in the next 30 days, are written straight into
// a fresh SQLite file (as bench/directory.js seeds), for PEOPLE members (default 1,000) of one
// server. Then, on one praca with --test-clock:
//   - idle: the server's CPU over SECONDS (default 20) while nothing is due, against the same with
//     no scheduled message at all (the once-a-second look for what is due);
//   - due: the clock moves so that the DUE soonest (default 1,000) are due at once; the time until
//     every one of them is in the channel's history, and the server's CPU per message sent.
//
//   PRACA_BIN=build/praca node bench/scheduled.js
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, api, register } = require('../tests/e2e/helpers');
const { cpuNs } = require('./measure');

const PENDING = Number(process.env.PENDING || 100000);
const PEOPLE = Number(process.env.PEOPLE || 1000);
const SECONDS = Number(process.env.SECONDS || 20);
const DUE = Number(process.env.DUE || 1000);
const ARGS = ['--rate-limit-scale', '100000', '--access-log=0', '--test-clock'];
const MINUTE = 60e3;

const SEED_PY = `
import sqlite3, sys, time
path, sid, cid, pending, people = sys.argv[1:6]
pending, people = int(pending), int(people)
db = sqlite3.connect(path)
db.execute('PRAGMA synchronous=OFF')
cur = db.cursor()
cur.execute('BEGIN')
now = int(time.time() * 1000)
def uid(i): return '01970000-0000-7000-8000-%012x' % i
for i in range(people):
    cur.execute("INSERT INTO users (id, username, display_name, created_at) VALUES (?, ?, ?, ?)", (uid(i), 'agenda%07d' % i, 'Agenda %d' % i, now))
    cur.execute("INSERT INTO members (server_id, user_id, joined_at) VALUES (?, ?, ?)", (sid, uid(i), now - 3600000))
for k in range(pending):
    # The first ${DUE} a minute apart from an hour ahead; the rest spread over 30 days after them.
    at = now + 3600000 + (k * 60000 if k < ${DUE} else ${DUE} * 60000 + (k * 2591) % (30 * 86400000))
    cur.execute("INSERT INTO scheduled_messages (id, user_id, server_id, channel_id, content, send_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                ('01980000-0000-7000-8000-%012x' % k, uid(k % people), sid, cid, 'agendada %d' % k, at, now))
cur.execute('COMMIT')
db.close()
`;

async function idleCpu(srv) {
  const c0 = cpuNs(srv.proc.pid);
  await new Promise((ok) => setTimeout(ok, SECONDS * 1000));
  return (cpuNs(srv.proc.pid) - c0) / 1e6 / SECONDS; // ms of CPU per second
}

(async () => {
  const first = await startServer({ single: true, args: ARGS });
  const owner = await register(first.url);
  const sid = (await api(first.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Agenda' } })).body.server.id;
  const cid = (await api(first.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).body.channels[0].id;
  const empty = await idleCpu(first);
  const dir = first.dir;
  await first.stop();
  const db = fs.readdirSync(dir).find((f) => f.endsWith('.db'));
  const seeded = spawnSync('python3', ['-c', SEED_PY, path.join(dir, db), sid, cid, String(PENDING), String(PEOPLE)], { encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error(seeded.stderr);
  const srv = await startServer({ single: true, dir, args: ARGS });
  try {
    const waiting = await idleCpu(srv);
    const pid = srv.proc.pid;
    const c0 = cpuNs(pid);
    const t0 = Date.now();
    await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 3600e3 + DUE * MINUTE } });
    let sent = 0;
    for (;;) {
      const r = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${cid}/messages?limit=1`, { token: owner.token });
      const last = r.body.messages[0];
      sent = last ? Number(last.content.split(' ')[1]) + 1 : 0;
      if (sent >= DUE || Date.now() - t0 > 300e3) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    const seconds = (Date.now() - t0) / 1000;
    const cpuUs = (cpuNs(pid) - c0) / 1e3;
    console.log(JSON.stringify({
      pending: PENDING, people: PEOPLE,
      idleCpuMsPerSecond: { none: +empty.toFixed(2), pending: +waiting.toFixed(2) },
      due: { messages: DUE, lastSent: sent, seconds: +seconds.toFixed(1), perSecond: Math.round(DUE / seconds), cpuUsPerMessage: Math.round(cpuUs / DUE) },
    }));
  } finally {
    await srv.stop();
  }
})().catch((e) => { console.error(e); process.exit(1); });
