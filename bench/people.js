// People on one node (or two): PEOPLE accounts in servers of SERVER_SIZE people, each person in
// SERVERS_EACH of them, every server with CHANNELS text channels; then build/people-sim keeps a
// page's socket open for each and acts as the model says (bench/people/model.c,
// docs/scaling.md) for SECONDS, while LOGINS_PER_S fresh sign-ins arrive. Reported: server CPU
// per person-hour and the share of its core, p50/p99 of every action, deliveries and losses.
// With STORM=1 the server is stopped (SIGTERM) halfway and started again on the same port and
// data, and every page has to come back: time until all are back, nothing lost, nobody asked to
// sign in again.
//
//   PEOPLE=1000 SECONDS=60 PRACA_BIN=build/praca node bench/people.js
//
// With PRACA_TEST_NODES=2 (under scripts/with-postgres.sh scripts/with-redis.sh) the world is on
// two nodes, the simulator's people and requests spread over both, and PostgreSQL's and Redis's
// own CPU is reported apart ("stores").
//
// PIN=1 pins the server to core 1 and the simulator to core 0 (the capacity table's way);
// SEED_DIR keeps the seeded SQLite database between runs of the same world; PERF=FILE records
// the server's measured window with `perf record -g`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { startServer, api, register, tempDir } = require('../tests/e2e/helpers');
const { cpuNs } = require('./measure');

const PEOPLE = Number(process.env.PEOPLE || 1000);
const SERVER_SIZE = Number(process.env.SERVER_SIZE || 250);
const SERVERS_EACH = Number(process.env.SERVERS_EACH || 2);
const CHANNELS = Number(process.env.CHANNELS || 8);
const SECONDS = Number(process.env.SECONDS || 60);
// Each person signs in fresh once in 8 hours of use (a working day), and at least once in 5 s.
const LOGINS_PER_S = Number(process.env.LOGINS_PER_S ?? Math.max(0.2, PEOPLE / (8 * 3600)));
const LOGINS = 20; // accounts that sign in again and again
const STORM = process.env.STORM === '1';
const PIN = process.env.PIN === '1';
const SEED_DIR = process.env.SEED_DIR || '';
const PERF = process.env.PERF || ''; // a file: the server's measured window under perf record -g
const SIM = process.env.PEOPLE_SIM || path.join(__dirname, '..', 'build', 'people-sim');
// PRESENCE_GRACE_MS: the server's --presence-grace-ms (its default, 5000, unless said).
const ARGS = ['--rate-limit-scale', '1000', '--access-log=0', '--max-connections-per-address', '0',
  '--presence-grace-ms', process.env.PRESENCE_GRACE_MS || '5000',
  ...(process.env.ARGS || '').split(' ').filter(Boolean)];

const pinned = (pid, core) => PIN && spawnSync('taskset', ['-a', '-p', '-c', String(core), String(pid)]);

async function ok(r, what) {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

async function inBatches(n, size, fn) {
  const out = [];
  for (let i = 0; i < n; i += size) out.push(...await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, k) => fn(i + k))));
  return out;
}

// The world: accounts, servers, channels, memberships; written as the simulator reads it.
async function seed(url) {
  const t0 = Date.now();
  const places = Math.max(SERVERS_EACH, Math.round((PEOPLE * SERVERS_EACH) / SERVER_SIZE));
  const people = await inBatches(PEOPLE + LOGINS, 16, () => register(url));
  const servers = await inBatches(places, 8, async (k) => {
    const owner = people[k % PEOPLE];
    const s = await ok(await api(url, 'POST', '/api/servers', { token: owner.token, body: { name: `Comunidade ${k}` } }), 'server');
    const cids = [s.channels.find((c) => c.type === 'text').id];
    for (let c = 1; c < CHANNELS; c++) {
      const ch = await ok(await api(url, 'POST', `/api/servers/${s.server.id}/channels`, { token: owner.token, body: { name: `sala-${c}` } }), 'channel');
      cids.push(ch.channel.id);
    }
    const invite = await ok(await api(url, 'POST', `/api/servers/${s.server.id}/invites`, { token: owner.token, body: { maxUses: 0, maxAgeSeconds: 0 } }), 'invite');
    return { sid: s.server.id, cids, code: invite.code, owner: k % PEOPLE };
  });
  // Person i is in servers i, i + stride, … (mod places): each server gets PEOPLE × SERVERS_EACH / places.
  const stride = Math.max(1, Math.floor(places / SERVERS_EACH));
  const homes = Array.from({ length: PEOPLE }, (_, i) => [...new Set(Array.from({ length: SERVERS_EACH }, (_, j) => (i + j * stride) % places))]);
  await inBatches(PEOPLE, 16, async (i) => {
    for (const k of homes[i]) {
      if (servers[k].owner === i) continue;
      await ok(await api(url, 'POST', `/api/invites/${servers[k].code}/join`, { token: people[i].token }), 'join');
    }
  });
  const lines = [`places ${places}`, ...servers.map((s) => `${s.sid} ${s.cids.join(',')}`),
    `logins ${LOGINS}`, ...people.slice(PEOPLE).map((p) => `${p.user.username} ${p.password}`),
    `people ${PEOPLE}`, ...people.slice(0, PEOPLE).map((p, i) => `${p.token} ${homes[i].join(',')}`)];
  console.error(`seeded ${PEOPLE} people in ${places} servers in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return lines.join('\n') + '\n';
}

// PostgreSQL's and Redis's processes on this machine (shared mode): their CPU, in ns.
function storesCpuNs() {
  let ns = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let comm = '';
    try { comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { continue; }
    try { if (comm === 'postgres' || comm === 'redis-server') ns += cpuNs(Number(pid)); } catch { /* it ended */ }
  }
  return ns;
}

// The server's CPU over the simulator's measured window ("measuring" … "done" on its stdout),
// the restart halfway when STORM=1, and the simulator's JSON at the end.
function simulate(srv, worldFile, restart) {
  return new Promise((resolve, reject) => {
    const cmd = PIN ? 'taskset' : SIM;
    // People and requests spread over the nodes, as a load balancer would.
    const ports = (srv.nodes || [srv]).map((n) => n.port).join(',');
    const args = [...(PIN ? ['-c', '0', SIM] : []), '127.0.0.1', ports, worldFile, String(SECONDS)];
    const sim = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PEOPLE_LOGINS_PER_S: String(LOGINS_PER_S) } });
    let out = '', phase = 'before', cpu = 0, at0 = 0, perf = null, storesCpu = 0;
    const pids = () => (srv.nodes || [srv]).map((n) => n.proc.pid);
    const sample = () => pids().reduce((a, pid) => a + cpuNs(pid), 0);
    let storesAt0 = 0;
    sim.stdout.on('data', async (d) => {
      out += d;
      if (phase === 'before' && out.includes('measuring\n')) {
        phase = 'in';
        at0 = sample();
        storesAt0 = storesCpuNs();
        if (PERF) perf = spawn('perf', ['record', '-g', '-o', PERF, '-p', String(pids()[0])], { stdio: 'ignore' });
        if (restart) setTimeout(async () => {
          cpu += sample() - at0;
          srv = await restart();
          at0 = sample();
        }, (SECONDS * 1000) / 2);
      }
      if (phase === 'in' && out.includes('done\n')) {
        cpu += sample() - at0;
        storesCpu = storesCpuNs() - storesAt0;
        phase = 'after';
        if (perf) perf.kill('SIGINT');
      }
    });
    sim.on('exit', (code) => {
      const last = out.trim().split('\n').pop();
      if (!last.startsWith('{')) return reject(new Error(`people-sim: exit ${code}`));
      resolve({ result: JSON.parse(last), cpuS: cpu / 1e9, storesS: storesCpu / 1e9, code, srv });
    });
  });
}

(async () => {
  let srv;
  let worldFile;
  const store = SEED_DIR && fs.existsSync(path.join(SEED_DIR, `world-${PEOPLE}-${SERVER_SIZE}-${SERVERS_EACH}.txt`));
  if (store) {
    const dir = tempDir();
    fs.copyFileSync(path.join(SEED_DIR, `praca-${PEOPLE}-${SERVER_SIZE}-${SERVERS_EACH}.db`), path.join(dir, 'praca.db'));
    srv = await startServer({ single: true, dir, args: ARGS });
    worldFile = path.join(SEED_DIR, `world-${PEOPLE}-${SERVER_SIZE}-${SERVERS_EACH}.txt`);
  } else {
    srv = await startServer({ single: !process.env.PRACA_TEST_NODES || STORM, args: ARGS });
    worldFile = path.join(tempDir(), 'world.txt');
    fs.writeFileSync(worldFile, await seed(srv.url));
    if (SEED_DIR && !srv.nodes && fs.existsSync(path.join(srv.dir, 'praca.db'))) {
      fs.mkdirSync(SEED_DIR, { recursive: true });
      spawnSync('sqlite3', [path.join(srv.dir, 'praca.db'), `VACUUM INTO '${path.join(SEED_DIR, `praca-${PEOPLE}-${SERVER_SIZE}-${SERVERS_EACH}.db`)}'`]);
      fs.copyFileSync(worldFile, path.join(SEED_DIR, `world-${PEOPLE}-${SERVER_SIZE}-${SERVERS_EACH}.txt`));
    }
  }
  for (const n of srv.nodes || [srv]) pinned(n.proc.pid, 1);
  const restart = STORM && !srv.nodes ? async () => {
    const t = Date.now();
    await srv.stop();
    srv = await startServer({ single: true, dir: srv.dir, args: ['--port', String(srv.port), ...ARGS] });
    pinned(srv.proc.pid, 1);
    console.error(`restarted in ${Date.now() - t} ms`);
    return srv;
  } : null;
  const { result, cpuS, storesS, code, srv: last } = await simulate(srv, worldFile, restart);
  const hours = (result.seconds / 3600) * PEOPLE;
  const summary = {
    people: PEOPLE, serverSize: SERVER_SIZE, serversEach: SERVERS_EACH, nodes: (last.nodes || [last]).length,
    serverCpuS: +cpuS.toFixed(2), serverCoreShare: +(cpuS / result.seconds / (last.nodes || [last]).length).toFixed(3),
    serverCpuMsPerPersonHour: +((cpuS * 1000) / hours).toFixed(2),
    peoplePerCoreAtThisActivity: Math.round(PEOPLE / (cpuS / result.seconds)),
    ...(last.nodes ? { storesCpuS: +storesS.toFixed(2), storesCoreShare: +(storesS / result.seconds).toFixed(3),
      storesCpuMsPerPersonHour: +((storesS * 1000) / hours).toFixed(2) } : {}),
  };
  console.log(JSON.stringify({ ...summary, ...result }));
  await last.stop();
  process.exit(code);
})().catch((e) => { console.error(e); process.exit(1); });
