// Typing indicators: TYPING_START goes live to the pages that show the room (channel:view) of
// people who can see it, only from someone who could send there; bots never get it, and nothing
// of it is logged.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, register, serverWithMembers, gatewayConnect, appWithBot, install, quiet, nextEvent, sharedServer, acquaint } = require('./helpers');

const { P } = require('./permissions');
const sockets = [];
const srv = sharedServer({}, sockets);

// A page of `who`, showing room `view` (a channel or thread ID; none when omitted).
const person = async (who, view) => {
  const t = await api(srv.url, 'POST', '/api/gateway/ticket', { token: who.token });
  const s = await gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
  if (view) assert.deepEqual(await s.emitWithAck('channel:view', { channelId: view }), { ok: true });
  return s;
};
const typed = (who, sid, cid) => api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/typing`, { token: who.token });
const typings = (s) => s.received.filter((e) => e.name === 'TYPING_START').map((e) => e.payload);

test('TYPING_START reaches the pages showing the channel of people who can see it, not bots nor those kept out nor other rooms', async () => {
  const { owner, sid, server, members: [bia, caio] } = await serverWithMembers(srv.url, 2);
  const cid = server.channels[0].id;
  const info = await appWithBot(srv.url, owner, { intents: ['messages.read'] });
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${caio.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } })).status, 200);
  const [ownerSock, biaSock, caioSock] = [await person(owner, cid), await person(bia, cid), await person(caio, cid)];
  const other = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'outro' } });
  const biaElsewhere = await person(bia, other.body.channel.id);
  const biaNowhere = await person(bia);

  const arrived = nextEvent(biaSock, 'TYPING_START');
  const toOwner = nextEvent(ownerSock, 'TYPING_START');
  const r = await typed(owner, sid, cid);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, { ok: true });
  const t = await arrived;
  assert.deepEqual(Object.keys(t).sort(), ['at', 'channelId', 'serverId', 'threadId', 'userId']);
  assert.deepEqual({ ...t, at: 0 }, { serverId: sid, channelId: cid, threadId: null, userId: owner.user.id, at: 0 });
  assert.ok(Math.abs(t.at - Date.now()) < 60000, 'at is the time in ms');
  await toOwner; // the typist's own pages are told too (they ignore it)
  await quiet(); // and nobody else
  assert.deepEqual(typings(caioSock), [], 'who cannot see the channel is not told');
  assert.deepEqual(typings(bot), [], 'bots get no typing');
  assert.equal(typings(ownerSock).length, 1, "the typist's own pages are told too (they ignore it)");
  assert.deepEqual(typings(biaElsewhere), [], 'a page showing another channel is not told');
  assert.deepEqual(typings(biaNowhere), [], 'nor one that said what it shows');
  // A page that moves to the channel is told from then on; one that leaves it is not.
  assert.deepEqual(await biaElsewhere.emitWithAck('channel:view', { channelId: cid }), { ok: true });
  assert.deepEqual(await biaSock.emitWithAck('channel:view', { channelId: null }), { ok: true });
  const moved = nextEvent(biaElsewhere, 'TYPING_START');
  assert.equal((await typed(owner, sid, cid)).status, 200);
  await moved;
  await quiet();
  assert.equal(typings(biaSock).length, 1, 'the page that left the channel got only the first');

  // Nothing of it is in the event log.
  const logged = await api(srv.url, 'GET', '/api/bot/events?after=0', { token: info.botToken });
  assert.ok(!logged.body.events.some((e) => e.type === 'TYPING_START'));
});

test('only where one could send: 404 out of sight, 403 without ENVIAR_MENSAGENS or in timeout, 400 in a forum or voice channel, 401 without a session', async () => {
  const { owner, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const stranger = await register(srv.url);
  assert.equal((await typed(stranger, sid, cid)).status, 404, 'not a member');
  assert.equal((await typed(bia, sid, '01a1fe3b-0000-7000-8000-000000000000')).status, 404, 'no such channel');
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/typing`)).status, 401);

  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${bia.user.id}`, { token: owner.token, body: { type: 'member', deny: P.ENVIAR_MENSAGENS } });
  const mute = await typed(bia, sid, cid);
  assert.equal(mute.status, 403, mute.text);
  await api(srv.url, 'DELETE', `/api/servers/${sid}/channels/${cid}/overwrites/${bia.user.id}`, { token: owner.token });
  assert.equal((await typed(bia, sid, cid)).status, 200, 'allowed again');

  const until = new Date(Date.now() + 600000).toISOString();
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${bia.user.id}`, { token: owner.token, body: { timeoutUntil: until } })).status, 200);
  assert.equal((await typed(bia, sid, cid)).status, 403, 'in timeout');

  for (const type of ['forum', 'voice']) {
    const ch = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: type, type } });
    assert.equal(ch.status, 201, ch.text);
    const r = await typed(owner, sid, ch.body.channel.id);
    assert.equal(r.status, 400, `${type}: ${r.text}`);
  }
});

test('in a thread: the parent channel and the thread, to those who see the parent', async () => {
  const { owner, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const msg = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content: 'assunto' } });
  const thread = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages/${msg.body.message.id}/threads`, { token: owner.token, body: { name: 'fio' } });
  assert.equal(thread.status, 201, thread.text);
  const biaSock = await person(bia, thread.body.channel.id);
  const biaInParent = await person(bia, cid);
  const arrived = nextEvent(biaSock, 'TYPING_START');
  assert.equal((await typed(owner, sid, thread.body.channel.id)).status, 200);
  const t = await arrived;
  assert.equal(t.channelId, cid);
  assert.equal(t.threadId, thread.body.channel.id);
  await quiet();
  assert.deepEqual(typings(biaInParent), [], 'a page showing the parent channel is not told of the thread');
});

test('channel:view: an object with channelId, a UUID or null; anything else is refused and changes nothing', async () => {
  const { owner, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const s = await person(bia, cid);
  for (const [payload, error] of [
    ['x', 'payload: deve ser um objeto'],
    [{}, 'channelId: obrigatório'],
    [{ channelId: 7 }, 'channelId: deve ser um texto ou null'],
    [{ channelId: 'geral' }, 'channelId: deve ser um UUID'],
  ]) assert.deepEqual(await s.emitWithAck('channel:view', payload), { error }, JSON.stringify(payload));
  const arrived = nextEvent(s, 'TYPING_START');
  assert.equal((await typed(owner, sid, cid)).status, 200);
  assert.equal((await arrived).channelId, cid, 'still showing the channel');
});

test('ten in ten seconds, then 429', async () => {
  const { owner, sid, server } = await serverWithMembers(srv.url, 0);
  const cid = server.channels[0].id;
  for (let i = 0; i < 10; i++) assert.equal((await typed(owner, sid, cid)).status, 200, `typing ${i + 1}`);
  const over = await typed(owner, sid, cid);
  assert.equal(over.status, 429);
  assert.ok(over.body.retryAfterMs > 0);
});

test('in a DM: to the two of them only; a stranger 404, a bot 403', async () => {
  const [ana, bia, caio] = [await register(srv.url), await register(srv.url), await register(srv.url)];
  await acquaint(srv.url, ana, bia, caio);
  const dm = await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: bia.user.id } });
  const dmId = dm.body.channel.id;
  const [biaSock, caioSock] = [await person(bia), await person(caio)];
  const arrived = nextEvent(biaSock, 'TYPING_START');
  const r = await api(srv.url, 'POST', `/api/dms/${dmId}/typing`, { token: ana.token });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual({ ...(await arrived), at: 0 }, { serverId: null, channelId: dmId, threadId: null, userId: ana.user.id, at: 0 });
  await quiet();
  assert.deepEqual(typings(caioSock), []);
  assert.equal((await api(srv.url, 'POST', `/api/dms/${dmId}/typing`, { token: caio.token })).status, 404);
  const info = await appWithBot(srv.url, ana);
  assert.equal((await api(srv.url, 'POST', `/api/dms/${dmId}/typing`, { token: info.botToken })).status, 403);
});
