// People and sessions: register, login, logout, @me, cookies with the CSRF guard, the failed
// login limit, and two-factor with TOTP.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, postFrom, register, uniqueName, totp, sharedServer } = require('./helpers');

const srv = sharedServer();

test('register folds the name, returns {user, token} with 201 and sets the session cookie', async () => {
  const name = uniqueName('Maria');
  const r = await api(srv.url, 'POST', '/api/auth/register', { body: { username: name, password: 'senha-secreta', displayName: '  Maria S.  ' } });
  assert.equal(r.status, 201);
  assert.equal(r.body.user.username, name.toLowerCase());
  assert.equal(r.body.user.displayName, 'Maria S.');
  assert.equal(r.body.user.isBot, false);
  assert.equal(r.body.user.mfaEnabled, false);
  assert.match(r.body.user.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(r.body.user.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(Object.keys(r.body.user), ['id', 'username', 'displayName', 'isBot', 'mfaEnabled', 'createdAt']);
  assert.ok(r.body.token.length >= 43);
  const cookie = r.headers.get('set-cookie');
  assert.match(cookie, new RegExp(`^session=${r.body.token}; HttpOnly; SameSite=Lax; Path=/`));
  const plain = await api(srv.url, 'POST', '/api/auth/register', { body: { username: uniqueName('p'), password: 'senha-secreta' } });
  assert.equal(plain.body.user.displayName, plain.body.user.username);
});

test('register validates every field with path: motivo', async () => {
  const cases = [
    [{ password: 'senha-secreta' }, 'username: obrigatório'],
    [{ username: 'a', password: 'senha-secreta' }, /^username: /],
    [{ username: 'ana silva', password: 'senha-secreta' }, /^username: /],
    [{ username: 'a'.repeat(33), password: 'senha-secreta' }, /^username: /],
    [{ username: 'ok_name', password: 'curta12' }, 'password: deve ter entre 8 e 128 caracteres'],
    [{ username: 'ok_name', password: 'x'.repeat(129) }, 'password: deve ter entre 8 e 128 caracteres'],
    [{ username: 'ok_name', password: 12345678 }, 'password: deve ser um texto'],
    [{ username: 'ok_name', password: 'senha-secreta', displayName: 'x'.repeat(33) }, 'displayName: deve ter entre 1 e 32 caracteres'],
    [{ username: 'ok_name', password: 'senha-secreta', displayName: '   ' }, 'displayName: deve ter entre 1 e 32 caracteres'],
    [{ username: 'ok_name', password: 'senha-secreta', displayName: 5 }, 'displayName: deve ser um texto'],
  ];
  for (const [body, msg] of cases) {
    const r = await api(srv.url, 'POST', '/api/auth/register', { body });
    assert.equal(r.status, 400, JSON.stringify(body));
    if (msg instanceof RegExp) assert.match(r.body.error, msg);
    else assert.equal(r.body.error, msg);
  }
  const edge = await api(srv.url, 'POST', '/api/auth/register', { body: { username: uniqueName('e'), password: 'x'.repeat(128), displayName: 'ç'.repeat(32) } });
  assert.equal(edge.status, 201);
  const eight = await api(srv.url, 'POST', '/api/auth/register', { body: { username: uniqueName('e'), password: '12345678' } });
  assert.equal(eight.status, 201);
});

test('a taken username (in any case) is 409', async () => {
  const name = uniqueName('dup');
  await register(srv.url, name);
  const r = await api(srv.url, 'POST', '/api/auth/register', { body: { username: name.toUpperCase(), password: 'senha-secreta' } });
  assert.equal(r.status, 409);
  assert.match(r.body.error, /^username: /);
});

test('login, @me by Bearer, logout revokes the token at once', async () => {
  const u = await register(srv.url);
  const r = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username.toUpperCase(), password: u.password } });
  assert.equal(r.status, 200);
  assert.equal(r.body.user.id, u.user.id);
  assert.notEqual(r.body.token, u.token);
  const me = await api(srv.url, 'GET', '/api/users/@me', { token: r.body.token });
  assert.equal(me.status, 200);
  const { presence, ...user } = me.body.user;
  assert.deepEqual(user, { ...u.user, locale: null, about: null, bannerColor: null, avatarUrl: null, email: null, canMail: false }, 'with the language it chose and its profile (none yet)');
  assert.deepEqual(presence, { status: 'online', activity: null, connected: false }, 'and the status it chose (none: online), not connected');
  const out = await api(srv.url, 'POST', '/api/auth/logout', { token: r.body.token });
  assert.equal(out.status, 200);
  assert.deepEqual(out.body, { ok: true });
  const after = await api(srv.url, 'GET', '/api/users/@me', { token: r.body.token });
  assert.equal(after.status, 401);
  const other = await api(srv.url, 'GET', '/api/users/@me', { token: u.token });
  assert.equal(other.status, 200, 'the other session is untouched');
});

test('missing and invalid tokens are 401', async () => {
  assert.equal((await api(srv.url, 'GET', '/api/users/@me')).status, 401);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: 'nope' })).status, 401);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: 'x'.repeat(5000) })).status, 401);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { headers: { authorization: 'Basic abc' } })).status, 401);
});

test('wrong password and unknown user are both 401 with the same message', async () => {
  const u = await register(srv.url);
  const a = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'errada-123' } });
  const b = await api(srv.url, 'POST', '/api/auth/login', { body: { username: 'ninguem_aqui', password: 'errada-123' } });
  const c = await api(srv.url, 'POST', '/api/auth/login', { body: { username: 'não válido!', password: 'errada-123' } });
  assert.equal(a.status, 401);
  assert.equal(b.status, 401);
  assert.equal(c.status, 401);
  assert.equal(a.body.error, b.body.error);
  const missing = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error, 'password: obrigatório');
});

test('the cookie session works, and state changes with it need a same-origin Origin', async () => {
  const u = await register(srv.url);
  const cookie = { cookie: `session=${u.token}` };
  const me = await api(srv.url, 'GET', '/api/users/@me', { headers: cookie });
  assert.equal(me.status, 200);
  const noOrigin = await api(srv.url, 'POST', '/api/servers', { headers: cookie, body: { name: 'x' } });
  assert.equal(noOrigin.status, 403);
  const evil = await api(srv.url, 'POST', '/api/servers', { headers: { ...cookie, origin: 'http://evil.example' }, body: { name: 'x' } });
  assert.equal(evil.status, 403);
  const same = await api(srv.url, 'POST', '/api/servers', { headers: { ...cookie, origin: srv.url }, body: { name: 'x' } });
  assert.equal(same.status, 201);
  const bearer = await api(srv.url, 'POST', '/api/servers', { token: u.token, body: { name: 'y' } });
  assert.equal(bearer.status, 201, 'Bearer requests need no Origin');
  const out = await api(srv.url, 'POST', '/api/auth/logout', { headers: { ...cookie, origin: srv.url } });
  assert.equal(out.status, 200);
  assert.match(out.headers.get('set-cookie'), /Max-Age=0/);
});

test('10 failed logins per username in 10 minutes, then 429 with retryAfterMs and no headers', async () => {
  const u = await register(srv.url);
  for (let i = 0; i < 10; i++) {
    const r = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'errada-' + i } });
    assert.equal(r.status, 401, `attempt ${i + 1}`);
  }
  const r = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } });
  assert.equal(r.status, 429);
  assert.equal(typeof r.body.error, 'string');
  assert.ok(r.body.retryAfterMs > 0 && r.body.retryAfterMs <= 600000, String(r.body.retryAfterMs));
  assert.equal(r.headers.get('retry-after'), null);
  for (const [k] of r.headers) assert.ok(!k.startsWith('x-ratelimit'), k);
  const other = await register(srv.url);
  const ok = await api(srv.url, 'POST', '/api/auth/login', { body: { username: other.user.username, password: other.password } });
  assert.equal(ok.status, 200, 'other usernames are not affected');
});

const loginFrom = (address, username, password) =>
  postFrom(srv.url, address, '/api/auth/login', { username, password });

test('failed logins lock a name out only from the address they came from', async () => {
  const u = await register(srv.url);
  for (let i = 0; i < 10; i++) assert.equal(await loginFrom('127.0.0.1', u.user.username, 'errada-' + i), 401);
  assert.equal(await loginFrom('127.0.0.1', u.user.username, u.password), 429, 'the guesser is stopped');
  assert.equal(await loginFrom('127.0.0.2', u.user.username, u.password), 200, 'the person, elsewhere, still gets in');
});

test('two-factor: enrol, verify, then login needs the code, and a code works once', async () => {
  const u = await register(srv.url);
  const start = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: u.token });
  assert.equal(start.status, 200);
  assert.match(start.body.secret, /^[A-Z2-7]{32}$/);
  assert.ok(start.body.otpauthUrl.startsWith('otpauth://totp/'));
  assert.ok(start.body.otpauthUrl.includes(`secret=${start.body.secret}`));
  const wrong = await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: u.token, body: { code: '000000' === totp(start.body.secret) ? '111111' : '000000' } });
  assert.equal(wrong.status, 400);
  assert.match(wrong.body.error, /^code: /);
  const noCode = await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: u.token, body: {} });
  assert.equal(noCode.body.error, 'code: obrigatório');
  const ok = await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: u.token, body: { code: totp(start.body.secret) } });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.user.mfaEnabled, true);
  const again = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: u.token });
  assert.equal(again.status, 409);

  const without = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } });
  assert.equal(without.status, 401);
  assert.equal(without.body.mfaRequired, true);
  // The enrolment consumed this step's code; the next step's code is accepted once.
  const next = totp(start.body.secret, Date.now() + 30000);
  const withCode = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password, code: next } });
  assert.equal(withCode.status, 200, withCode.text);
  assert.equal(withCode.body.user.mfaEnabled, true);
  const replay = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password, code: next } });
  assert.equal(replay.status, 401);
  const badPw = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'errada-xx', code: next } });
  assert.equal(badPw.status, 401);
});

test('recovery codes: ten shown once when two-factor goes on, each good once to sign in; a new set on demand; off with a code', async () => {
  const u = await register(srv.url);
  const { body: { secret } } = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: u.token });
  const on = await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: u.token, body: { code: totp(secret) } });
  assert.equal(on.status, 200);
  const codes = on.body.recoveryCodes;
  assert.equal(codes.length, 10);
  assert.ok(codes.every((c) => /^[a-z2-7]{5}-[a-z2-7]{5}$/.test(c)), JSON.stringify(codes));
  assert.equal(new Set(codes).size, 10);
  const login = (code) => api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password, code } });
  assert.equal((await login(codes[0])).status, 200, 'a recovery code in place of the app\'s');
  assert.equal((await login(codes[0])).status, 401, 'once');
  assert.equal((await login(codes[1].toUpperCase().replace('-', ' '))).status, 200, 'as typed: any case, a space');
  assert.equal((await login('aaaaa-aaaaa')).status, 401);
  // A new set needs proof, and the old set stops working.
  const noProof = await api(srv.url, 'POST', '/api/users/@me/mfa/recovery-codes', { token: u.token, body: { code: '123' } });
  assert.equal(noProof.status, 400);
  assert.equal(noProof.body.error, 'code: código inválido, expirado ou já usado');
  const fresh = await api(srv.url, 'POST', '/api/users/@me/mfa/recovery-codes', { token: u.token, body: { code: codes[2] } });
  assert.equal(fresh.status, 200);
  assert.equal(fresh.body.recoveryCodes.length, 10);
  assert.equal((await login(codes[3])).status, 401, 'the old set is gone');
  assert.equal((await login(fresh.body.recoveryCodes[0])).status, 200);
  // Off with a recovery code; then a password alone signs in, and the codes are gone.
  const off = await api(srv.url, 'DELETE', '/api/users/@me/mfa', { token: u.token, body: { code: fresh.body.recoveryCodes[1] } });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.body.user.mfaEnabled, false);
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', '/api/users/@me/mfa', { token: u.token, body: { code: '123456' } })).status, 409, 'already off');
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/mfa/recovery-codes', { token: u.token, body: { code: '123456' } })).status, 409);
});

test('verify without enrolling first is 400', async () => {
  const u = await register(srv.url);
  const r = await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: u.token, body: { code: '123456' } });
  assert.equal(r.status, 400);
  assert.match(r.body.error, /^code: /);
});

test('the failed-login window slides: after 10 minutes the name may try again', async () => {
  const s = await startServer({ args: ['--test-clock'] });
  try {
    const u = await register(s.url);
    for (let i = 0; i < 10; i++) await api(s.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'errada-' + i } });
    assert.equal((await api(s.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } })).status, 429);
    await api(s.url, 'POST', '/api/test/clock', { body: { advanceMs: 10 * 60 * 1000 + 1 } });
    assert.equal((await api(s.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } })).status, 200);
  } finally {
    await s.stop();
  }
});

test('a flood of logins waits on its own pool, bounded by --hashing-queue: the excess gets 503, everything else is served', async () => {
  const s = await startServer({ args: ['--hashing-workers', '1', '--hashing-queue', '4'] });
  try {
    const me = await register(s.url);
    const flood = Array.from({ length: 60 }, () => api(s.url, 'POST', '/api/auth/login',
      { body: { username: uniqueName(), password: 'nenhuma-senha' } }));
    const during = await api(s.url, 'GET', '/api/users/@me', { token: me.token });
    assert.equal(during.status, 200, 'a request of another kind is served meanwhile');
    const answers = await Promise.all(flood);
    const busy = answers.filter((r) => r.status === 503);
    assert.ok(busy.length > 0, 'some logins are refused while the pool is full');
    assert.ok(answers.every((r) => r.status === 503 || r.status === 401), answers.map((r) => r.status).join());
    assert.equal(busy[0].headers.get('retry-after'), '1');
    assert.match(busy[0].body.error, /tente de novo/);
    const after = await api(s.url, 'POST', '/api/auth/login', { body: { username: me.user.username, password: 'senha-secreta-1' } });
    assert.equal(after.status, 200, 'and logins work again once it drains');
  } finally {
    await s.stop();
  }
});

test('login and register take JSON only: a cross-site form post (text/plain) gets 415', async () => {
  const me = await register(srv.url);
  const form = JSON.stringify({ username: me.user.username, password: 'senha-secreta-1' });
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
    for (const route of ['login', 'register']) {
      const r = await api(srv.url, 'POST', `/api/auth/${route}`, { raw: form, headers: { 'content-type': type } });
      assert.equal(r.status, 415, `${route} with ${type}`);
      assert.equal(r.headers.get('set-cookie'), null);
    }
  }
  const ok = await api(srv.url, 'POST', '/api/auth/login', { raw: form, headers: { 'content-type': 'application/json; charset=utf-8' } });
  assert.equal(ok.status, 200);
  assert.doesNotMatch(ok.headers.get('set-cookie'), /Secure/, 'plain http site: no Secure');
});

test('with an https site URL the session cookie is Secure', async () => {
  const s = await startServer({ args: ['--site-url', 'https://praca.example'] });
  try {
    const r = await api(s.url, 'POST', '/api/auth/register', { body: { username: uniqueName(), password: 'senha-secreta-1' } });
    assert.equal(r.status, 201);
    assert.match(r.headers.get('set-cookie'), /; Secure/);
    const out = await api(s.url, 'POST', '/api/auth/logout', { token: r.body.token });
    assert.match(out.headers.get('set-cookie'), /Max-Age=0; Secure/);
  } finally { await s.stop(); }
});

test('the test clock route does not exist unless the server was started with --test-clock', async () => {
  const r = await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 1 } });
  assert.equal(r.status, 404);
});

// The stored hash of a person, read or written straight in the database beside the server.
function storedHash(userId, set) {
  const { spawnSync } = require('node:child_process');
  const [flag, target] = srv.storeArgs;
  const sql = set ? `UPDATE users SET password_hash = '${set}' WHERE id = '${userId}'` : `SELECT password_hash FROM users WHERE id = '${userId}'`;
  const r = flag === '--database-url'
    ? spawnSync('psql', [target, '-tAqc', sql], { encoding: 'utf8' })
    : spawnSync('/usr/bin/python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); r=c.execute(sys.argv[2]).fetchall(); c.commit(); print(r[0][0] if r else "")', target, sql], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('passwords are stored as Argon2id; one stored as scrypt still signs in, and is stored again as Argon2id', async () => {
  const u = await register(srv.url, uniqueName('hash'), 'segredo123');
  assert.match(storedHash(u.user.id), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  // A hash as an earlier Praça stored it (made by Node's scrypt, with the same N, r and p).
  storedHash(u.user.id, 'scrypt$32768$8$3$MDEyMzQ1Njc4OWFiY2RlZg$WNlLfO6D1VhYj21T2GxImxHCq_WoOdZQ623QTnb_DSs');
  const wrong = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'segredo124' } });
  assert.equal(wrong.status, 401);
  assert.match(storedHash(u.user.id), /^scrypt\$/, 'a wrong password changes nothing');
  const right = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'segredo123' } });
  assert.equal(right.status, 200);
  assert.match(storedHash(u.user.id), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  const again = await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'segredo123' } });
  assert.equal(again.status, 200);
});
