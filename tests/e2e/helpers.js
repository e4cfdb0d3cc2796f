// Starts a real praca on a free port with a fresh database, and talks to it as clients do.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const crypto = require('node:crypto');
const { checkAnswer } = require('./openapi');

const BIN = path.resolve(process.env.PRACA_BIN || 'build/praca');

// With PRACA_TEST_POSTGRES (postgres://user@host:port of a throwaway server), each test folder
// gets its own database there instead of an SQLite file: a restart on the same folder finds its
// data again.
const POSTGRES = process.env.PRACA_TEST_POSTGRES;
// With PRACA_TEST_NODES=2 and PRACA_TEST_REDIS too, startServer starts two nodes over that
// database and Redis; api() and gatewayConnect() given the first node's URL take turns between
// the two, so each test's calls and sockets are spread over both.
const REDIS = process.env.PRACA_TEST_REDIS;
const NODES = POSTGRES && REDIS ? Number(process.env.PRACA_TEST_NODES || 1) : 1;
// PRACA_TEST_STREAMS=N shards the nodes' event stream N ways over that one Redis. Every logged
// event's audience goes through it by reference, however small (100 recipients and more outside
// the tests), so that each test of the two nodes crosses that path.
const SHARED = { PRACA_REDIS_URL: REDIS, PRACA_REDIS_STREAMS: Array(Number(process.env.PRACA_TEST_STREAMS || 1)).fill(REDIS).join(','),
  PRACA_RELAY_AUDIENCE_REF_MIN: '1' };
const clusters = new Map(); // the first node's URL → {urls, turn}

// The URL of the node whose turn it is, for a URL handed out by startServer.
function nodeFor(base) {
  const c = clusters.get(base);
  if (!c) return base;
  c.turn = (c.turn + 1) % c.urls.length;
  return c.urls[c.turn];
}

function postgresDatabase(dir) {
  const name = 'e2e_' + crypto.createHash('sha256').update(dir).digest('hex').slice(0, 16);
  const exists = spawnSync('psql', [POSTGRES + '/postgres', '-tAc', `SELECT 1 FROM pg_database WHERE datname = '${name}'`], { encoding: 'utf8' });
  if (exists.status !== 0) throw new Error('psql: ' + exists.stderr);
  if (exists.stdout.trim() !== '1') {
    const made = spawnSync('psql', [POSTGRES + '/postgres', '-qc', `CREATE DATABASE ${name}`], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error('psql: ' + made.stderr);
  }
  return `${POSTGRES}/${name}`;
}

async function startServer(options = {}) {
  if (NODES < 2 || options.store || options.single) return startNode(options);
  // The first node keeps the port asked for; the others take free ones.
  const first = await startNode({ ...options, env: { ...SHARED, ...options.env } });
  const others = [];
  try {
    const args = (options.args || []).filter((a, i, all) => a !== '--port' && all[i - 1] !== '--port');
    for (let i = 1; i < NODES; i++) {
      // Each node its own files folder: with PostgreSQL the bytes are in the database, and a
      // node that did not take the upload reads them from there.
      others.push(await startNode({ ...options, dir: first.dir, files: `files-${i + 1}`, args, env: { ...SHARED, ...options.env } }));
    }
  } catch (e) {
    await first.stop().catch(() => {});
    throw e;
  }
  const nodes = [first, ...others];
  // A test that kills or stops the first node's process (a restart) stops the others with it.
  first.proc.on('exit', () => {
    for (const n of others) if (n.proc.exitCode === null && n.proc.signalCode === null) n.proc.kill('SIGTERM');
  });
  clusters.set(first.url, { urls: nodes.map((n) => n.url), turn: 0 });
  return Object.create(first, {
    nodes: { value: nodes },
    stderr: { get: () => nodes.map((n) => n.stderr).join('') },
    stop: { value: async () => { const [r] = await Promise.all(nodes.map((n) => n.stop())); return r; } },
  });
}

// A folder of this test file's own, removed with everything in it when the file's process ends.
const madeDirs = [];
function tempDir(prefix = 'praca-e2e-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (!madeDirs.length) {
    process.on('exit', () => {
      for (const d of madeDirs) {
        try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* a process of the test's still writes there */ }
      }
    });
  }
  madeDirs.push(dir);
  return dir;
}

async function startNode({ args = [], env = {}, dir, store, files: filesDir = 'files' } = {}) {
  dir = dir || tempDir();
  const db = path.join(dir, 'praca.db');
  store = store || (POSTGRES ? ['--database-url', postgresDatabase(dir)] : ['--data', db]);
  // Every test registers and logs in from 127.0.0.1; the per-address limits get their own tests.
  const files = args.includes('--files') ? [] : ['--files', path.join(dir, filesDir)];
  // Presence is said at once unless a test asks for the grace reconnects get.
  const grace = args.includes('--presence-grace-ms') ? [] : ['--presence-grace-ms', '0'];
  const proc = spawn(BIN, ['serve', '--port', '0', ...store, '--workers', '4',
    '--registrations-per-address', '0', '--logins-per-address', '0', ...grace, ...files, ...args], {
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  proc.stdout.on('data', (d) => { stdout += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('praca did not start: ' + stderr)), 15000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`praca exited ${code}: ${stderr}`)); });
  });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  let stopping = false;
  // A process that ends on its own in the middle of a test says why, whatever the test checks.
  proc.on('exit', (code, signal) => {
    if (!stopping && (code || (signal && signal !== 'SIGKILL'))) console.error(`praca at ${url} ended on its own (${code ?? signal}):\n${stderr.slice(-6000)}`);
  });
  const server = {
    url, dir, db, proc, exited,
    storeArgs: store, // what `praca admin …` needs to reach the same data
    get stderr() { return stderr; },
    get stdout() { return stdout; },
    port: Number(new URL(url).port),
    async stop() {
      stopping = true;
      if (proc.exitCode !== null || proc.signalCode !== null) return exited;
      proc.kill('SIGTERM');
      const r = await exited;
      if (/ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/.test(stderr)) {
        throw new Error('sanitizer report:\n' + stderr);
      }
      return r;
    },
  };
  return server;
}

// One HTTP call; returns {status, headers, body (parsed JSON or null), text}.
// `node` (an index) pins the call to one node of several, for what a node keeps to itself.
async function api(base, method, p, { token, body, headers = {}, raw, node } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) { payload = JSON.stringify(body); h['content-type'] = 'application/json'; }
  // The test clock is each process's own: every node moves it.
  if (p === '/api/test/clock' && clusters.has(base)) {
    for (const other of clusters.get(base).urls.slice(1)) await fetch(other + p, { method, headers: h, body: payload });
  }
  // Engine.IO's requests stay on one node, as a load balancer's sticky sessions keep them.
  const sticky = p === '/api/test/clock' || p.startsWith('/socket.io/');
  const target = node !== undefined && clusters.has(base) ? clusters.get(base).urls[node] : sticky ? base : nodeFor(base);
  const res = await fetch(target + p, { method, headers: h, body: payload });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  checkAnswer(method, p, res.status, json);
  return { status: res.status, headers: res.headers, body: json, text };
}

// A JSON POST from a chosen loopback address (127.0.0.2 is "a person elsewhere"); the status.
function postFrom(base, localAddress, p, body, headers = {}) {
  const http = require('node:http');
  const text = JSON.stringify(body);
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: p, method: 'POST', localAddress,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(text);
  });
}

let counter = 0;
function uniqueName(prefix = 'u') {
  counter += 1;
  return `${prefix}${process.pid % 10000}_${counter}`.slice(0, 32);
}

async function register(base, username = uniqueName(), password = 'senha-secreta-1') {
  const r = await api(base, 'POST', '/api/auth/register', { body: { username, password } });
  if (r.status !== 201) throw new Error(`register ${username}: ${r.status} ${r.text}`);
  return { token: r.body.token, user: r.body.user, password };
}

// Writes raw bytes on a socket and collects everything until the peer closes or `until` matches.
function rawExchange(port, chunks, { until, timeoutMs = 5000, delayMs = 0 } = {}) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let data = '';
    let closed = false;
    const finish = () => { if (!closed) { closed = true; sock.destroy(); resolve({ data, closed: true }); } };
    const timer = setTimeout(() => { closed = true; sock.destroy(); resolve({ data, closed: false }); }, timeoutMs);
    sock.on('data', (d) => {
      data += d.toString('latin1');
      if (until && until(data)) { clearTimeout(timer); finish(); }
    });
    sock.on('close', () => { clearTimeout(timer); finish(); });
    sock.on('error', () => {});
    sock.on('connect', async () => {
      for (const c of chunks) {
        if (sock.destroyed) break;
        sock.write(c);
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      }
    });
  });
}

function totp(secretB32, atMs = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secretB32.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  const step = Math.floor(atMs / 30000);
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = crypto.createHmac('sha1', Buffer.from(bytes)).update(msg).digest();
  const off = mac[19] & 0xf;
  const code = ((mac.readUInt32BE(off) & 0x7fffffff) % 1000000).toString().padStart(6, '0');
  return code;
}

// Setting up a server with an owner and members is what most tests start with.
async function serverWithMembers(base, memberCount = 1) {
  const owner = await register(base);
  const created = await api(base, 'POST', '/api/servers', { token: owner.token, body: { name: 'Servidor de teste' } });
  if (created.status !== 201) throw new Error('create server: ' + created.text);
  const sid = created.body.server.id;
  const invite = await api(base, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} });
  const members = [];
  for (let i = 0; i < memberCount; i++) {
    const m = await register(base);
    const j = await api(base, 'POST', `/api/invites/${invite.body.code}/join`, { token: m.token });
    if (j.status !== 200) throw new Error('join: ' + j.text);
    members.push(m);
  }
  return { owner, sid, server: created.body, members, code: invite.body.code };
}

// People who share a server (a conversation needs one): the first makes it, the rest join.
async function acquaint(base, first, ...others) {
  const created = await api(base, 'POST', '/api/servers', { token: first.token, body: { name: 'Em comum' } });
  if (created.status !== 201) throw new Error('create server: ' + created.text);
  const invite = await api(base, 'POST', `/api/servers/${created.body.server.id}/invites`, { token: first.token, body: {} });
  for (const p of others) {
    const j = await api(base, 'POST', `/api/invites/${invite.body.code}/join`, { token: p.token });
    if (j.status !== 200) throw new Error('join: ' + j.text);
  }
  return created.body.server.id;
}

module.exports = { startServer, tempDir, api, postFrom, register, uniqueName, rawExchange, totp, serverWithMembers, acquaint, BIN, POSTGRES, NODES };

// An application with a bot and a registered redirect URI, owned by `owner`.
async function appWithBot(base, owner, { name = 'Robô de Teste', intents = [], redirect = 'https://bot.example/callback' } = {}) {
  const created = await api(base, 'POST', '/api/applications', { token: owner.token, body: { name } });
  if (created.status !== 201) throw new Error('create app: ' + created.text);
  const app = created.body.application;
  const bot = await api(base, 'POST', `/api/applications/${app.id}/bot`, { token: owner.token });
  if (bot.status !== 201) throw new Error('bot: ' + bot.text);
  await api(base, 'PUT', `/api/applications/${app.id}/oauth/redirect-uris`, { token: owner.token, body: { redirectUris: [redirect] } });
  if (intents.length) await api(base, 'PUT', `/api/applications/${app.id}/intents`, { token: owner.token, body: { intents } });
  return { app: bot.body.application, botToken: bot.body.token, botUsername: bot.body.botUsername, redirect };
}

// Runs the install flow: start as installer, complete in server sid.
async function install(base, installer, appInfo, sid, { permissions = 0, checked, state } = {}) {
  const q = new URLSearchParams({ client_id: appInfo.app.clientId, redirect_uri: appInfo.redirect, permissions: String(permissions) });
  if (state !== undefined) q.set('state', state);
  const start = await api(base, 'GET', `/api/oauth2/authorize/start?${q}`, { token: installer.token });
  if (start.status !== 200) return { start };
  const body = { serverId: sid };
  if (checked !== undefined) body.permissions = checked;
  const complete = await api(base, 'POST', `/api/oauth2/authorize/${start.body.authorizeSessionId}/complete`, { token: installer.token, body });
  return { start, complete };
}

// A socket.io-client connection that keeps every event it receives in s.received; resolves once
// connected (a refusal rejects with the error, its socket in e.socket). Pushed to `sockets` so
// the suite can close it.
function gatewayConnect(url, options, sockets) {
  const { io } = require('socket.io-client');
  const s = io(nodeFor(url), { reconnection: false, ...options });
  sockets.push(s);
  s.received = [];
  s.onAny((name, payload) => s.received.push({ name, payload }));
  return new Promise((resolve, reject) => {
    s.on('connect', () => resolve(s));
    s.on('connect_error', (e) => { e.socket = s; reject(e); });
  });
}

module.exports.gatewayConnect = gatewayConnect;
module.exports.appWithBot = appWithBot;
module.exports.install = install;

// Polls fn until it returns true (a change made by another process reaches the server within a
// second); fails with what it last saw after timeoutMs.
async function eventually(fn, timeoutMs = 2500, what = 'condition') {
  const until = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await fn();
    if (last === true) return;
    if (Date.now() > until) throw new Error(`${what} not reached in ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
module.exports.eventually = eventually;

// The next `name` event on socket s, or a failure after timeoutMs.
function nextEvent(s, name, timeoutMs = 3000, label = '') {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${name} within ${timeoutMs} ms ${label}`.trim())), timeoutMs);
    s.once(name, (payload) => { clearTimeout(t); resolve(payload); });
  });
}
module.exports.nextEvent = nextEvent;

// A pause to show that something does NOT happen (an event that must not come); never a wait
// for something that should: use eventually or nextEvent for that.
const quiet = (ms = 400) => new Promise((r) => setTimeout(r, ms));
module.exports.quiet = quiet;

// A TCP port free on the loopback now (for a process the test starts).
function freePort() {
  return new Promise((resolve) => {
    const s = require('node:net').createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
module.exports.freePort = freePort;

// A raw Socket.IO client that presents a pid and offset itself; collects every event.
async function rawResume(url, token, pid, offset) {
  const WebSocket = require('ws');
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const events = [];
  let connect;
  await new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (d) => {
      const t = d.toString();
      if (t[0] === '0') ws.send(`40${JSON.stringify({ token, recovery: true, pid, offset: String(offset) })}`);
      else if (t.startsWith('40')) { connect = JSON.parse(t.slice(2)); resolve(); }
      else if (t.startsWith('42')) events.push(JSON.parse(t.slice(2)));
      else if (t === '2') ws.send('3');
    });
  });
  return { ws, events, connect };
}
module.exports.rawResume = rawResume;

// One sample of a process's Prometheus metrics (started with --metrics-listen 127.0.0.1:0 and
// single: true): how a test sees what the server holds, instead of waiting for it to settle.
async function metric(srv, name, labels = '') {
  const m = srv.stdout.match(/metrics on (http:\/\/\S+)/);
  if (!m) throw new Error('no metrics address printed: ' + srv.stdout);
  return sample(await (await fetch(m[1])).text(), name, labels);
}

// The value of one sample in a Prometheus text page, or undefined.
function sample(text, name, labels = '') {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}
module.exports.metric = metric;

// A multipart request: payload (JSON or undefined) and files [{name, data, type}].
async function upload(base, method, p, token, payload, files = []) {
  const form = new FormData();
  if (payload !== undefined) form.append('payload_json', JSON.stringify(payload));
  files.forEach((f, i) => form.append(`files[${i}]`, new Blob([f.data], { type: f.type || 'application/octet-stream' }), f.name));
  const res = await fetch(base + p, { method, headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body = null;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body, text };
}
module.exports.upload = upload;

// A PNG file around an already-deflated IDAT: width × height, bit depth, colour type (0 gray,
// 6 RGBA …), Adam7 when interlaced.
function pngFile(width, height, { depth = 8, type = 0, interlaced = false }, idat) {
  const zlib = require('node:zlib');
  const chunk = (kind, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(kind, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = type;
  ihdr[12] = interlaced ? 1 : 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
module.exports.pngFile = pngFile;

// The rows each Adam7 pass of a width × height picture holds, [[pass width, pass height], …]
// (one pass, the whole picture, when not interlaced).
function pngPasses(width, height, interlaced) {
  const passes = interlaced
    ? [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]]
    : [[0, 0, 1, 1]];
  return passes.map(([x0, y0, dx, dy]) => [Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)]).filter(([w, h]) => w > 0 && h > 0);
}
module.exports.pngPasses = pngPasses;

// Opens an upload to url that declares `declared` bytes and sends the head of its one file;
// `then(sock)` goes on. Resolves with what the server answered once it closed the connection.
function rawUpload(srv, url, token, declared, then) {
  const net = require('node:net');
  const boundary = 'praca-raw';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="x.bin"\r\n\r\n`;
  return new Promise((resolve) => {
    const sock = net.connect(srv.port, '127.0.0.1', () => {
      sock.write(`POST ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n` + head);
      if (then) then(sock);
    });
    let data = '';
    sock.on('data', (d) => { data += d; });
    sock.on('close', () => resolve(data));
    sock.on('error', () => {});
  });
}
module.exports.rawUpload = rawUpload;
module.exports.sample = sample;

// One server shared by all the tests of a file: started before the first, stopped after the
// last with a check that it exited cleanly (the sanitizers' findings fail it), after closing
// the sockets pushed to `sockets`. What it returns reads through to that server once started
// (srv.url, srv.stderr …), so the tests use it as they would the server itself.
function sharedServer(options, sockets = []) {
  const test = require('node:test');
  let started;
  test.before(async () => { started = await startServer(options); });
  test.after(async () => {
    for (const s of sockets) s.disconnect();
    const r = await started.stop();
    if (r.code !== 0) throw new Error(`praca exited ${r.code}: ${started.stderr}`);
  });
  return new Proxy({}, { get: (_, key) => started[key] });
}
module.exports.sharedServer = sharedServer;

// One of the pages' modules (src/web/static, ES modules), imported as the browser imports it,
// with what it imports. fresh: a new instance of that module (its own state), for tests that
// need a page of their own; what it imports is shared.
let freshModules = 0;
function pageModule(file, { fresh = false } = {}) {
  const { pathToFileURL } = require('node:url');
  const url = pathToFileURL(path.join(__dirname, '../../src/web/static', file)).href;
  return import(fresh ? `${url}?page=${++freshModules}` : url);
}
module.exports.pageModule = pageModule;

// Headless Chromium as the page tests and the page benches use it (Debian's, or $CHROMIUM).
// Its pages speak Portuguese unless a test asks for another locale.
async function launchChromium() {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    // A fake microphone (a beep each second) that needs no one to allow it, and sound that
    // plays without a click: voice calls between two pages.
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage',
      '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
  });
  // Contexts block the pages' service worker unless they ask for it (serviceWorkers: 'allow',
  // client_offline.test.js): Playwright's request routes do not see what a worker answers, so a
  // test that holds or fails a request would wait for one that never comes.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ locale: 'pt-BR', serviceWorkers: 'block', ...options });
  return browser;
}
module.exports.launchChromium = launchChromium;

// The server an import made for owner on the server at base, once that server has followed
// (within a second): its tree as GET /api/servers/:sid gives it.
async function importedServer(base, owner, name) {
  let found;
  await eventually(async () => {
    const r = await api(base, 'GET', '/api/servers', { token: owner.token });
    found = r.body.servers.find((s) => s.name === name);
    return !!found || r.body;
  }, 5000, 'the imported server');
  return (await api(base, 'GET', `/api/servers/${found.id}`, { token: owner.token })).body;
}
module.exports.importedServer = importedServer;
