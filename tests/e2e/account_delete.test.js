// Deleting one's account: the password (and two-factor) first, servers one owns handed over
// first; then the person leaves every server, their applications go, they cannot sign in, their
// sockets close, and what they wrote stays under "Conta apagada". The name is free 30 days later.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, register, acquaint, appWithBot, gatewayConnect, totp, sharedServer } = require('./helpers');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100', '--test-clock'] }, sockets);
const erase = (who, body, headers) => api(srv.url, 'DELETE', '/api/users/@me', { token: who.token, body, headers });

test('an owner hands their servers over first; with two-factor on, the code too', async () => {
  const ana = await register(srv.url);
  const bia = await register(srv.url);
  const sid = await acquaint(srv.url, ana, bia);
  let r = await erase(ana, { password: ana.password });
  assert.equal(r.status, 409, r.text);
  assert.equal(r.body.error, 'Transfira ou apague antes os servidores de que você é dono');
  assert.deepEqual(r.body.servers, [{ id: sid, name: 'Em comum' }]);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}`, { token: ana.token })).status, 200);

  const start = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: ana.token });
  const on = await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: ana.token, body: { code: totp(start.body.secret) } });
  assert.equal(on.status, 200, on.text);
  r = await erase(ana, { password: ana.password });
  assert.deepEqual([r.status, r.body.error, r.body.mfaRequired], [401, 'Código de dois fatores obrigatório', true]);
  r = await erase(ana, { password: ana.password, code: '12345' });
  assert.deepEqual([r.status, r.body.error], [400, 'code: código inválido, expirado ou já usado']);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).status, 200, 'still there');
  r = await erase(ana, { password: ana.password, code: on.body.recoveryCodes[0] });
  assert.equal(r.status, 200, r.text);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).status, 401);
});

// Last: it moves the server's clock 30 days on.
test('an account is deleted after its password; its messages stay under "Conta apagada"; it cannot sign in again', async () => {
  const ana = await register(srv.url);
  const bia = await register(srv.url);
  const sid = await acquaint(srv.url, bia, ana); // Bia's server, Ana a member
  const cid = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: bia.token })).body.channels[0].id;
  const said = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'até logo' } });
  assert.equal(said.status, 200, said.text);
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: bia.token, body: { userId: ana.user.id } })).body.channel;
  await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: ana.token, body: { content: 'tchau, Bia' } });
  const app = await appWithBot(srv.url, ana, { name: 'Robô da Ana' });
  const socket = await gatewayConnect(srv.url, { auth: { token: ana.token } }, sockets);
  const closed = new Promise((resolve) => socket.on('disconnect', resolve));

  // Refusals first: nothing changes.
  let r = await erase(ana, {});
  assert.deepEqual([r.status, r.body.error], [400, 'password: obrigatório']);
  r = await erase(ana, { password: 'nao-e-esta' });
  assert.deepEqual([r.status, r.body.error], [400, 'password: senha incorreta']);
  const plain = await fetch(`${srv.url}/api/users/@me`, { method: 'DELETE', headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'text/plain' }, body: JSON.stringify({ password: ana.password }) });
  assert.equal(plain.status, 415);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).status, 200);

  r = await erase(ana, { password: ana.password });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { ok: true });
  await closed;
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).status, 401, 'every session is over');
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: ana.user.username, password: ana.password } })).status, 401);
  assert.equal((await api(srv.url, 'GET', '/api/bot/servers', { token: app.botToken })).status, 401, 'the application went');

  // Out of the server; the message stays, its author now "Conta apagada" to those who knew her.
  const members = (await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: bia.token })).body.members;
  assert.deepEqual(members.map((m) => m.userId), [bia.user.id]);
  const history = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${cid}/messages`, { token: bia.token })).body.messages;
  assert.ok(history.some((m) => m.id === said.body.message.id && m.fromId === ana.user.id));
  const dms = (await api(srv.url, 'GET', '/api/users/@me/dms', { token: bia.token })).body.dms;
  assert.deepEqual(((d) => [d.displayName, d.deleted])(dms.find((d) => d.id === dm.id)), ['Conta apagada', true]);
  const card = await api(srv.url, 'GET', `/api/users/${ana.user.id}/profile`, { token: bia.token });
  assert.deepEqual([card.status, card.body.user.displayName, card.body.user.about, card.body.user.avatarUrl, card.body.user.deleted], [200, 'Conta apagada', null, null, true]);
  const stranger = await register(srv.url);
  const seen = await api(srv.url, 'GET', `/api/users/${ana.user.id}/profile`, { token: stranger.token });
  assert.deepEqual([seen.status, seen.body.user.displayName], [200, 'Conta apagada'], 'anyone may read what is left of it');
  const sent = await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: bia.token, body: { content: 'ainda aí?' } });
  assert.deepEqual([sent.status, sent.body.error], [403, 'Esta conta foi apagada: ninguém lerá a mensagem']);

  // The name is held for 30 days, then free.
  const again = await api(srv.url, 'POST', '/api/auth/register', { body: { username: ana.user.username, password: 'outra-senha-1' } });
  assert.deepEqual([again.status, again.body.error], [409, 'username: já está em uso']);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 30 * 24 * 3600 * 1000 + 1 } });
  const taken = await api(srv.url, 'POST', '/api/auth/register', { body: { username: ana.user.username, password: 'outra-senha-1' } });
  assert.equal(taken.status, 201, taken.text);
  assert.notEqual(taken.body.user.id, ana.user.id, 'a new person, not the old account');
});
