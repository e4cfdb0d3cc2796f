// E-mail with --smtp-url, against a real SMTP server (Debian's python3-aiosmtpd): a person adds
// an address and confirms it with the code it receives; a forgotten password comes back by a
// link mailed to that address. The answer never says whether an address has an account, and
// both the address that asks and the account asked for are bounded.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, postFrom, eventually } = require('./helpers');
const { startSmtp } = require('./smtp');

let smtp;
let srv;
let plain;

test.before(async () => {
  smtp = await startSmtp();
  srv = await startServer({ args: ['--smtp-url', smtp.url, '--mail-from', 'praca@exemplo.org'] });
  plain = await startServer({});
});

test.after(async () => {
  for (const s of [srv, plain]) if (s) await s.stop();
  if (smtp) smtp.stop();
});

const messages = () => smtp.messages();
const nextMail = (after, to) => smtp.nextMail(after, to);

test('an address is confirmed by the code mailed to it; @me then shows it', async () => {
  const ana = await register(srv.url);
  const seen = messages().length;
  const put = await api(srv.url, 'PUT', '/api/users/@me/email', { token: ana.token, body: { email: ' Ana.Luz@Exemplo.ORG ', password: ana.password } });
  assert.equal(put.status, 202, put.text);
  assert.deepEqual(put.body, { ok: true, email: 'ana.luz@exemplo.org' });
  const m = await nextMail(seen, 'ana.luz@exemplo.org');
  assert.match(m, /From: praca@exemplo.org/);
  assert.match(m, /Subject: =\?UTF-8\?B\?/, 'a subject with "ó" encoded');
  const code = m.match(/\n {4}(\d{6})\r?\n/)[1];
  const wrong = await api(srv.url, 'POST', '/api/users/@me/email/verify', { token: ana.token, body: { code: code === '000000' ? '111111' : '000000' } });
  assert.deepEqual([wrong.status, wrong.body.error], [400, 'code: código errado']);
  const ok = await api(srv.url, 'POST', '/api/users/@me/email/verify', { token: ana.token, body: { code } });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual([ok.body.user.email, ok.body.user.canMail], ['ana.luz@exemplo.org', true]);
  const again = await api(srv.url, 'POST', '/api/users/@me/email/verify', { token: ana.token, body: { code } });
  assert.equal(again.status, 410, 'a code is used once');
  // Another account cannot take it; refusals.
  const bia = await register(srv.url);
  const taken = await api(srv.url, 'PUT', '/api/users/@me/email', { token: bia.token, body: { email: 'ana.luz@exemplo.org', password: bia.password } });
  assert.deepEqual([taken.status, taken.body.error], [409, 'email: já está em uso por outra conta']);
  const bad = await api(srv.url, 'PUT', '/api/users/@me/email', { token: bia.token, body: { email: 'bia@', password: bia.password } });
  assert.deepEqual([bad.status, bad.body.error], [400, 'email: não é um endereço de e-mail']);
  const wrongPw = await api(srv.url, 'PUT', '/api/users/@me/email', { token: bia.token, body: { email: 'bia@exemplo.org', password: 'outra-coisa' } });
  assert.deepEqual([wrongPw.status, wrongPw.body.error], [400, 'password: senha incorreta']);
  // Forgotten: no address any more.
  const gone = await api(srv.url, 'DELETE', '/api/users/@me/email', { token: ana.token });
  assert.equal(gone.body.user.email, null);
});

test('a forgotten password comes back by a mailed link; the answer is the same for an address nobody has', async () => {
  const ana = await register(srv.url);
  let seen = messages().length;
  await api(srv.url, 'PUT', '/api/users/@me/email', { token: ana.token, body: { email: `${ana.user.username}@exemplo.org`, password: ana.password } });
  const code = (await nextMail(seen, `${ana.user.username}@exemplo.org`)).match(/\n {4}(\d{6})\r?\n/)[1];
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/email/verify', { token: ana.token, body: { code } })).status, 200);

  seen = messages().length;
  const nobody = await api(srv.url, 'POST', '/api/auth/forgot-password', { body: { email: 'ninguem@exemplo.org' } });
  const asked = await api(srv.url, 'POST', '/api/auth/forgot-password', { body: { email: `${ana.user.username.toUpperCase()}@Exemplo.org` } });
  assert.deepEqual([nobody.status, nobody.body], [202, { ok: true }]);
  assert.deepEqual([asked.status, asked.body], [202, { ok: true }], 'the same answer');
  const m = await nextMail(seen, `${ana.user.username}@exemplo.org`);
  assert.equal(messages().slice(seen).length, 1, 'no mail for the address nobody has');
  const token = m.match(/\/reset#token=([A-Za-z0-9_-]{43})/)[1];
  const used = await api(srv.url, 'POST', '/api/auth/reset-password', { body: { token, newPassword: 'senha-nova-por-email' } });
  assert.equal(used.status, 200, used.text);
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: ana.user.username, password: 'senha-nova-por-email' } })).status, 200);

  // Three links an hour per account: the fourth ask is answered alike, and mails nothing.
  seen = messages().length;
  // (from another address: this one's own bound, five a minute, is tried below)
  for (let i = 0; i < 3; i++)
    assert.equal(await postFrom(srv.url, '127.0.0.11', '/api/auth/forgot-password', { email: `${ana.user.username}@exemplo.org` }), 202);
  await eventually(() => messages().length - seen === 2 || messages().length - seen, 10000, 'two more links (one was sent above)');
  assert.equal(await postFrom(srv.url, '127.0.0.11', '/api/auth/forgot-password', { email: 'ninguem@exemplo.org' }), 202);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(messages().length - seen, 2, 'past the bound, nothing more');
});

test('asks are bounded per address before anything is read; without --smtp-url nothing is mailed', async () => {
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push(await postFrom(srv.url, '127.0.0.9', '/api/auth/forgot-password', { email: `x${i}@exemplo.org` }));
  assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
  const cida = await register(plain.url);
  const me = await api(plain.url, 'GET', '/api/users/@me', { token: cida.token });
  assert.equal(me.body.user.canMail, false);
  for (const [p, body, token] of [['/api/users/@me/email', { email: 'c@exemplo.org', password: cida.password }, cida.token], ['/api/auth/forgot-password', { email: 'c@exemplo.org' }]]) {
    const r = await api(plain.url, p.includes('forgot') ? 'POST' : 'PUT', p, { token, body });
    assert.deepEqual([r.status, r.body.error], [409, 'Esta Praça não envia e-mails: peça a quem a administra']);
  }
});

test('a person whose verified address an import gave a placeholder finds it and claims it without a code', async () => {
  const path = require('node:path');
  const { spawnSync } = require('node:child_process');
  const owner = await register(srv.url), alice = await register(srv.url), other = await register(srv.url);
  const file = path.join(__dirname, 'fixtures', 'mattermost', 'export.jsonl');
  const r = spawnSync(require('./helpers').BIN, ['import', 'mattermost', file, '--server', 'Clube por e-mail', '--owner', owner.user.username, '--team', 'clube', ...srv.storeArgs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/imported', { token: alice.token })).body.placeholders, [], 'no verified address: nothing');
  const seen = messages().length;
  await api(srv.url, 'PUT', '/api/users/@me/email', { token: alice.token, body: { email: 'Alice@Example.com', password: alice.password } });
  const code = (await nextMail(seen, 'alice@example.com')).match(/\n {4}(\d{6})\r?\n/)[1];
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/email/verify', { token: alice.token, body: { code } })).status, 200);
  let mine;
  await eventually(async () => {
    mine = (await api(srv.url, 'GET', '/api/users/@me/imported', { token: alice.token })).body.placeholders;
    return mine.length === 1 || mine;
  }, 5000, 'the placeholder found by address');
  assert.deepEqual([mine[0].serverName, mine[0].displayName, mine[0].messages], ['Clube por e-mail', 'Alice', 4]);
  assert.equal((await api(srv.url, 'POST', `/api/users/@me/imported/${mine[0].userId}`, { token: other.token })).status, 404, 'another address takes nothing');
  const taken = await api(srv.url, 'POST', `/api/users/@me/imported/${mine[0].userId}`, { token: alice.token });
  assert.equal(taken.status, 200, taken.text);
  assert.deepEqual([taken.body.claim.serverId, taken.body.claim.messages, taken.body.claim.joined], [mine[0].serverId, 4, true]);
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/imported', { token: alice.token })).body.placeholders, []);
  const servers = (await api(srv.url, 'GET', '/api/servers', { token: alice.token })).body.servers;
  assert.ok(servers.some((s) => s.id === mine[0].serverId), 'she is in the server now');
  assert.equal((await api(srv.url, 'POST', `/api/users/@me/imported/${mine[0].userId}`, { token: alice.token })).status, 404, 'once');
});
