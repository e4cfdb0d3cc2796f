// People on the gateway: a page signed in with the HttpOnly cookie connects with a single-use
// ticket, and a person's connection receives the messages of the channels they can see.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, serverWithMembers, gatewayConnect } = require('./helpers');

const P = { VER_CANAL: 256 };
let srv;
const sockets = [];
test.before(async () => { srv = await startServer(); });
test.after(async () => {
  for (const s of sockets) s.close();
  const r = await srv.stop();
  assert.equal(r.code, 0, srv.stderr);
});

const ticketFor = (who) => api(srv.url, 'POST', '/api/gateway/ticket', { token: who.token });
const refusal = (auth) => gatewayConnect(srv.url, { auth }, sockets).then(() => null, (e) => e.message);
const next = (sock, name) => new Promise((resolve) => sock.once(name, resolve));

test('a ticket stands for the session once; used, unknown or of a session gone, it is refused', async () => {
  const ana = await register(srv.url);
  const t = await ticketFor(ana);
  assert.equal(t.status, 200, t.text);
  assert.match(t.body.ticket, /^[A-Za-z0-9_-]{43}$/);
  assert.ok(Date.parse(t.body.expiresAt) > Date.now());
  const sock = await gatewayConnect(srv.url, { auth: { ticket: t.body.ticket } }, sockets);
  assert.ok(sock.connected);
  assert.equal(await refusal({ ticket: t.body.ticket }), 'Ticket inválido', 'good once');
  assert.equal(await refusal({ ticket: 'x'.repeat(43) }), 'Ticket inválido');
  assert.equal(await refusal({ ticket: 42 }), 'Sem token', 'a ticket is a string');

  const later = await ticketFor(ana);
  assert.equal((await api(srv.url, 'POST', '/api/auth/logout', { token: ana.token })).status, 200);
  assert.equal(await refusal({ ticket: later.body.ticket }), 'Token inválido', 'the session it stood for is over');

  assert.equal((await api(srv.url, 'POST', '/api/gateway/ticket')).status, 401);
  const bia = await register(srv.url);
  for (let i = 0; i < 30; i++) assert.equal((await ticketFor(bia)).status, 200);
  const limited = await ticketFor(bia);
  assert.equal(limited.status, 429, '30 per minute');
});

test("a person's connection gets the messages of the channels they can see, live", async () => {
  const { owner, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const secret = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'diretoria' } })).body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${secret}/overwrites/${bia.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const t = await ticketFor(bia);
  const sock = await gatewayConnect(srv.url, { auth: { ticket: t.body.ticket } }, sockets);

  const created = next(sock, 'MESSAGE_CREATE');
  const sent = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${secret}/messages`, { token: owner.token, body: { content: 'só a diretoria' } });
  assert.equal(sent.status, 200);
  const visible = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: owner.token, body: { content: 'olá, Bia' } });
  const got = await created;
  assert.equal(got.content, 'olá, Bia', 'the hidden channel\'s message never came');
  assert.equal(got.id, visible.body.message.id);
  assert.equal(got.channelId, geral);

  const deleted = next(sock, 'MESSAGE_DELETE');
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/channels/${geral}/messages/${visible.body.message.id}`, { token: owner.token })).status, 200);
  assert.equal((await deleted).id, visible.body.message.id);
  assert.ok(!sock.received.some((e) => e.payload && e.payload.content === 'só a diretoria'));
});
