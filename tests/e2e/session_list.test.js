// Where a person is signed in: each session with the device (User-Agent) and address it was made
// from and when it was last used; one can be ended, or every other at once.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, register, gatewayConnect, eventually, sharedServer } = require('./helpers');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);
const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1';

test('the sessions list: device, address, last use, this one marked; one ended, then all the others', async () => {
  const u = await register(srv.url);
  const login = (ua) => api(srv.url, 'POST', '/api/auth/login', { headers: { 'user-agent': ua }, body: { username: u.user.username, password: u.password } });
  const phone = (await login(PHONE_UA)).body.token;
  const laptop = (await login('x'.repeat(400))).body.token;
  const { body: { sessions } } = await api(srv.url, 'GET', '/api/users/@me/sessions', { token: laptop });
  assert.equal(sessions.length, 3, 'sign-up, the phone and the laptop');
  const mine = sessions.find((s) => s.current);
  assert.equal(mine.device.length, 256, 'a long User-Agent is cut');
  const onPhone = sessions.find((s) => s.device === PHONE_UA);
  assert.ok(onPhone && !onPhone.current);
  assert.match(onPhone.id, /^[0-9a-f]{16}$/);
  assert.match(onPhone.address, /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
  assert.ok(Date.parse(onPhone.lastUsedAt) >= Date.parse(onPhone.createdAt));
  // The phone's session ends: its requests get 401 and its socket closes.
  const s = await gatewayConnect(srv.url, { auth: { token: phone } }, sockets);
  const closed = new Promise((resolve) => s.on('disconnect', resolve));
  assert.equal((await api(srv.url, 'DELETE', `/api/users/@me/sessions/${onPhone.id}`, { token: laptop })).status, 200);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: phone })).status, 401);
  await closed;
  assert.equal((await api(srv.url, 'DELETE', `/api/users/@me/sessions/${onPhone.id}`, { token: laptop })).status, 404, 'gone');
  assert.equal((await api(srv.url, 'DELETE', '/api/users/@me/sessions/nope', { token: laptop })).status, 404);
  // Another person's session is not one's own to end.
  const other = await register(srv.url);
  const theirs = (await api(srv.url, 'GET', '/api/users/@me/sessions', { token: other.token })).body.sessions[0];
  assert.equal((await api(srv.url, 'DELETE', `/api/users/@me/sessions/${theirs.id}`, { token: laptop })).status, 404);
  // Every other session ends; this one stays.
  const r = await api(srv.url, 'DELETE', '/api/users/@me/sessions', { token: laptop });
  assert.deepEqual([r.status, r.body.revoked], [200, 1]);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: u.token })).status, 401);
  const left = (await api(srv.url, 'GET', '/api/users/@me/sessions', { token: laptop })).body.sessions;
  assert.deepEqual(left.map((x) => x.current), [true]);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: other.token })).status, 200, 'nobody else is touched');
});
