// The server directory's costs, and how they grow with the members of discoverable servers.
//
// For each MEMBERS size (default 10,000, 100,000 and 1,000,000 memberships), SERVERS
// discoverable servers (default 10,000) are written straight into a fresh SQLite file (Python's
// sqlite3, as bench/large_server.js seeds), the memberships spread as communities are: the
// largest server holds a fifth of them, the rest fall off as 1/rank. ONLINE people (default 500)
// of the largest servers keep a page connected, so the online counts have something to count.
// Then, on one praca:
//   - the snapshot: praca runs with --directory-refresh-seconds 0, so each request reads the
//     directory again: the server's CPU and the latency of one reading, per membership;
//   - a search on the kept snapshot (the default refresh): the server's CPU per request and its
//     p50/p99 for the first page, a word query, a two-word query and a tag, REQUESTS each
//     (default 2,000), sent CONCURRENCY (default 8) at a time.
//
//   PRACA_BIN=build/praca node bench/directory.js
//   SIZES=10000,100000 SERVERS=1000 node bench/directory.js
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, gatewayConnect } = require('../tests/e2e/helpers');
const { cpuNs, pct } = require('./measure');

const SIZES = (process.env.SIZES || '10000,100000,1000000').split(',').map(Number);
const SERVERS = Number(process.env.SERVERS || 10000);
const ONLINE = Number(process.env.ONLINE || 500);
const REQUESTS = Number(process.env.REQUESTS || 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY || 8);
const ARGS = ['--rate-limit-scale', '100000', '--access-log=0', '--max-connections-per-address', '0'];

const SEED_PY = `
import sqlite3, sys, json, hashlib, time
path, owner, servers, members, tokens_out, online = sys.argv[1:7]
servers, members, online = int(servers), int(members), int(online)
db = sqlite3.connect(path)
db.execute('PRAGMA synchronous=OFF')
cur = db.cursor()
cur.execute('BEGIN')
t0 = 1735689600000
words = ['musica', 'jogos', 'xadrez', 'estudos', 'programacao', 'cinema', 'livros', 'futebol', 'arte', 'culinaria',
         'viagem', 'idiomas', 'ciencia', 'anime', 'fotografia', 'plantas', 'corrida', 'podcast', 'historia', 'design']
def sid(i): return '01940000-%04x-7000-8000-%012x' % (i >> 48, i & 0xffffffffffff)
def uid(i): return '01950000-%04x-7000-8000-%012x' % (i >> 48, i & 0xffffffffffff)
for i in range(servers):
    a, b = words[i % 20], words[(i * 7 + 3) % 20]
    cur.execute("INSERT INTO servers (id, name, owner_id, discoverable, description, tags, created_at) VALUES (?, ?, ?, 1, ?, ?, ?)",
                (sid(i), 'Comunidade %s %d' % (a.capitalize(), i), owner,
                 'Um lugar para quem gosta de %s e de %s, com conversas todos os dias.' % (a, b), json.dumps([a, b]), t0 + i))
# A fifth in the largest server, the rest as 1/rank over the others.
big = members // 5
weights = [1.0 / r for r in range(1, servers)]
total = sum(weights)
counts = [big] + [max(1, int((members - big) * w / total)) for w in weights]
people = max(counts)
for i in range(people):
    cur.execute("INSERT INTO users (id, username, display_name, created_at) VALUES (?, ?, ?, ?)",
                (uid(i), 'diretorio%07d' % i, 'Pessoa %d' % i, t0))
n = 0
for s, c in enumerate(counts):
    for k in range(min(c, people)):
        cur.execute("INSERT INTO members (server_id, user_id, joined_at) VALUES (?, ?, ?)", (sid(s), uid(k), t0 + k))
        n += 1
tokens = []
for i in range(online):
    token = 'bench-directory-token-%07d' % i
    tokens.append(token)
    now = int(time.time() * 1000)
    cur.execute("INSERT INTO tokens (hash, user_id, kind, created_at, last_used_at) VALUES (?, ?, 'session', ?, ?)",
                (hashlib.sha256(token.encode()).hexdigest(), uid(i), now, now))
cur.execute('COMMIT')
db.close()
open(tokens_out, 'w').write(chr(10).join(tokens))
print(n)
`;

async function timed(pid, fn, n) {
  const lat = [];
  const c0 = cpuNs(pid);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) {
      next++;
      const t = process.hrtime.bigint();
      await fn();
      lat.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }));
  return { cpuUsPerRequest: Math.round((cpuNs(pid) - c0) / 1e3 / n), p50Ms: +pct(lat, 0.5).toFixed(2), p99Ms: +pct(lat, 0.99).toFixed(2) };
}

async function one(size) {
  const first = await startServer({ single: true, args: ARGS });
  const owner = await register(first.url);
  const dir = first.dir;
  await first.stop();
  const db = fs.readdirSync(dir).find((f) => f.endsWith('.db'));
  const tokensFile = path.join(dir, 'tokens.txt');
  const seeded = spawnSync('python3', ['-c', SEED_PY, path.join(dir, db), owner.user.id, String(SERVERS), String(size), tokensFile, String(ONLINE)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (seeded.status !== 0) throw new Error(seeded.stderr);
  const memberships = Number(seeded.stdout.trim());
  const out = { memberships, servers: SERVERS };
  for (const [label, refresh] of [['snapshot', '0'], ['search', '60']]) {
    const srv = await startServer({ single: true, dir, args: [...ARGS, '--directory-refresh-seconds', refresh] });
    const sockets = [];
    try {
      const pid = srv.proc.pid;
      for (const token of fs.readFileSync(tokensFile, 'utf8').split('\n').filter(Boolean)) {
        await gatewayConnect(srv.url, { auth: { token }, transports: ['websocket'] }, sockets);
      }
      const get = (q) => async () => {
        const r = await api(srv.url, 'GET', `/api/directory${q}`, { token: owner.token });
        if (r.status !== 200) throw new Error(`${q}: ${r.status} ${r.text}`);
        return r.body;
      };
      const page = await get('')();
      if (label === 'snapshot') {
        const n = Math.max(5, Math.min(50, Math.round(2e6 / memberships)));
        const r = await timed(pid, get(''), n);
        out.snapshot = { readings: n, cpuMsPerReading: +(r.cpuUsPerRequest / 1000).toFixed(1), nsPerMembership: Math.round(r.cpuUsPerRequest * 1000 / memberships), p50Ms: r.p50Ms, p99Ms: r.p99Ms, topOnline: page.servers[0].onlineCount };
      } else {
        out.search = {};
        for (const [name, q] of [['firstPage', ''], ['word', '?q=xadrez'], ['twoWords', '?q=musica%20conversas'], ['tag', '?tag=cinema'], ['deepPage', '?offset=5000']]) {
          out.search[name] = await timed(pid, get(q), REQUESTS);
        }
      }
    } finally {
      for (const s of sockets) s.disconnect();
      await srv.stop();
    }
  }
  return out;
}

(async () => {
  for (const size of SIZES) console.log(JSON.stringify(await one(size)));
})().catch((e) => { console.error(e); process.exit(1); });
