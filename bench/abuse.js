// What three abuses cost the service, measured against a fresh release server each:
//   unread   300 connections that pipeline large answers and never read them, against a cap
//            of 300: how long until a new client is served, what the server held meanwhile;
//   react    a message with 20 distinct reactions while 10 accounts react at their limit:
//            each react's latency, and a bystander's sends elsewhere meanwhile; then the same
//            with 2,000 and 20,000 people's reactions already on it (rows written with the
//            sqlite3 command while the server is stopped), to show how the cost grows;
//   forum    deleting a forum of 4,000 posts in a database of 20,000 channels: how long the
//            delete takes, and the longest send of a bystander while it runs.
//
//   node bench/abuse.js [unread|react|forum ...]      (all three without arguments)
// PRACA_BIN picks the binary (build/praca); SEED_DIR keeps the forum's database between runs.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const BIN = path.resolve(process.env.PRACA_BIN || 'build/praca');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function start(args = [], dir = fs.mkdtempSync(path.join(os.tmpdir(), 'praca-abuse-'))) {
  const proc = spawn(BIN, ['serve', '--port', '0', '--data', path.join(dir, 'p.db'), '--access-log=0',
    '--log-level', '2', '--registrations-per-address', '0', '--logins-per-address', '0', ...args],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PRACA_RATE_LIMIT_SCALE: '1000' } }); // paced by hand below
  let out = '';
  const url = await new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => { out += d; const m = out.match(/listening on (http:\/\/\S+)/); if (m) resolve(m[1]); });
    proc.on('exit', (c) => reject(new Error('exited ' + c)));
  });
  const metricsUrl = () => (out.match(/metrics on (http:\/\/\S+)/) || [])[1];
  return { proc, url, dir, port: Number(new URL(url).port), metricsUrl, stop: () => new Promise((r) => { proc.on('exit', r); proc.kill('SIGTERM'); }) };
}

async function api(base, method, p, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json = null;
  try { json = JSON.parse(text); } catch (_) { /* not JSON */ }
  return { status: r.status, body: json };
}

let seq = 0;
async function person(base) {
  const username = `b${process.pid}_${seq++}`;
  const r = await api(base, 'POST', '/api/auth/register', { body: { username, password: 'senha-segura-1' } });
  if (r.status !== 201) throw new Error('register: ' + JSON.stringify(r.body));
  return { token: r.body.token, id: r.body.user.id };
}

async function serverOf(base, owner, members = []) {
  const s = (await api(base, 'POST', '/api/servers', { token: owner.token, body: { name: 'bench' } })).body;
  const code = (await api(base, 'POST', `/api/servers/${s.server.id}/invites`, { token: owner.token, body: {} })).body.code;
  for (const m of members) await api(base, 'POST', `/api/invites/${code}/join`, { token: m.token });
  return { sid: s.server.id, cid: s.channels[0].id };
}

function quantiles(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms (${s.length})`;
}

// A bystander who sends every `every` ms until stopped; returns the latencies.
function bystander(base, who, where, every = 50) {
  const lat = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      await api(base, 'POST', `/api/servers/${where.sid}/channels/${where.cid}/messages`, { token: who.token, body: { content: 'olá' } });
      lat.push(performance.now() - t0);
      await sleep(every);
    }
  })();
  return { lat, stop: async () => { running = false; await done; } };
}

async function metric(s, name) {
  const text = await (await fetch(s.metricsUrl())).text();
  const line = text.split('\n').find((l) => l.startsWith(name + ' '));
  return line ? Number(line.split(' ').pop()) : undefined;
}

async function unread() {
  const s = await start(['--max-connections', '300', '--max-connections-per-address', '0', '--idle-timeout-ms', '5000', '--metrics-listen', '127.0.0.1:0']);
  try {
    const req = 'GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(20);
    const socks = Array.from({ length: 300 }, () => {
      const sock = net.connect(s.port, '127.0.0.1');
      sock.on('error', () => {});
      sock.pause();
      sock.on('connect', () => sock.write(req));
      return sock;
    });
    let held = 0;
    for (let i = 0; i < 100 && (await metric(s, 'praca_http_connections')) !== 300; i++) await sleep(100);
    for (let i = 0; i < 10; i++) { // what the stuck answers hold, at its highest
      held = Math.max(held, (await metric(s, 'praca_http_answer_bytes')) || 0);
      await sleep(100);
    }
    const t0 = performance.now();
    let served = false;
    let tries = 0;
    while (!served && performance.now() - t0 < 30000) {
      tries++;
      served = await new Promise((resolve) => {
        const c = net.connect(s.port, '127.0.0.1', () => c.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
        let data = '';
        c.on('data', (d) => { data += d; });
        c.on('close', () => resolve(data.startsWith('HTTP/1.1 200')));
        c.on('error', () => resolve(false));
      });
      if (!served) await sleep(100);
    }
    const waited = performance.now() - t0;
    const timeouts = await metric(s, 'praca_http_write_timeouts_total');
    console.log(`unread: 300 connections held ${(held / 1e6).toFixed(1)} MB of answers; a new client ${served ? 'served' : 'NOT served'} after ${(waited / 1000).toFixed(1)} s (idle timeout 5 s, ${tries} tries); ${timeouts} connections closed for no progress`);
    for (const sock of socks) sock.destroy();
  } finally { await s.stop(); }
}

const EMOJI = ['😀', '😂', '😍', '😎', '😭', '😡', '👍', '👎', '👏', '🙏', '🔥', '🎉', '❤️', '💯', '✅', '❌', '🚀', '👀', '🤔', '🌟'];

// Writes `each` made-up people's reactions to every one of the message's 20 reactions.
function seedReactions(dbPath, mid, cid, each) {
  const { spawnSync } = require('node:child_process');
  if (spawnSync('sqlite3', ['-version']).status !== 0) spawnSync('apt-get', ['install', '-y', '-qq', 'sqlite3']);
  const values = [];
  EMOJI.forEach((e, k) => { for (let i = 0; i < each; i++) values.push(`('${mid}', '${cid}', '${e}', '', 'seed-${k}-${i}', ${1000 + i})`); });
  const kinds = spawnSync('sqlite3', [dbPath, "SELECT count(*) FROM sqlite_master WHERE name = 'reaction_kinds'"], { encoding: 'utf8' }).stdout.trim() === '1';
  const sql = ['BEGIN;'];
  for (let i = 0; i < values.length; i += 500) sql.push(`INSERT INTO reactions (message_id, channel_id, emoji, custom_emoji_id, user_id, created_at) VALUES ${values.slice(i, i + 500).join(',')};`);
  if (kinds) sql.push(`UPDATE reaction_kinds SET count = count + ${each} WHERE message_id = '${mid}';`);
  sql.push('COMMIT;');
  const r = spawnSync('sqlite3', [dbPath], { input: sql.join('\n'), encoding: 'utf8' });
  if (r.status !== 0) throw new Error('seeding: ' + r.stderr);
}

async function reactWith(each) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'praca-abuse-'));
  let s = await start([], dir);
  try {
    const owner = await person(s.url);
    const people = [];
    for (let i = 0; i < 10; i++) people.push(await person(s.url));
    const by = await person(s.url);
    const where = await serverOf(s.url, owner, [...people, by]);
    const elsewhere = await serverOf(s.url, by);
    const mid = (await api(s.url, 'POST', `/api/servers/${where.sid}/channels/${where.cid}/messages`, { token: owner.token, body: { content: 'reaja' } })).body.message.id;
    const url = `/api/servers/${where.sid}/channels/${where.cid}/messages/${mid}/react`;
    for (const emoji of EMOJI) await api(s.url, 'POST', url, { token: owner.token, body: { emoji } });
    if (each) {
      await s.stop();
      seedReactions(path.join(dir, 'p.db'), mid, where.cid, each);
      s = await start([], dir);
    }
    const side = bystander(s.url, by, elsewhere);
    const reactLat = [];
    const statuses = {};
    const seconds = Number(process.env.SECONDS_REACT || 10);
    const end = performance.now() + seconds * 1000;
    await Promise.all(people.map(async (p, k) => {
      let i = k;
      while (performance.now() < end) { // 30 per 10 s: the documented limit
        const t0 = performance.now();
        const r = await api(s.url, 'POST', url, { token: p.token, body: { emoji: EMOJI[i++ % EMOJI.length] } });
        reactLat.push(performance.now() - t0);
        statuses[r.status] = (statuses[r.status] || 0) + 1;
        await sleep(334);
      }
    }));
    await side.stop();
    console.log(`react: 20 distinct reactions, ${(each * 20).toLocaleString('en')} people's already on the message, 10 accounts at their limit for ${seconds} s: ${JSON.stringify(statuses)}; react ${quantiles(reactLat)}; a bystander's send elsewhere ${quantiles(side.lat)}`);
  } finally { await s.stop(); }
}

async function react() {
  for (const each of [0, 100, 1000]) await reactWith(each);
}

async function forum() {
  const seedDir = process.env.SEED_DIR && path.join(process.env.SEED_DIR, 'forum');
  const dir = seedDir || fs.mkdtempSync(path.join(os.tmpdir(), 'praca-abuse-'));
  const seeded = seedDir && fs.existsSync(path.join(dir, 'seed.json'));
  if (seedDir) fs.mkdirSync(dir, { recursive: true });
  const s = await start([], dir);
  let seed;
  if (seeded) {
    seed = JSON.parse(fs.readFileSync(path.join(dir, 'seed.json'), 'utf8'));
  } else {
    const owner = await person(s.url);
    const where = await serverOf(s.url, owner);
    const forumId = (await api(s.url, 'POST', `/api/servers/${where.sid}/channels`, { token: owner.token, body: { name: 'forum', type: 'forum' } })).body.channel.id;
    const made = async (n, fn) => { for (let i = 0; i < n; i += 16) await Promise.all(Array.from({ length: Math.min(16, n - i) }, (_, k) => fn(i + k))); };
    await made(4000, (i) => api(s.url, 'POST', `/api/servers/${where.sid}/channels/${forumId}/threads`, { token: owner.token, body: { name: `p${i}`, content: `post ${i}` } }));
    // 16,000 more channels: 32 servers of 500.
    for (let k = 0; k < 32; k++) {
      const other = await serverOf(s.url, owner);
      await made(499, (i) => api(s.url, 'POST', `/api/servers/${other.sid}/channels`, { token: owner.token, body: { name: `c${i}` } }));
    }
    seed = { owner, where, forumId };
    if (seedDir) fs.writeFileSync(path.join(dir, 'seed.json'), JSON.stringify(seed));
  }
  try {
    const by = await person(s.url);
    const elsewhere = await serverOf(s.url, by);
    if (seedDir) fs.copyFileSync(path.join(dir, 'p.db'), path.join(dir, 'p.db.before-delete'));
    const side = bystander(s.url, by, elsewhere, 20);
    await sleep(500);
    const t0 = performance.now();
    const r = await api(s.url, 'DELETE', `/api/servers/${seed.where.sid}/channels/${seed.forumId}`, { token: seed.owner.token });
    const took = performance.now() - t0;
    await sleep(500);
    await side.stop();
    console.log(`forum: deleting 4,000 posts in a database of 20,000 channels: ${r.status} in ${(took / 1000).toFixed(2)} s; a bystander's send meanwhile ${quantiles(side.lat)}`);
  } finally {
    await s.stop();
    if (seedDir && fs.existsSync(path.join(dir, 'p.db.before-delete'))) {
      for (const f of ['p.db-wal', 'p.db-shm']) fs.rmSync(path.join(dir, f), { force: true });
      fs.renameSync(path.join(dir, 'p.db.before-delete'), path.join(dir, 'p.db'));
    }
  }
}

(async () => {
  const which = process.argv.slice(2);
  const all = { unread, react, forum };
  for (const name of which.length ? which : Object.keys(all)) await all[name]();
})().catch((e) => { console.error(e); process.exit(1); });
