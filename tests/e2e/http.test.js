// The HTTP layer: routing, headers, limits, malformed input, slow clients, pipelining, drain.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, rawExchange, BIN, eventually, metric, sharedServer, tempDir } = require('./helpers');

const srv = sharedServer({ args: ['--header-timeout-ms', '600', '--idle-timeout-ms', '1500', '--body-timeout-ms', '800'] });

async function healthy() {
  const r = await api(srv.url, 'GET', '/api/health');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.ok, true);
}

test('health answers ok and a version, JSON and uncached', async () => {
  const r = await api(srv.url, 'GET', '/api/health');
  assert.equal(r.status, 200);
  assert.equal(r.body.ok, true);
  assert.equal(typeof r.body.version, 'string');
  assert.equal(r.body.database, true);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
});

test('unknown path is 404 and a known path with another method is 405, both JSON', async () => {
  const a = await api(srv.url, 'GET', '/api/nada');
  assert.equal(a.status, 404);
  assert.equal(a.headers.get('x-content-type-options'), 'nosniff', 'on errors too');
  assert.equal(typeof a.body.error, 'string');
  assert.equal(a.headers.get('cache-control'), 'no-store');
  const b = await api(srv.url, 'DELETE', '/api/health');
  assert.equal(b.status, 405);
  assert.match(b.body.error, /Método/);
  const c = await api(srv.url, 'GET', '/api/servers/');
  assert.equal(c.status, 404);
});

test('malformed JSON, non-object JSON and wrong types are 400 with the field path', async () => {
  const bad = await api(srv.url, 'POST', '/api/auth/register', { raw: '{"username": "x",', headers: { 'content-type': 'application/json' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, 'body: JSON inválido');
  const empty = await api(srv.url, 'POST', '/api/auth/register', { raw: '', headers: { 'content-type': 'application/json' } });
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error, 'body: JSON inválido');
  const arr = await api(srv.url, 'POST', '/api/auth/register', { body: [1, 2] });
  assert.equal(arr.status, 400);
  assert.match(arr.body.error, /^body: /);
  const types = await api(srv.url, 'POST', '/api/auth/register', { body: { username: 12, password: 'abcdefgh' } });
  assert.equal(types.status, 400);
  assert.equal(types.body.error, 'username: deve ser um texto');
  const huge = await api(srv.url, 'POST', '/api/auth/register', { raw: '{"username":"ab","password":"abcdefghi","x":123456789012345678901234567890}', headers: { 'content-type': 'application/json' } });
  assert.equal(huge.status, 400);
  await healthy();
});

test('a body whose Content-Length passes 20 MB is refused with 413 before it is read', async () => {
  const head = 'POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20000001\r\n\r\n';
  const r = await rawExchange(srv.port, [head, 'x'.repeat(1000)], { until: (d) => d.includes('}') });
  assert.match(r.data, /^HTTP\/1\.1 413 /);
  assert.match(Buffer.from(r.data, 'latin1').toString('utf8'), /"error":"Corpo da requisição grande demais \(máximo 64 KiB\)"/, 'the limit that applied');
  assert.match(r.data, /Connection: close/i);
  assert.match(r.data, /"error":/);
  await healthy();
});

test('a 20 MB body passes on a large route with a known credential; a larger one gets 413', async () => {
  // A server of its own with the usual body deadline: this file's shared one cuts a body that
  // sends nothing for 800 ms, which a 19 MB string built and written by a busy test process can.
  const own = await startServer();
  try {
    const u = await register(own.url);
    // The session is now known in memory (on each node, when the calls take turns between two).
    for (let i = 0; i < 2; i++) await api(own.url, 'GET', '/api/users/@me', { token: u.token });
    const big = await api(own.url, 'POST', '/api/applications', { token: u.token, raw: '{"name":"' + 'a'.repeat(10) + '"' + ' '.repeat(19_000_000) + '}', headers: { 'content-type': 'application/json' } });
    assert.equal(big.status, 201, big.text);
    let status;
    try {
      const r = await api(own.url, 'POST', '/api/applications', { token: u.token, raw: 'x'.repeat(21_000_000) });
      status = r.status;
    } catch (e) {
      status = 'reset'; // the peer may see the close before the answer; the raw test above checks the answer
    }
    assert.ok(status === 413 || status === 'reset', String(status));
    const health = await api(own.url, 'GET', '/api/health');
    assert.equal(health.status, 200);
  } finally {
    await own.stop();
  }
});

// Content-Length only: a 413 comes before any body byte is sent; otherwise the body is awaited
// (no answer, or 408 once the body deadline passes).
async function declared(path, length, headers = '') {
  const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}Content-Length: ${length}\r\n\r\n`;
  const r = await rawExchange(srv.port, [head], { until: (d) => d.includes('}'), timeoutMs: 2000 });
  return Number((r.data.match(/^HTTP\/1\.1 (\d+)/) || [])[1] || 0);
}

test('an answer says how long its connection stays open idle, so that a client closes it first', async () => {
  const kept = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'], { until: (d) => d.includes('}') });
  assert.match(kept.data, /\r\nKeep-Alive: timeout=1\r\n/i, '--idle-timeout-ms 1500, in whole seconds');
  const closing = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], { until: (d) => d.includes('}') });
  assert.match(closing.data, /\r\nConnection: close\r\n/i);
  assert.doesNotMatch(closing.data, /Keep-Alive/i);
});

test('bodies are sized by route and credential before they are read', async () => {
  const u = await register(srv.url);
  await api(srv.url, 'GET', '/api/users/@me', { token: u.token, node: 0 }); // where the raw requests go
  const auth = `Authorization: Bearer ${u.token}\r\n`;
  // Public routes, and any route without a credential: 64 KiB.
  assert.equal(await declared('/api/auth/login', 65 * 1024), 413);
  assert.equal(await declared('/api/auth/register', 65 * 1024), 413);
  assert.equal(await declared('/api/applications', 65 * 1024), 413, 'no credential');
  assert.notEqual(await declared('/api/auth/login', 60 * 1024), 413, 'under it: the body is awaited');
  // A credential the server does not know in memory is looked up before the body is read: an
  // unknown one gets 1 MiB, even on a large route; a session made just now gets the 20 MB.
  assert.equal(await declared('/api/applications', 1100 * 1024, 'Authorization: Bearer inventado\r\n'), 413);
  assert.notEqual(await declared('/api/applications', 1000 * 1024, 'Authorization: Bearer inventado\r\n'), 413);
  const fresh = await register(srv.url);
  assert.notEqual(await declared('/api/applications', 3_000_000, `Authorization: Bearer ${fresh.token}\r\n`), 413);
  // A known credential: 1 MiB on ordinary routes, 20 MB on the large ones.
  assert.equal(await declared('/api/servers', 1100 * 1024, auth), 413);
  assert.notEqual(await declared('/api/applications', 3_000_000, auth), 413);
  assert.equal(await declared('/api/applications', 20_000_001, auth), 413);
  // The gateway's polling packets: Engine.IO's 1 MB.
  assert.equal(await declared('/socket.io/?EIO=4&transport=polling&sid=x', 1_000_001), 413);
  await healthy();
});

test('a chunked body that grows past 20 MB is cut off with 413', async () => {
  const head = 'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
  const chunk = (1024 * 1024).toString(16) + '\r\n' + 'a'.repeat(1024 * 1024) + '\r\n';
  const chunks = [head];
  for (let i = 0; i < 22; i++) chunks.push(chunk);
  const r = await rawExchange(srv.port, chunks, { until: (d) => d.includes('}') });
  assert.match(r.data, /^HTTP\/1\.1 413 /);
  await healthy();
});

test('a chunked JSON body is accepted', async () => {
  const body = JSON.stringify({ username: 'chunk_user', password: 'senha-segura' });
  const head = 'POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n';
  const half = Math.floor(body.length / 2);
  const parts = [body.slice(0, half), body.slice(half)];
  const chunks = [head, ...parts.map((p) => Buffer.byteLength(p).toString(16) + '\r\n' + p + '\r\n'), '0\r\n\r\n'];
  const r = await rawExchange(srv.port, chunks, { delayMs: 20 });
  assert.match(r.data, /^HTTP\/1\.1 201 /);
});

test('headers over 16 KiB are refused with 431', async () => {
  const r = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(17 * 1024) + '\r\n\r\n'], { until: (d) => d.includes('}') });
  assert.match(r.data, /^HTTP\/1\.1 431 /);
  const ok = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ' + 'a'.repeat(15 * 1024) + '\r\n\r\n']);
  assert.match(ok.data, /^HTTP\/1\.1 200 /);
  await healthy();
});

test('garbage instead of HTTP gets 400 and the connection closes', async () => {
  const r = await rawExchange(srv.port, ['HELLO THERE\r\n\r\n']);
  assert.match(r.data, /^HTTP\/1\.1 400 /);
  assert.equal(r.closed, true);
  await healthy();
});

test('a client that sends headers too slowly gets 408 and is disconnected', async () => {
  const started = Date.now();
  const r = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\n', 'Host: x\r\n'], { delayMs: 100, timeoutMs: 5000 });
  assert.equal(r.closed, true);
  assert.match(r.data, /^HTTP\/1\.1 408 /);
  assert.ok(Date.now() - started < 4000);
  await healthy();
});

test('a body that stalls is cut off', async () => {
  const r = await rawExchange(srv.port, ['POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a"'], { timeoutMs: 5000 });
  assert.equal(r.closed, true);
  assert.match(r.data, /^HTTP\/1\.1 408 /);
});

test('an idle keep-alive connection is closed after the idle timeout', async () => {
  const r = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'], { timeoutMs: 5000 });
  assert.equal(r.closed, true);
  assert.match(r.data, /^HTTP\/1\.1 200 /);
});

test('pipelined requests are answered in order on one connection', async () => {
  const reqs = [
    'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/nope HTTP/1.1\r\nHost: x\r\n\r\n',
    'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]',
    'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  ];
  const r = await rawExchange(srv.port, [reqs.join('')]);
  const statuses = [...r.data.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
  assert.deepEqual(statuses, [200, 404, 400, 200]);
});

test('keep-alive serves several requests on one connection', async () => {
  const r = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], { delayMs: 50 });
  assert.equal([...r.data.matchAll(/HTTP\/1\.1 200/g)].length, 2);
});

test('Expect: 100-continue gets an interim answer', async () => {
  const body = '{"username":"x","password":"y"}';
  const r = await rawExchange(srv.port, [`POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`, body], { delayMs: 100 });
  assert.match(r.data, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);
});

test('many concurrent requests all get answers', async () => {
  const results = await Promise.all(Array.from({ length: 200 }, () => api(srv.url, 'GET', '/api/health')));
  assert.ok(results.every((r) => r.status === 200));
});

test('SIGTERM drains: a request in flight is answered, then praca exits 0', async () => {
  const s = await startServer({ args: ['--metrics-listen', '127.0.0.1:0'], single: true });
  // In flight for sure: half its body is in when the signal comes, the rest after.
  const body = JSON.stringify({ username: 'drain_user', password: 'senha-segura' });
  const sock = require('node:net').connect(s.port, '127.0.0.1');
  let answer = '';
  sock.on('data', (d) => { answer += d; });
  const closed = new Promise((r) => sock.on('close', r));
  sock.write(`POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  await eventually(async () => (await metric(s, 'praca_http_body_bytes')) > 0, 3000, 'the body under way');
  s.proc.kill('SIGTERM');
  sock.write(body.slice(10));
  await closed;
  assert.match(answer, /^HTTP\/1\.1 201 /);
  const exit = await s.exited;
  assert.equal(exit.code, 0);
});

test('SIGTERM: a request that stops arriving gets 408 within the drain\'s 5 s, then praca exits 0', { timeout: 20000 }, async () => {
  const s = await startServer({ args: ['--metrics-listen', '127.0.0.1:0'], single: true });
  const sock = require('node:net').connect(s.port, '127.0.0.1');
  let answer = '';
  sock.on('data', (d) => { answer += d; });
  sock.on('error', () => {});
  const closed = new Promise((r) => sock.on('close', r));
  sock.write('POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user');
  await eventually(async () => (await metric(s, 'praca_http_body_bytes')) > 0, 3000, 'the body under way');
  s.proc.kill('SIGTERM');
  await closed; // its own deadline is 30 s and more: the drain's cut it short
  assert.match(answer, /^HTTP\/1\.1 408 /);
  assert.equal((await s.exited).code, 0);
});

// Clients that ask and never read: each pipelines twenty large answers and pauses its socket.
function unreadConnections(port, count) {
  const req = 'GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(20);
  return Array.from({ length: count }, () => {
    const sock = require('node:net').connect(port, '127.0.0.1');
    sock.on('error', () => {});
    sock.pause();
    sock.on('connect', () => sock.write(req));
    return sock;
  });
}

test('answers nobody reads: 300 such connections against a cap of 300 are closed after the idle timeout, and a new client is served', { timeout: 120000 }, async () => {
  const s = await startServer({ args: ['--max-connections', '300', '--max-connections-per-address', '0', '--idle-timeout-ms', '3000', '--metrics-listen', '127.0.0.1:0'], single: true });
  try {
    const socks = unreadConnections(s.port, 300);
    // Every slot taken (on a loaded machine the first may already have timed out by the time
    // the last is in: that counts too).
    await eventually(async () => (await metric(s, 'praca_http_connections')) === 300 ||
      (await metric(s, 'praca_http_write_timeouts_total')) > 0, 30000, 'every slot held by an unread answer');
    // The idle timeout passes with no progress: the stuck answers close and their bytes go.
    await eventually(async () => {
      const r = await rawExchange(s.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
      return /^HTTP\/1\.1 200 /.test(r.data);
    }, 30000, 'a new client served');
    assert.ok((await metric(s, 'praca_http_write_timeouts_total')) >= 1);
    await eventually(async () => (await metric(s, 'praca_http_answer_bytes')) === 0, 30000, 'no answer bytes held');
    for (const sock of socks) sock.destroy();
  } finally { await s.stop(); }
});

test('SIGTERM ends even with answers nobody reads, then praca exits 0', { timeout: 30000 }, async () => {
  // The idle timeout is longer than the drain's bound: the drain itself ends them.
  const s = await startServer({ args: ['--idle-timeout-ms', '600000', '--metrics-listen', '127.0.0.1:0'], single: true });
  const socks = unreadConnections(s.port, 5);
  await eventually(async () => (await metric(s, 'praca_http_answer_bytes')) > 0, 10000, 'answers waiting');
  s.proc.kill('SIGTERM');
  assert.equal((await s.exited).code, 0);
  for (const sock of socks) sock.destroy();
});

test('kill -9 loses no acknowledged write', async (t) => {
  const s = await startServer();
  t.after(() => s.proc.kill('SIGKILL')); // a failed assertion must not leave it running
  const names = [];
  await Promise.all(Array.from({ length: 20 }, async (_, i) => {
    const username = `durable_${i}`;
    for (;;) { // 503 with Retry-After: the hashing queue was full; ask again, as clients do
      const r = await api(s.url, 'POST', '/api/auth/register', { body: { username, password: 'senha-segura' } });
      assert.ok(r.status === 201 || r.status === 503, String(r.status));
      if (r.status === 201) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    names.push(username);
  }));
  assert.equal(names.length, 20);
  s.proc.kill('SIGKILL');
  await s.exited;
  const again = await startServer({ dir: s.dir });
  for (const username of names) {
    const r = await api(again.url, 'POST', '/api/auth/login', { body: { username, password: 'senha-segura' } });
    assert.equal(r.status, 200, username);
  }
  await again.stop();
});

test('--sync full serves and keeps what it acknowledged; any other word is refused', async () => {
  const bad = spawnSync(BIN, ['serve', '--sync', 'talvez', '--port', '0'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--sync: normal or full, not 'talvez'/);
  const s = await startServer({ args: ['--sync', 'full'] });
  try {
    const u = await register(s.url);
    assert.equal((await api(s.url, 'GET', '/api/users/@me', { token: u.token })).status, 200);
  } finally { await s.stop(); }
});

test('praca --help lists commands and flags; migrate works alone', () => {
  const help = spawnSync(BIN, ['--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  for (const word of ['serve', 'migrate', '--port', '--data', 'PRACA_RATE_LIMIT_SCALE', '--workers']) {
    assert.ok(help.stdout.includes(word), word);
  }
  const bad = spawnSync(BIN, ['serve', '--port', 'abc'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  const dir = tempDir('praca-mig-');
  const mig = spawnSync(BIN, ['migrate', '--data', dir + '/m.db'], { encoding: 'utf8' });
  assert.equal(mig.status, 0, mig.stderr);
  assert.match(mig.stdout, /migrations applied: [1-9]/);
  const again = spawnSync(BIN, ['migrate'], { encoding: 'utf8', env: { ...process.env, PRACA_DATA: dir + '/m.db' } });
  assert.match(again.stdout, /migrations applied: 0/);
});

test('HTTP/1.1 needs exactly one Host: none or two are 400; HTTP/1.0 is served without one', async () => {
  const none = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\n\r\n']);
  assert.match(none.data, /^HTTP\/1\.1 400 /);
  const two = await rawExchange(srv.port, ['GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']);
  assert.match(two.data, /^HTTP\/1\.1 400 /);
  const old = await rawExchange(srv.port, ['GET /api/health HTTP/1.0\r\n\r\n']);
  assert.match(old.data, /^HTTP\/1\.1 200 /);
});

test('every answer is exactly as long as its Content-Length (a page with another method: 405)', async () => {
  for (const req of ['DELETE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    'PUT /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n']) {
    const r = await rawExchange(srv.port, [req]);
    assert.match(r.data, /^HTTP\/1\.1 405 /);
    const [head, body] = r.data.split('\r\n\r\n');
    const declared = Number(head.match(/Content-Length: (\d+)/i)[1]);
    assert.equal(Buffer.byteLength(body, 'latin1'), declared, req);
    assert.match(Buffer.from(body, 'latin1').toString('utf8'), /permitido/);
  }
});

test('--version, and --help after a command', () => {
  const v = spawnSync(BIN, ['--version'], { encoding: 'utf8' });
  assert.equal(v.status, 0);
  assert.match(v.stdout, /^praca \d+\.\d+\.\d+/);
  const h = spawnSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
  assert.equal(h.status, 0);
  assert.match(h.stdout, /usage: praca/);
});

test('a start that cannot listen exits 1 with the reason', () => {
  const dir = tempDir('praca-port-');
  const r = spawnSync(BIN, ['serve', '--port', String(srv.port), '--data', dir + '/p.db'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(r.status, 1, 'exits instead of running on, serving nothing');
  assert.match(r.stderr, /cannot listen on .*address already in use/);
});

// Opens a raw TCP connection; resolves with it and whether the server closed it within ms.
function probe(port, ms = 400) {
  return new Promise((resolve) => {
    const sock = require('node:net').connect(port, '127.0.0.1');
    let closed = false;
    sock.on('error', () => {});
    sock.on('close', () => { closed = true; });
    setTimeout(() => resolve({ sock, closed }), ms);
  });
}

test('connections are capped in all and per address; refused ones hold no descriptor', async () => {
  const s = await startServer({ args: ['--max-connections', '8', '--metrics-listen', '127.0.0.1:0'], single: true });
  try {
    const fds = () => require('node:fs').readdirSync(`/proc/${s.proc.pid}/fd`).length;
    const open = [];
    for (let i = 0; i < 8; i++) open.push(await probe(s.port, 50));
    assert.ok(open.every((p) => !p.closed));
    const before = fds();
    const extra = [];
    for (let i = 0; i < 50; i++) extra.push(probe(s.port));
    const refused = await Promise.all(extra);
    assert.ok(refused.every((p) => p.closed), 'over the cap: closed at once');
    assert.ok(fds() <= before + 2, `descriptors ${before} -> ${fds()}`);
    open.pop().sock.destroy();
    await eventually(async () => (await metric(s, 'praca_http_connections')) === 7, 3000, 'one left');
    const again = await rawExchange(s.port, ['GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
    assert.match(again.data, /^HTTP\/1\.1 200 /, 'room again once one left');
    for (const p of open) p.sock.destroy();
  } finally { await s.stop(); }
  const t = await startServer({ args: ['--max-connections-per-address', '3'] });
  try {
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await probe(t.port, 50));
    assert.ok(mine.every((p) => !p.closed));
    assert.equal((await probe(t.port)).closed, true, 'a fourth from the same address is closed');
    for (const p of mine) p.sock.destroy();
  } finally { await t.stop(); }
});

test('request bodies share one budget: past it a new body gets 503 before it is read', async () => {
  const s = await startServer({ args: ['--body-budget-mb', '1', '--metrics-listen', '127.0.0.1:0'], single: true });
  try {
    const u = await register(s.url);
    const auth = `Authorization: Bearer ${u.token}\r\n`;
    const holder = require('node:net').connect(s.port, '127.0.0.1');
    holder.on('error', () => {});
    holder.write(`POST /api/servers HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 800000\r\n\r\n{"a":`);
    await eventually(async () => (await metric(s, 'praca_http_body_bytes')) > 0, 3000, 'the first body held');
    const over = await rawExchange(s.port, [`POST /api/servers HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 500000\r\n\r\n`]);
    assert.match(over.data, /^HTTP\/1\.1 503 /);
    assert.match(Buffer.from(over.data, 'latin1').toString('utf8'), /Servidor ocupado/);
    holder.destroy();
    await eventually(async () => (await metric(s, 'praca_http_body_bytes')) === 0, 3000, 'the first body let go');
    const body = JSON.stringify({ name: 'x', pad: 'z'.repeat(499000) });
    const fits = await rawExchange(s.port, [`POST /api/servers HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`, body]);
    assert.doesNotMatch(fits.data, /^HTTP\/1\.1 503 /, 'the budget came back when the first left');
  } finally { await s.stop(); }
});

test('a body trickling a byte at a time is cut off at its deadline, not kept alive by each byte', async () => {
  const started = Date.now();
  const r = await new Promise((resolve) => {
    const sock = require('node:net').connect(srv.port, '127.0.0.1');
    let data = '';
    sock.on('error', () => {});
    sock.on('data', (d) => { data += d; });
    sock.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n');
    const drip = setInterval(() => { if (!sock.destroyed) sock.write('x'); }, 200);
    sock.on('close', () => { clearInterval(drip); resolve({ data, ms: Date.now() - started }); });
    setTimeout(() => { clearInterval(drip); sock.destroy(); }, 8000);
  });
  assert.match(r.data, /^HTTP\/1\.1 408 /, `after ${r.ms} ms: ${r.data.slice(0, 40)}`);
  assert.ok(r.ms < 4000, `cut off after ${r.ms} ms`);
});

test('the server is still healthy after all of the above', async () => {
  await healthy();
  const u = await register(srv.url);
  assert.ok(u.token);
});
