// A person's sessions: idle expiry, sign out everywhere, password change, and the limits per
// address on registering and logging in.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, postFrom, register, uniqueName, gatewayConnect, sharedServer } = require('./helpers');

const DAY = 24 * 60 * 60 * 1000;
const sockets = [];
const srv = sharedServer({ args: ['--test-clock', '--session-idle-days', '30'] }, sockets);

const me = (token) => api(srv.url, 'GET', '/api/users/@me', { token });
const advance = (ms) => api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: ms } });
const login = (u, password = u.password) =>
  api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password } });
const disconnected = (s) => new Promise((resolve) => s.on('disconnect', resolve));

test('a session used within the idle time lives on; one idle longer is gone, here and on the gateway', async () => {
  const active = await register(srv.url);
  const idle = await register(srv.url);
  await advance(20 * DAY);
  assert.equal((await me(active.token)).status, 200, 'used after 20 days');
  await advance(20 * DAY);
  assert.equal((await me(active.token)).status, 200, 'idle 20 days since its last use: still valid');
  const gone = await me(idle.token);
  assert.equal(gone.status, 401, 'idle 40 days');
  assert.equal(gone.body.error, 'Sessão expirada: entre de novo');
  assert.equal((await me(idle.token)).status, 401, 'and it stays gone');
  await advance(31 * DAY);
  await assert.rejects(gatewayConnect(srv.url, { auth: { token: active.token } }, sockets),
    (e) => e.message === 'Token inválido', 'an expired session cannot open the gateway');
  assert.equal((await me(active.token)).status, 401);
  assert.equal((await login(active)).status, 200, 'signing in again works');
});

test('sign out everywhere ends every session of the person, gateway connections included', async () => {
  const u = await register(srv.url);
  const other = await login(u);
  const bystander = await register(srv.url);
  const s = await gatewayConnect(srv.url, { auth: { token: other.body.token } }, sockets);
  const closed = disconnected(s);
  const r = await api(srv.url, 'POST', '/api/auth/logout-everywhere', { token: u.token });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { ok: true, revoked: 2 });
  assert.match(r.headers.get('set-cookie'), /^session=; .*Max-Age=0/);
  assert.equal(await closed, 'io server disconnect');
  assert.equal((await me(u.token)).status, 401);
  assert.equal((await me(other.body.token)).status, 401);
  assert.equal((await me(bystander.token)).status, 200, 'nobody else is signed out');
});

test('changing the password needs the current one and signs out every other session', async () => {
  const u = await register(srv.url);
  const other = await login(u);
  const s = await gatewayConnect(srv.url, { auth: { token: other.body.token } }, sockets);
  const closed = disconnected(s);
  const path = '/api/users/@me/password';
  const wrong = await api(srv.url, 'POST', path, { token: u.token, body: { currentPassword: 'errada-123', newPassword: 'nova-senha-1' } });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error, 'currentPassword: senha incorreta');
  const short = await api(srv.url, 'POST', path, { token: u.token, body: { currentPassword: u.password, newPassword: 'curta' } });
  assert.equal(short.status, 400);
  assert.match(short.body.error, /^newPassword: /);
  const ok = await api(srv.url, 'POST', path, { token: u.token, body: { currentPassword: u.password, newPassword: 'nova-senha-1' } });
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, { ok: true, revoked: 1 });
  assert.equal(await closed, 'io server disconnect');
  assert.equal((await me(other.body.token)).status, 401, 'the other session is gone');
  assert.equal((await me(u.token)).status, 200, 'the one that changed it stays');
  assert.equal((await login(u)).status, 401, 'the old password no longer works');
  assert.equal((await login(u, 'nova-senha-1')).status, 200);
  const bot = await api(srv.url, 'POST', path, { token: 'x', body: {} });
  assert.equal(bot.status, 401);
});

test('five wrong current passwords in 10 minutes, then 429 even with the right one', async () => {
  const u = await register(srv.url);
  const path = '/api/users/@me/password';
  for (let i = 0; i < 5; i++) {
    const r = await api(srv.url, 'POST', path, { token: u.token, body: { currentPassword: 'errada-' + i, newPassword: 'nova-senha-1' } });
    assert.equal(r.status, 400);
  }
  const r = await api(srv.url, 'POST', path, { token: u.token, body: { currentPassword: u.password, newPassword: 'nova-senha-1' } });
  assert.equal(r.status, 429);
  assert.ok(r.body.retryAfterMs > 0);
});

test('registrations and login attempts are limited per address, not per name', async () => {
  const s = await startServer({ args: ['--registrations-per-address', '3', '--logins-per-address', '4'] });
  try {
    const reg = (address) => postFrom(s.url, address, '/api/auth/register', { username: uniqueName('r'), password: 'senha-secreta-1' });
    for (let i = 0; i < 3; i++) assert.equal(await reg('127.0.0.1'), 201);
    assert.equal(await reg('127.0.0.1'), 429, 'a fourth account from the same address in the hour');
    assert.equal(await reg('127.0.0.2'), 201, 'another address is not affected');
    const attempt = (address, i) => postFrom(s.url, address, '/api/auth/login', { username: uniqueName('n' + i), password: 'senha-secreta-1' });
    for (let i = 0; i < 4; i++) assert.equal(await attempt('127.0.0.1', i), 401, 'a different name each time');
    assert.equal(await attempt('127.0.0.1', 9), 429, 'the fifth attempt in the minute');
    assert.equal(await attempt('127.0.0.2', 9), 401, 'another address still tries');
  } finally {
    const r = await s.stop();
    assert.equal(r.code, 0, s.stderr);
  }
});

test('behind a trusted proxy the limits count the client it names; other peers name nobody', async () => {
  const s = await startServer({ args: ['--logins-per-address', '2', '--trusted-proxy', '127.0.0.2', '--access-log'] });
  try {
    const attempt = (peer, forwarded) => postFrom(s.url, peer, '/api/auth/login',
      { username: uniqueName('x'), password: 'senha-secreta-1' }, { 'x-forwarded-for': forwarded });
    // Through the proxy (127.0.0.2): each client its own window, by the entry the proxy added.
    for (let i = 0; i < 2; i++) assert.equal(await attempt('127.0.0.2', '198.51.100.1'), 401);
    assert.equal(await attempt('127.0.0.2', '198.51.100.1'), 429, 'the third attempt of that client');
    assert.equal(await attempt('127.0.0.2', '198.51.100.1, 198.51.100.2'), 401, 'another client, a forged first entry');
    assert.equal(await attempt('127.0.0.2', 'lixo'), 401, 'no address: counted against the proxy itself');
    // Anyone else's X-Forwarded-For is ignored: 127.0.0.3 cannot dodge its own limit.
    for (let i = 0; i < 2; i++) assert.equal(await attempt('127.0.0.3', `203.0.113.${i}`), 401);
    assert.equal(await attempt('127.0.0.3', '203.0.113.9'), 429);
    assert.match(s.stderr, /route=\/api\/auth\/login status=401 .*peer=198\.51\.100\.1/);
  } finally {
    const r = await s.stop();
    assert.equal(r.code, 0, s.stderr);
  }
});
