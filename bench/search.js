// Search latency on a large server: N messages (default 1,000,000) of 8–14 words from a
// vocabulary of 3,000, written straight into the database while the server is stopped (SQLite
// through Python's sqlite3, then its FTS5 index rebuilt and marked caught up, as the migration
// does for messages already there; PostgreSQL with one INSERT … SELECT, its GIN index included), then
// each query asked RUNS times (default 30) through the API one after another: p50/p99; then a
// crowd of filter-only searches beside a bystander's history reads (see crowd below).
//
//   PRACA_BIN=build/praca node bench/search.js                              (SQLite)
//   PRACA_BIN=build/praca scripts/with-postgres.sh node bench/search.js     (PostgreSQL)
'use strict';
const { spawnSync } = require('node:child_process');
const { startServer, api, serverWithMembers } = require('../tests/e2e/helpers');

const N = Number(process.env.N || 1000000);
const RUNS = Number(process.env.RUNS || 30);
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1); };

// Word i of the vocabulary: syllables, so stemming has something to do. 'xilofone' is rare (1 in
// 100,000 messages), 'reuniao' common (1 in 10).
const SEED_PY = `
import sqlite3, random, sys
path, n, channel, server, author = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
s = ['ba','ca','da','fa','ga','la','ma','na','pa','ra','sa','ta','va','be','ce','de','fe','le','me','ne','pe','re','se','te','bi','di','li','mi','ni','pi','ri','si','ti','bo','co','do','fo','go','lo','mo','no','po','ro','so','to','vo','bu','cu','du','lu','mu','nu','pu','ru','su','tu']
random.seed(7)
words = list({random.choice(s) + random.choice(s) + random.choice(s) + random.choice(['', 'r', 's', 'l', 'ndo', 'ção']) for _ in range(4000)})[:3000]
db = sqlite3.connect(path)
db.execute('PRAGMA synchronous=OFF')
cur = db.cursor()
cur.execute('BEGIN')
t0 = 1735689600000
for i in range(n):
    w = random.choices(words, k=random.randint(8, 14))
    if i % 10 == 0: w.append('reuniao')
    if i % 100000 == 7: w.append('xilofone')
    cur.execute("INSERT INTO messages (id, channel_id, server_id, author_id, type, content, created_at) VALUES (?, ?, ?, ?, 'text', ?, ?)",
                ('01900000-%04x-7000-8000-%012x' % (i >> 48, i & 0xffffffffffff), channel, server, author, ' '.join(w), t0 + i * 1000))
cur.execute('COMMIT')
db.execute("INSERT INTO message_search(message_search) VALUES ('rebuild')")
db.execute('UPDATE message_search_state SET indexed_rowid = (SELECT MAX(rowid) FROM messages) WHERE id = 1')
db.commit()
db.close()
`;

const SEED_PG = (channel, server, author) => `
SET synchronous_commit = off;
SELECT setseed(0.7);
CREATE TEMP TABLE vocab AS
  SELECT array_agg(w) AS v FROM (SELECT a || b || c AS w FROM unnest(string_to_array('ba ca da fa ga la ma na pa ra sa ta va be ce de fe le me ne pe re se te bi di li mi ni pi ri si ti bo co do fo go lo mo no po ro so to vo', ' ')) a,
    unnest(string_to_array('ba ca da fa ga la ma na pa ra sa ta va be ce de fe le me ne pe re se te', ' ')) b,
    unnest(string_to_array('ro so to vo ndo', ' ')) c LIMIT 3000) x;
INSERT INTO messages (id, channel_id, server_id, author_id, type, content, created_at)
SELECT '01900000-' || lpad(to_hex(i >> 48), 4, '0') || '-7000-8000-' || lpad(to_hex(i & 281474976710655), 12, '0'),
       '${channel}', '${server}', '${author}', 'text',
       array_to_string(ARRAY(SELECT (SELECT v FROM vocab)[1 + floor(random() * 3000)::int] FROM generate_series(1, 8 + (i % 7) + 0 * i)), ' ')
         || CASE WHEN i % 10 = 0 THEN ' reuniao' ELSE '' END || CASE WHEN i % 100000 = 7 THEN ' xilofone' ELSE '' END,
       1735689600000 + i * 1000
FROM generate_series(0, ${N} - 1) i;
ANALYZE messages;
`;

// CROWD (default 16) filter-only searches asked over and over at once for CROWD_SECONDS (10),
// each following `next` as the page does, while a bystander reads the channel's history every
// 20 ms: the bystander's p50/p99, and the searches answered.
const CROWD = Number(process.env.CROWD || 16);
const CROWD_SECONDS = Number(process.env.CROWD_SECONDS || 10);

async function crowd(srv, w, cid) {
  const until = Date.now() + CROWD_SECONDS * 1000;
  let searches = 0;
  const searcher = async () => {
    let before = '';
    while (Date.now() < until) {
      const r = await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=has:link${before}`, { token: w.owner.token });
      if (r.status !== 200) throw new Error(`crowd: ${r.status} ${r.text}`);
      searches++;
      before = r.body.next ? `&before=${r.body.next}` : '';
    }
  };
  const reads = [];
  const bystander = async () => {
    while (Date.now() < until) {
      const t = process.hrtime.bigint();
      const r = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages?limit=50`, { token: w.owner.token });
      reads.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (r.status !== 200) throw new Error(`bystander: ${r.status}`);
      await new Promise((res) => setTimeout(res, 20));
    }
  };
  await Promise.all([bystander(), ...Array.from({ length: CROWD }, searcher)]);
  console.log(JSON.stringify({ crowd: CROWD, seconds: CROWD_SECONDS, searches, bystanderReads: reads.length, bystanderP50Ms: pct(reads, 50), bystanderP99Ms: pct(reads, 99) }));
}

async function main() {
  const first = await startServer({ single: true, args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  const w = await serverWithMembers(first.url, 0);
  const cid = w.server.channels[0].id;
  const store = first.storeArgs;
  await first.stop();
  const engine = store[0] === '--database-url' ? 'postgres' : 'sqlite';
  const t0 = Date.now();
  const seeded = engine === 'sqlite'
    ? spawnSync('/usr/bin/python3', ['-c', SEED_PY, store[1], String(N), cid, w.sid, w.owner.user.id], { encoding: 'utf8' })
    : spawnSync('psql', [store[1], '-qv', 'ON_ERROR_STOP=1', '-c', SEED_PG(cid, w.sid, w.owner.user.id)], { encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error('seed: ' + seeded.stderr);
  console.log(JSON.stringify({ engine, messages: N, seedSeconds: Math.round((Date.now() - t0) / 1000) }));
  const srv = await startServer({ single: true, dir: first.dir, store, args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  try {
    for (const q of ['xilofone', 'reuniao', 'reuniao badaca', '"reuniao"', `reuniao from:${w.owner.user.username}`, 'has:link', 'reuniao before:2025-01-05']) {
      const times = [];
      let found = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = process.hrtime.bigint();
        const r = await api(srv.url, 'GET', `/api/servers/${w.sid}/messages/search?q=${encodeURIComponent(q)}`, { token: w.owner.token });
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
        if (r.status !== 200) throw new Error(`${q}: ${r.status} ${r.text}`);
        found = r.body.messages.length;
      }
      console.log(JSON.stringify({ engine, q, found, p50Ms: pct(times, 50), p99Ms: pct(times, 99) }));
    }
    await crowd(srv, w, cid);
  } finally {
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
