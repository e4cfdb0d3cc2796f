// What an operator runs next to a live server: praca admin (lists, revoking sessions) and
// praca backup, with a restore from the copy.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync, spawn } = require('node:child_process');
const { startServer, api, postFrom, register, serverWithMembers, appWithBot, install, gatewayConnect, eventually, BIN, POSTGRES, sharedServer, tempDir } = require('./helpers');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);

const praca = (...args) => spawnSync(BIN, [...args, ...srv.storeArgs], { encoding: 'utf8' });

test('admin people and apps list what exists, newest first, with sessions and installs', async () => {
  const w = await serverWithMembers(srv.url);
  const info = await appWithBot(srv.url, w.owner, { name: 'Lista de Apps' });
  await install(srv.url, w.owner, info, w.sid);
  await api(srv.url, 'POST', '/api/auth/login', { body: { username: w.owner.user.username, password: w.owner.password } });
  const people = praca('admin', 'people');
  assert.equal(people.status, 0, people.stderr);
  const header = people.stdout.split('\n')[0];
  assert.match(header, /^ID +USERNAME +CREATED +SESSIONS +2FA$/);
  const ownerLine = people.stdout.split('\n').find((l) => l.includes(w.owner.user.username));
  assert.match(ownerLine, new RegExp(`^${w.owner.user.id} +${w.owner.user.username} +\\S+Z +2 +no$`), 'two sessions: register and login');
  assert.ok(!people.stdout.includes(info.botUsername), 'bots are not people');
  const apps = praca('admin', 'apps');
  assert.equal(apps.status, 0, apps.stderr);
  const appLine = apps.stdout.split('\n').find((l) => l.startsWith(info.app.id));
  assert.match(appLine, new RegExp(`Lista de Apps +${w.owner.user.username} +\\S+Z +1 +active$`));
  const one = praca('admin', 'people', '--limit', '1');
  assert.equal(one.stdout.trim().split('\n').length, 2, 'a header and one row');
  for (const bad of [['admin', 'people', '--limit', '0'], ['admin', 'apps', 'extra'], ['admin', 'revoke-sessions'], ['admin', 'nope']]) {
    const r = praca(...bad);
    assert.equal(r.status, 2, bad.join(' '));
    assert.match(r.stderr, /^usage: praca admin/);
  }
});

test('admin reset-mfa turns a person\'s two-factor off: the password alone signs in again', async () => {
  const u = await register(srv.url);
  const { body: { secret } } = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: u.token });
  const { totp } = require('./helpers');
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: u.token, body: { code: totp(secret) } })).status, 200);
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } })).body.mfaRequired, true);
  const r = praca('admin', 'reset-mfa', u.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `two-factor of ${u.user.username} turned off; their recovery codes are gone\n`);
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } })).status, 200);
  const none = praca('admin', 'reset-mfa', 'ninguem_aqui');
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no person ninguem_aqui/);
  assert.equal(praca('admin', 'reset-mfa').status, 2);
});

test('admin revoke-sessions signs a person out of a running server, gateway included', async () => {
  const u = await register(srv.url);
  const bystander = await register(srv.url);
  const s = await gatewayConnect(srv.url, { auth: { token: u.token } }, sockets);
  const closed = new Promise((resolve) => s.on('disconnect', resolve));
  const r = praca('admin', 'revoke-sessions', u.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `1 sessions of ${u.user.username} revoked\n`);
  await eventually(async () => (await api(srv.url, 'GET', '/api/users/@me', { token: u.token })).status === 401,
    2500, 'the running server refuses the revoked session');
  assert.equal(await closed, 'io server disconnect');
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: bystander.token })).status, 200);
  const unknown = praca('admin', 'revoke-sessions', 'ninguem_mesmo');
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /no person ninguem_mesmo/);
});

test('backup while serving and writing; a server started on the copy has every acknowledged message', { skip: POSTGRES && 'copies an SQLite file' }, async () => {
  const w = await serverWithMembers(srv.url);
  const url = `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`;
  const sent = [];
  for (let i = 0; i < 20; i++) {
    const r = await api(srv.url, 'POST', url, { token: w.owner.token, body: { content: `antes ${i}` } });
    assert.equal(r.status, 200, r.text);
    sent.push(r.body.message.id);
  }
  // Writes go on during the copy; the copy is a consistent snapshot whatever it catches.
  let writing = true;
  const during = (async () => {
    let n = 0;
    while (writing) { await api(srv.url, 'POST', url, { token: w.owner.token, body: { content: `durante ${n++}` } }); }
  })();
  const out = path.join(srv.dir, 'copia.db');
  const run = await new Promise((resolve) => {
    const p = spawn(BIN, ['backup', out, '--data', srv.db]);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  writing = false;
  await during;
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `backup of ${srv.db} written to ${out} (mode 0600: it holds password and token hashes and two-factor secrets)\n`);
  assert.equal(fs.statSync(out).mode & 0o777, 0o600, 'readable by its owner only');
  assert.ok(!fs.existsSync(out + '.partial'));
  // Restore: a server on a fresh folder holding only the copy.
  const dir = tempDir('praca-restore-');
  fs.copyFileSync(out, path.join(dir, 'praca.db'));
  const restored = await startServer({ dir });
  try {
    const got = await api(restored.url, 'GET', `${url}?limit=100`, { token: w.owner.token });
    assert.equal(got.status, 200, got.text);
    const ids = new Set(got.body.messages.map((m) => m.id));
    for (const id of sent) assert.ok(ids.has(id), `message ${id} is in the copy`);
  } finally {
    const r = await restored.stop();
    assert.equal(r.code, 0, restored.stderr);
  }
  const missing = spawnSync(BIN, ['backup', out, '--data', path.join(dir, 'nada.db')], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /cannot read/);
  assert.equal(spawnSync(BIN, ['backup', '--data', srv.db]).status, 2, 'FILE is required');
});

test('a -wal file deleted while serving loses nothing acknowledged, even through kill -9', { skip: POSTGRES && 'an SQLite file' }, async () => {
  const s = await startServer();
  let restarted;
  try {
    const w = await serverWithMembers(s.url);
    const url = `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`;
    const first = await api(s.url, 'POST', url, { token: w.owner.token, body: { content: 'antes' } });
    assert.equal(first.status, 200);
    fs.unlinkSync(s.db + '-wal');
    const ids = [first.body.message.id];
    for (let i = 0; i < 8; i++) {
      const r = await api(s.url, 'POST', url, { token: w.owner.token, body: { content: `depois ${i}` } });
      assert.equal(r.status, 200, r.text);
      ids.push(r.body.message.id);
    }
    assert.match(s.stderr, /-wal was deleted or replaced while in use/);
    s.proc.kill('SIGKILL');
    await s.exited;
    restarted = await startServer({ dir: s.dir });
    const got = await api(restarted.url, 'GET', `${url}?limit=50`, { token: w.owner.token });
    assert.equal(got.status, 200, got.text);
    const have = new Set(got.body.messages.map((m) => m.id));
    for (const id of ids) assert.ok(have.has(id), `acknowledged message ${id} survived`);
  } finally {
    if (restarted) await restarted.stop();
    await s.stop();
  }
});

test('admin reset-password prints a one-time link: it sets a new password once, within the hour, and ends every session', async () => {
  const u = await register(srv.url);
  const linkOf = (r) => new URLSearchParams(r.stdout.trim().split('#')[1]).get('token');
  const r = praca('admin', 'reset-password', u.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^http:\/\/\S+\/reset#token=[A-Za-z0-9_-]{43}\n$/);
  assert.match(r.stderr, /valid once, for one hour/);
  const token = linkOf(r);
  const reset = (body) => api(srv.url, 'POST', '/api/auth/reset-password', { body });
  // Refusals: a short password, an unknown link, text/plain (a cross-site form).
  assert.deepEqual(((x) => [x.status, x.body.error])(await reset({ token, newPassword: 'curta' })), [400, 'newPassword: deve ter entre 8 e 128 caracteres']);
  assert.deepEqual(((x) => [x.status, x.body.error])(await reset({ token: 'x'.repeat(43), newPassword: 'nova-senha-1' })), [404, 'Link de redefinição inválido']);
  const plain = await fetch(`${srv.url}/api/auth/reset-password`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ token, newPassword: 'nova-senha-1' }) });
  assert.equal(plain.status, 415);
  // Used: the new password signs in, the old does not, the old session is over; a second use is 410.
  const used = await reset({ token, newPassword: 'nova-senha-1' });
  assert.equal(used.status, 200, used.text);
  assert.equal(used.body.revoked, 1);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: u.token })).status, 401);
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } })).status, 401);
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'nova-senha-1' } })).status, 200);
  assert.deepEqual(((x) => [x.status, x.body.error])(await reset({ token, newPassword: 'outra-senha-2' })), [410, 'Este link já foi usado ou expirou']);
  // Bots and nobody get no link.
  const none = praca('admin', 'reset-password', 'ninguem_aqui');
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no person ninguem_aqui/);
  assert.equal(praca('admin', 'reset-password').status, 2);
});

test('a reset link past its hour is 410', async () => {
  const clocked = await startServer({ args: ['--test-clock'] });
  try {
    const u = await register(clocked.url);
    const r = spawnSync(BIN, ['admin', 'reset-password', u.user.username, ...clocked.storeArgs], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const token = new URLSearchParams(r.stdout.trim().split('#')[1]).get('token');
    await api(clocked.url, 'POST', '/api/test/clock', { body: { advanceMs: 3600_001 } });
    const late = await api(clocked.url, 'POST', '/api/auth/reset-password', { body: { token, newPassword: 'nova-senha-1' } });
    assert.deepEqual([late.status, late.body.error], [410, 'Este link já foi usado ou expirou']);
    assert.equal((await api(clocked.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: u.password } })).status, 200, 'the password is unchanged');
  } finally {
    await clocked.stop();
  }
});

test('reset attempts are bounded per address before anyone signs in: the eleventh in a minute is 429', async () => {
  const capped = await startServer();
  try {
    // From an address no other test uses: with several nodes, every test's servers share one
    // Redis, and so the windows of an address.
    const tries = [];
    for (let i = 0; i < 11; i++)
      tries.push(await postFrom(capped.url, '127.0.0.7', '/api/auth/reset-password', { token: `t${i}`.padEnd(43, 'x'), newPassword: 'nova-senha-1' }));
    assert.deepEqual(tries, [...Array(10).fill(404), 429]);
  } finally {
    await capped.stop();
  }
});
