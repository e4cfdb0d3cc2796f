// Votes on one poll at a steady rate: the server's CPU per vote, each vote's latency, and whether
// the final count is exact.
//
// VOTERS members (default 5,000) are written straight into a fresh SQLite file (as
// bench/directory.js seeds), with a session each; PAGES of them (default 20) keep a page
// connected, so each vote is also a MESSAGE_POLL_UPDATE to those pages. Then every voter votes
// once, sent open-loop at RATE votes a second (default 1,000), and then half of them change their
// vote, at the same rate. The counts the poll shows at the end are compared with what was sent.
//
//   PRACA_BIN=build/praca node bench/polls.js
//   VOTERS=2000 RATE=500 node bench/polls.js
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, gatewayConnect } = require('../tests/e2e/helpers');
const { cpuNs, pct } = require('./measure');

const VOTERS = Number(process.env.VOTERS || 5000);
const PAGES = Number(process.env.PAGES || 20);
const RATE = Number(process.env.RATE || 1000);
const ANSWERS = 4;
const ARGS = ['--rate-limit-scale', '100000', '--access-log=0', '--max-connections-per-address', '0'];

const SEED_PY = `
import sqlite3, sys, hashlib, time
path, sid, voters, tokens_out = sys.argv[1:5]
voters = int(voters)
db = sqlite3.connect(path)
db.execute('PRAGMA synchronous=OFF')
cur = db.cursor()
cur.execute('BEGIN')
now = int(time.time() * 1000)
tokens = []
for i in range(voters):
    uid = '01960000-0000-7000-8000-%012x' % i
    cur.execute("INSERT INTO users (id, username, display_name, created_at) VALUES (?, ?, ?, ?)", (uid, 'eleitor%07d' % i, 'Eleitor %d' % i, now))
    cur.execute("INSERT INTO members (server_id, user_id, joined_at) VALUES (?, ?, ?)", (sid, uid, now))
    token = 'bench-polls-token-%07d' % i
    tokens.append(token)
    cur.execute("INSERT INTO tokens (hash, user_id, kind, created_at, last_used_at) VALUES (?, ?, 'session', ?, ?)",
                (hashlib.sha256(token.encode()).hexdigest(), uid, now, now))
cur.execute('COMMIT')
db.close()
open(tokens_out, 'w').write(chr(10).join(tokens))
`;

// Sends every vote of `votes` ([token, answerIds]) open-loop at RATE a second.
async function paced(url, path_, votes) {
  const lat = [];
  let failed = 0;
  const t0 = process.hrtime.bigint();
  const inFlight = [];
  for (let i = 0; i < votes.length; i++) {
    const due = t0 + BigInt(Math.round((i * 1e9) / RATE));
    const wait = Number(due - process.hrtime.bigint()) / 1e6;
    if (wait > 1) await new Promise((ok) => setTimeout(ok, wait));
    const [token, answerIds] = votes[i];
    const sent = process.hrtime.bigint();
    inFlight.push(api(url, 'PUT', path_, { token, body: { answerIds } }).then((r) => {
      if (r.status !== 200) failed++;
      lat.push(Number(process.hrtime.bigint() - sent) / 1e6);
    }));
  }
  await Promise.all(inFlight);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { votes: votes.length, failed, perSecond: Math.round(votes.length / seconds), p50Ms: +pct(lat, 0.5).toFixed(2), p99Ms: +pct(lat, 0.99).toFixed(2) };
}

(async () => {
  const first = await startServer({ single: true, args: ARGS });
  const owner = await register(first.url);
  const sid = (await api(first.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Eleição' } })).body.server.id;
  const cid = (await api(first.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).body.channels[0].id;
  const poll = { question: 'Qual dia?', durationHours: 2, answers: Array.from({ length: ANSWERS }, (_, i) => ({ text: `Dia ${i + 1}` })) };
  const mid = (await api(first.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { poll } })).body.message.id;
  const dir = first.dir;
  await first.stop();
  const db = fs.readdirSync(dir).find((f) => f.endsWith('.db'));
  const tokensFile = path.join(dir, 'tokens.txt');
  const seeded = spawnSync('python3', ['-c', SEED_PY, path.join(dir, db), sid, String(VOTERS), tokensFile], { encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error(seeded.stderr);
  const tokens = fs.readFileSync(tokensFile, 'utf8').split('\n');

  const srv = await startServer({ single: true, dir, args: ARGS });
  const sockets = [];
  try {
    for (const token of tokens.slice(0, PAGES)) {
      const t = await api(srv.url, 'POST', '/api/gateway/ticket', { token });
      await gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
    }
    const url = `/api/servers/${sid}/channels/${cid}/messages/${mid}/poll/vote`;
    const expected = Array(ANSWERS).fill(0);
    const firstRound = tokens.map((token, i) => [token, [(i % ANSWERS) + 1]]);
    // Half change their vote to the first answer.
    const changes = tokens.filter((_, i) => i % 2 === 1).map((token) => [token, [1]]);
    const chosen = firstRound.map(([, ids]) => ids[0]);
    for (let i = 1; i < chosen.length; i += 2) chosen[i] = 1;
    for (const a of chosen) expected[a - 1]++;
    const pid = srv.proc.pid;
    const out = { voters: VOTERS, pages: PAGES, rate: RATE };
    for (const [label, votes] of [['firstVotes', firstRound], ['changedVotes', changes]]) {
      const c0 = cpuNs(pid);
      const r = await paced(srv.url, url, votes);
      out[label] = { ...r, cpuUsPerVote: Math.round((cpuNs(pid) - c0) / 1e3 / votes.length) };
    }
    const final = (await api(srv.url, 'GET', url.replace('/vote', ''), { token: owner.token })).body.poll;
    const counts = final.answers.map((a) => a.count);
    out.final = { counts, expected, voters: final.voters, exact: JSON.stringify(counts) === JSON.stringify(expected) && final.voters === VOTERS };
    const heard = sockets.reduce((n, s) => n + s.received.filter((e) => e.name === 'MESSAGE_POLL_UPDATE').length, 0);
    out.pagesHeard = `${heard} of ${PAGES * (firstRound.length + changes.length)}`;
    console.log(JSON.stringify(out));
  } finally {
    for (const s of sockets) s.disconnect();
    await srv.stop();
  }
})().catch((e) => { console.error(e); process.exit(1); });
