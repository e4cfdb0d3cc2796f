// A large server against a small one in the same run: what a membership change costs at
// MEMBERS members (default 100,000) and at SMALL (default 100).
//
// Seeding: the owner, both servers, a role in each and ROUNDS people who will join are made
// through the API; then, with the server stopped, MEMBERS - 1 and SMALL - 1 members (every tenth
// holding the role) and MESSAGES messages (default 1,000,000) in the large server's channel are
// written straight into the SQLite file with Python's sqlite3 (not through the API: 100,000
// sign-ups would take hours of password hashing). Then the server starts again and:
//   - startup: from spawn to listening, and to the first answer that needs the large server in
//     memory; the process's resident memory before and after it, per member;
//   - ROUNDS rounds (default 40), each on the large server then the small one: a person joins by
//     invite, the owner grants them the role, times them out for a minute, they open a page and
//     choose "do not disturb" (presence: the answer, then the owner's list showing it), then a status
//     text with it (text: the same, the row changed in place), they leave, and the
//     owner sends a message in between (the send reads the audiences the changes carried over).
//     Each call's latency through the API (p50, p99) and the server's CPU per call (all its
//     threads' run time from /proc/PID/task/*/schedstat, read before and after each call).
//     The owner's page follows each server's member list meanwhile: "list" is the time from a
//     join's answer to the MEMBER_LIST_UPDATE that shows it, and the CPU spent in between;
//   - a person's page opening each server: the bytes and time of what /app reads (the server,
//     its members' first page, its commands) and of the member list's first range
//     (members:subscribe, the list built on a worker), then again with the list held;
//   - BOTS (5,000) of the large server's installed bots connected, FAN_MESSAGES (100) sends at
//     FAN_RATE (5) a second: each delivery's latency from its send, what was lost, and the server's
//     CPU per delivery, measured by three clients in turn: the official Socket.IO client, the load
//     generator's raw client (Node.js) and build/fanout-probe (C, bench/fanout_probe.c);
//
//   PRACA_BIN=build/praca node bench/large_server.js
//   MEMBERS=10000 MESSAGES=0 ROUNDS=20 PRACA_BIN=build/praca node bench/large_server.js
//   PERF=/tmp/large.data …                 (the rounds under perf record -g)
//   PERF_OPEN=/tmp/open.data …, PERF_FAN=/tmp/fan.data …   (the page opening, the raw fan-out)
//   PAGES=0 …                              (no member lists: a build from before them)
//   OFFICIAL=0 …                           (no fan-out with the official client)
//   RAW=0 …                                (no fan-out with the load generator's raw client)
//   PERF_PROBE=/tmp/probe.data …           (the probe's fan-out under perf record -g)
//   PROBE_CHURN_PER_S=10 …                 (the probe's fan-out while a bot's second connection
//                                           comes and goes 10 times a second)
'use strict';
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, gatewayConnect } = require('../tests/e2e/helpers');

const MEMBERS = Number(process.env.MEMBERS || 100000);
const SMALL = Number(process.env.SMALL || 100);
const MESSAGES = Number(process.env.MESSAGES ?? 1000000);
const ROUNDS = Number(process.env.ROUNDS || 40);
const BOTS = Number(process.env.BOTS ?? 5000); // connected for the fan-out: installed bots among the members
const FAN_MESSAGES = Number(process.env.FAN_MESSAGES || 100);
const FAN_RATE = Number(process.env.FAN_RATE || 5);
const OFFICIAL = process.env.OFFICIAL !== '0'; // OFFICIAL=0: no fan-out with the official client
const RAW = process.env.RAW !== '0'; // RAW=0: not the load generator's raw client's fan-out
const PAGES = process.env.PAGES !== '0'; // PAGES=0: no member lists (a build from before them)
const ARGS = ['--rate-limit-scale', '100000', '--access-log=0', '--max-connections-per-address', '0'];

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2); };

const SEED_PY = `
import sqlite3, sys
import hashlib
path, big, small, role_big, role_small, channel, members, small_members, messages, owner, bots, tokens_out = sys.argv[1:13]
members, small_members, messages, bots = int(members), int(small_members), int(messages), int(bots)
db = sqlite3.connect(path)
db.execute('PRAGMA synchronous=OFF')
cur = db.cursor()
cur.execute('BEGIN')
t0 = 1735689600000
def uid(i): return '01910000-%04x-7000-8000-%012x' % (i >> 48, i & 0xffffffffffff)
for i in range(members - 1 + small_members - 1):
    cur.execute("INSERT INTO users (id, username, display_name, is_bot, created_at) VALUES (?, ?, ?, ?, ?)",
                (uid(i), 'semeado%07d' % i, 'Pessoa %d' % i, 1 if i < bots else 0, t0))
# The first bots members are installed bots (messages.read) with a token each.
tokens = []
for i in range(bots):
    app = '01930000-0000-7000-8000-%012x' % i
    token = 'bench-fanout-token-%07d' % i
    tokens.append(token)
    cur.execute("INSERT INTO applications (id, owner_id, name, client_id, bot_user_id, intents, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                (app, owner, 'Robô %d' % i, app, uid(i), t0, t0))
    cur.execute("INSERT INTO installs (application_id, server_id, role_id, granted_permissions, installed_by, installed_at) VALUES (?, ?, ?, 0, ?, ?)",
                (app, big, big, owner, t0))
    cur.execute("INSERT INTO tokens (hash, user_id, kind, created_at) VALUES (?, ?, 'bot', ?)",
                (hashlib.sha256(token.encode()).hexdigest(), uid(i), t0))
open(tokens_out, 'w').write(chr(10).join(tokens))
for i in range(members - 1):
    cur.execute("INSERT INTO members (server_id, user_id, joined_at) VALUES (?, ?, ?)", (big, uid(i), t0 + i))
    if i % 10 == 0:
        cur.execute("INSERT INTO member_roles (server_id, user_id, role_id) VALUES (?, ?, ?)", (big, uid(i), role_big))
for k in range(small_members - 1):
    i = members - 1 + k
    cur.execute("INSERT INTO members (server_id, user_id, joined_at) VALUES (?, ?, ?)", (small, uid(i), t0 + i))
    if k % 10 == 0:
        cur.execute("INSERT INTO member_roles (server_id, user_id, role_id) VALUES (?, ?, ?)", (small, uid(i), role_small))
for i in range(messages):
    cur.execute("INSERT INTO messages (id, channel_id, server_id, author_id, type, content, created_at) VALUES (?, ?, ?, ?, 'text', ?, ?)",
                ('01920000-%04x-7000-8000-%012x' % (i >> 48, i & 0xffffffffffff), channel, big, uid(i % (members - 1)) if members > 1 else owner,
                 'mensagem numero %d de um servidor grande, com algumas palavras' % i, t0 + i * 1000))
cur.execute('COMMIT')
db.execute('UPDATE message_search_state SET indexed_rowid = (SELECT COALESCE(MAX(rowid), 0) FROM messages) WHERE id = 1')
db.commit()
db.close()
`;

// All the server's threads' run time so far, in nanoseconds.
function cpuNs(pid) {
  let total = 0;
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try { total += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]); } catch { /* a thread that ended */ }
  }
  return total;
}
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

async function ok(r, what) {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

async function place(url, owner, name) {
  const s = await ok(await api(url, 'POST', '/api/servers', { token: owner.token, body: { name } }), 'server');
  const sid = s.server.id;
  const invite = await ok(await api(url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: { maxUses: 0, maxAgeSeconds: 0 } }), 'invite');
  const role = await ok(await api(url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Veterano' } }), 'role');
  return { sid, cid: s.channels[0].id, code: invite.code, rid: role.role.id };
}

// A fan-out client run to its end, under `perf record -g` when perfFile is set (where a
// delivery's time goes). A client says nothing on stdout when it fails (a connect that timed
// out, say): its exit and its stderr's end are reported instead of a parse error that ends the run.
function runFanoutClient(name, cmd, args, pid, perfFile) {
  const perf = perfFile ? spawnSync('sh', ['-c', `perf record -g -o ${perfFile} -p ${pid} >/dev/null 2>&1 & echo $!`], { encoding: 'utf8' }).stdout.trim() : null;
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (perf) spawnSync('sh', ['-c', `kill -INT ${perf}; while kill -0 ${perf} 2>/dev/null; do sleep 0.2; done`]);
  const last = (r.stdout || '').trim().split('\n').pop();
  if (r.status !== 0 || !last.startsWith('{')) {
    console.log(JSON.stringify({ [name]: { failed: r.error ? String(r.error) : `exit ${r.status} (${r.signal || 'no signal'})`, stderr: String(r.stderr || '').slice(-2000) } }));
    return null;
  }
  return JSON.parse(last);
}

// The same fan-out with the side by side's load generator and its minimal client (--client raw),
// whose per-event cost is a fraction of the official client's: on two cores the official
// client's processes, not the server, set the p99 (LOADGEN: where ../shared/bench-peer is).
function rawFanout(srv, pid, big, tokensFile) {
  const loadgen = `${process.env.LOADGEN || `${__dirname}/../../shared/bench-peer`}/loadgen/fanout.js`;
  if (!fs.existsSync(loadgen)) return;
  const out = runFanoutClient('rawFanout', 'node', [loadgen, '--url', srv.url, '--tokens-file', tokensFile, '--n', String(BOTS), '--m', String(FAN_MESSAGES),
    '--rate', String(FAN_RATE), '--pid', String(pid), '--server-id', big.sid, '--channel-id', big.cid, '--client', 'raw', '--drain', '5'], pid, process.env.PERF_FAN);
  if (out) console.log(JSON.stringify({ rawFanout: { connected: out.connected, delivered: out.delivered, lost: out.lost, latMs: out.latMs, serverCpuUsPerDelivery: out.serverCpuUsPerDelivery, clientCpuUsPerDelivery: out.clientCpuUsPerDelivery } }));
}

// The same fan-out measured by build/fanout-probe (bench/fanout_probe.c): one C process whose
// cost per delivery is a fraction of a Node.js client's, so that the tail it reports is the
// server's rather than the client's own queue on the same two cores.
function probeFanout(srv, pid, big, tokensFile) {
  const made = spawnSync('make', ['-s', '-C', `${__dirname}/..`, 'build/fanout-probe'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`build/fanout-probe: ${made.stderr}`);
  const u = new URL(srv.url);
  const out = runFanoutClient('probeFanout', `${__dirname}/../build/fanout-probe`, [u.hostname, u.port, tokensFile, String(BOTS), String(FAN_MESSAGES),
    String(FAN_RATE), big.sid, big.cid, String(pid)], pid, process.env.PERF_PROBE);
  if (out) console.log(JSON.stringify({ probeFanout: out }));
}

// A page of `who` connected to the gateway, as /app connects.
async function page(url, who) {
  const t = await ok(await api(url, 'POST', '/api/gateway/ticket', { token: who.token }), 'ticket');
  return gatewayConnect(url, { auth: { ticket: t.ticket }, transports: ['websocket'] }, []);
}

// What a page reads on opening server s, and its member list's first range: bytes and ms.
async function pageOpen(url, pid, who, s, sock) {
  const t0 = Date.now();
  let bytes = 0;
  for (const p of [`/api/servers/${s.sid}?threads=1`, `/api/servers/${s.sid}/members`, `/api/servers/${s.sid}/commands`]) {
    bytes += (await api(url, 'GET', p, { token: who.token })).text.length;
  }
  const readMs = Date.now() - t0;
  const subscribe = async () => {
    const c0 = cpuNs(pid), t = Date.now();
    const a = await sock.emitWithAck('members:subscribe', { serverId: s.sid, channelId: s.cid, ranges: [[0, 99]] });
    if (a.error) throw new Error(`subscribe: ${a.error}`);
    return { ms: Date.now() - t, cpuUs: Math.round((cpuNs(pid) - c0) / 1e3), bytes: JSON.stringify(a).length, rows: a.ranges[0].rows.length, members: a.memberCount };
  };
  const first = await subscribe();
  const held = await subscribe();
  return { readBytes: bytes, readMs, firstRange: first, againHeld: held };
}

// BOTS bots of the large server connected (two client processes), FAN_MESSAGES sends by the
// owner at FAN_RATE a second: each delivery's latency from the send, what was lost, and the
// server's CPU per delivery.
async function fanout(srv, pid, owner, big, tokens) {
  const { fork } = require('node:child_process');
  const half = Math.ceil(tokens.length / 2);
  const kids = [tokens.slice(0, half), tokens.slice(half)].map((t) => fork(`${__dirname}/fanout_client.js`, [srv.url, JSON.stringify(t)]));
  const once = (k, key) => new Promise((r) => k.on('message', function on(m) { if (key in m) { k.off('message', on); r(m); } }));
  const t0 = Date.now();
  const ready = await Promise.all(kids.map((k) => once(k, 'ready')));
  const connected = ready.reduce((n, r) => n + r.connected, 0);
  const connectS = (Date.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const c0 = cpuNs(pid);
  const k0 = kids.map((k) => cpuNs(k.pid));
  const sendMs = [];
  const start = Date.now();
  for (let i = 0; i < FAN_MESSAGES; i++) {
    const at = performance.timeOrigin + performance.now();
    const r = await api(srv.url, 'POST', `/api/servers/${big.sid}/channels/${big.cid}/messages`, { token: owner.token, body: { content: `fan ${at.toFixed(3)}` } });
    if (r.status !== 200) throw new Error(`fan-out send: ${r.status} ${r.text}`);
    sendMs.push(performance.timeOrigin + performance.now() - at);
    const wait = (i + 1) * (1000 / FAN_RATE) - (Date.now() - start);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  // Until every delivery came (or 10 s passed).
  let reports;
  for (let waited = 0; waited < 10000; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    reports = await Promise.all(kids.map((k) => { const p = once(k, 'delivered'); k.send({ cmd: 'report' }); return p; }));
    if (reports.reduce((n, r) => n + r.delivered, 0) >= FAN_MESSAGES * connected) break;
  }
  const cpu = cpuNs(pid) - c0;
  const kidCpu = kids.reduce((n, k, i) => n + cpuNs(k.pid) - k0[i], 0);
  for (const k of kids) k.kill();
  const lat = reports.flatMap((r) => r.latencies);
  // What the official client costs itself: each of its two processes takes half of a message's
  // deliveries on one thread, so clientBurstMs is the tail it sets even beside a server that cost
  // nothing (the server's own burst is on the same two cores).
  const clientUs = kidCpu / 1e3 / Math.max(1, lat.length);
  console.log(JSON.stringify({ fanout: { connected, connectS: +connectS.toFixed(1), messages: FAN_MESSAGES, ratePerS: FAN_RATE, delivered: lat.length, lost: FAN_MESSAGES * connected - lat.length,
    p50Ms: pct(lat, 50), p99Ms: pct(lat, 99), maxMs: pct(lat, 100), sendP50Ms: pct(sendMs, 50), cpuPerDeliveryUs: +(cpu / 1e3 / Math.max(1, lat.length)).toFixed(2),
    clientCpuUsPerDelivery: +clientUs.toFixed(2), clientBurstMs: +(clientUs * Math.ceil(connected / 2) / 1e3).toFixed(1) } }));
}

async function main() {
  const first = await startServer({ single: true, args: ARGS });
  const owner = await register(first.url);
  const big = await place(first.url, owner, 'Grande');
  const small = await place(first.url, owner, 'Pequeno');
  const people = [];
  for (let i = 0; i < ROUNDS; i++) people.push(await register(first.url));
  const store = first.storeArgs;
  await first.stop();
  if (store[0] !== '--data') throw new Error('this bench seeds SQLite');
  let t = Date.now();
  const seeded = spawnSync('/usr/bin/python3', ['-c', SEED_PY, store[1], big.sid, small.sid, big.rid, small.rid, big.cid,
    String(MEMBERS), String(SMALL), String(MESSAGES), owner.user.id, String(BOTS), `${first.dir}/tokens.txt`], { encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error('seed: ' + seeded.stderr);
  console.log(JSON.stringify({ members: MEMBERS, small: SMALL, messages: MESSAGES, seedSeconds: Math.round((Date.now() - t) / 1000), databaseMiB: Math.round(fs.statSync(store[1]).size / 1048576) }));

  t = Date.now();
  const srv = await startServer({ single: true, dir: first.dir, store, args: ARGS });
  const listenMs = Date.now() - t;
  const pid = srv.proc.pid;
  try {
    const rssBefore = rssKiB(pid);
    t = Date.now();
    await ok(await api(srv.url, 'POST', `/api/servers/${big.sid}/channels/${big.cid}/messages`, { token: owner.token, body: { content: 'primeira' } }), 'first send');
    const firstSendMs = Date.now() - t;
    const rssAfter = rssKiB(pid);
    console.log(JSON.stringify({ startup: { listenMs, firstSendToLargeMs: firstSendMs, rssBeforeMiB: +(rssBefore / 1024).toFixed(1), rssAfterMiB: +(rssAfter / 1024).toFixed(1), bytesPerMember: Math.round(((rssAfter - rssBefore) * 1024) / MEMBERS) } }));
    await ok(await api(srv.url, 'POST', `/api/servers/${small.sid}/channels/${small.cid}/messages`, { token: owner.token, body: { content: 'primeira' } }), 'first send');
    const pages = PAGES ? { large: await page(srv.url, owner), small: await page(srv.url, owner) } : {};
    // PERF_OPEN=file: the large server's page opening under `perf record -g`.
    const perfOpen = process.env.PERF_OPEN ? require('node:child_process').spawn('perf', ['record', '-g', '-o', process.env.PERF_OPEN, '-p', String(pid)], { stdio: 'ignore' }) : null;
    if (perfOpen) await new Promise((r) => setTimeout(r, 500));
    for (const [where, s] of PAGES ? [['large', big], ['small', small]] : []) {
      console.log(JSON.stringify({ pageOpen: where, ...(await pageOpen(srv.url, pid, owner, s, pages[where])) }));
      if (perfOpen && where === 'large') { perfOpen.kill('SIGINT'); await new Promise((r) => perfOpen.on('exit', r)); }
    }
    // The next MEMBER_LIST_UPDATE on a page whose count is n.
    const listed = (sock, n) => !sock ? Promise.resolve() : new Promise((resolve) => sock.on('MEMBER_LIST_UPDATE', function on(u) { if (u.memberCount === n) { sock.off('MEMBER_LIST_UPDATE', on); resolve(); } }));
    const counts = { large: MEMBERS, small: SMALL }; // the owner and those seeded: all see the channel

    // PERF=file: the rounds under `perf record -g` (to see where a change's time goes).
    const perf = process.env.PERF ? require('node:child_process').spawn('perf', ['record', '-g', '-o', process.env.PERF, '-p', String(pid)], { stdio: 'ignore' }) : null;
    if (perf) await new Promise((r) => setTimeout(r, 500));
    const ops = PAGES ? ['join', 'list', 'role', 'timeout', 'presence', 'text', 'send', 'leave'] : ['join', 'role', 'timeout', 'presence', 'text', 'send', 'leave'];
    const stats = {};
    for (const where of ['large', 'small']) for (const op of ops) stats[`${op}/${where}`] = { ms: [], cpu: [] };
    const timed = async (key, fn) => {
      const c0 = cpuNs(pid);
      const t0 = process.hrtime.bigint();
      await fn();
      stats[key].ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
      stats[key].cpu.push((cpuNs(pid) - c0) / 1e3);
    };
    for (let i = 0; i < ROUNDS; i++) {
      const p = people[i];
      for (const [where, s] of [['large', big], ['small', small]]) {
        const as = (tok) => ({ token: tok });
        const shown = listed(pages[where], counts[where] + 1);
        await timed(`join/${where}`, async () => ok(await api(srv.url, 'POST', `/api/invites/${s.code}/join`, as(p.token)), 'join'));
        if (PAGES) await timed(`list/${where}`, () => shown);
        await timed(`role/${where}`, async () => ok(await api(srv.url, 'PUT', `/api/servers/${s.sid}/members/${p.user.id}/roles/${s.rid}`, as(owner.token)), 'role'));
        await timed(`timeout/${where}`, async () => ok(await api(srv.url, 'PATCH', `/api/servers/${s.sid}/members/${p.user.id}`, { token: owner.token, body: { timeoutUntil: new Date(Date.now() + 60000).toISOString() } }), 'timeout'));
        // A presence change: the person's page is open (not timed), then they choose dnd; with
        // pages, until the owner's list shows it.
        const theirs = await page(srv.url, p);
        const moved = !pages[where] ? Promise.resolve() : new Promise((resolve) => {
          const t = setTimeout(resolve, 3000);
          pages[where].on('MEMBER_LIST_UPDATE', function on(u) { if (JSON.stringify(u).includes('"dnd"')) { clearTimeout(t); pages[where].off('MEMBER_LIST_UPDATE', on); resolve(); } });
        });
        await timed(`presence/${where}`, async () => { ok(await api(srv.url, 'PUT', '/api/users/@me/presence', { token: p.token, body: { status: 'dnd' } }), 'presence'); await moved; });
        // A status text with the same status: the row changes in place.
        const words = `de férias ${where} ${i}`;
        const said = !pages[where] ? Promise.resolve() : new Promise((resolve) => {
          const t = setTimeout(resolve, 3000);
          pages[where].on('MEMBER_LIST_UPDATE', function on(u) { if (JSON.stringify(u).includes(words)) { clearTimeout(t); pages[where].off('MEMBER_LIST_UPDATE', on); resolve(); } });
        });
        await timed(`text/${where}`, async () => { ok(await api(srv.url, 'PUT', '/api/users/@me/presence', { token: p.token, body: { status: 'dnd', activity: { type: 'custom', name: words } } }), 'text'); await said; });
        await api(srv.url, 'PUT', '/api/users/@me/presence', { token: p.token, body: { status: 'online' } });
        theirs.disconnect();
        await timed(`send/${where}`, async () => ok(await api(srv.url, 'POST', `/api/servers/${s.sid}/channels/${s.cid}/messages`, { token: owner.token, body: { content: `rodada ${i}` } }), 'send'));
        const gone = listed(pages[where], counts[where]);
        await timed(`leave/${where}`, async () => ok(await api(srv.url, 'DELETE', `/api/servers/${s.sid}/members/@me`, as(p.token)), 'leave'));
        await gone;
      }
    }
    for (const sock of Object.values(pages)) sock.disconnect();
    if (perf) { perf.kill('SIGINT'); await new Promise((r) => perf.on('exit', r)); }
    if (process.env.SHOW) for (const k of Object.keys(stats)) console.log(k, stats[k].ms.map((x) => x.toFixed(1)).join(" "));
    const rows = [];
    for (const op of ops) {
      const L = stats[`${op}/large`], S = stats[`${op}/small`];
      const row = {
        op,
        largeP50Ms: pct(L.ms, 50), largeP99Ms: pct(L.ms, 99), largeCpuUs: pct(L.cpu, 50),
        smallP50Ms: pct(S.ms, 50), smallP99Ms: pct(S.ms, 99), smallCpuUs: pct(S.cpu, 50),
      };
      row.ratioP50 = +(row.largeP50Ms / row.smallP50Ms).toFixed(2);
      row.ratioCpu = +(row.largeCpuUs / row.smallCpuUs).toFixed(2);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
    console.log(JSON.stringify({ rssEndMiB: +(rssKiB(pid) / 1024).toFixed(1) }));
    if (BOTS && OFFICIAL) await fanout(srv, pid, owner, big, fs.readFileSync(`${first.dir}/tokens.txt`, 'utf8').split('\n'));
    if (BOTS && RAW) rawFanout(srv, pid, big, `${first.dir}/tokens.txt`);
    if (BOTS) probeFanout(srv, pid, big, `${first.dir}/tokens.txt`);
  } finally {
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
