// Group conversations: up to 10 people, named, added to by anyone in them, left by anyone,
// others removed only by the owner; sends, edits, reactions, files and pins as a pair's, live to
// everyone in the group and to nobody else.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, register, serverWithMembers, acquaint, gatewayConnect, nextEvent, quiet, sharedServer, upload, appWithBot, install } = require('./helpers');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);
const call = (who, method, path, body) => api(srv.url, method, path, { token: who.token, body });
const refused = (r) => [r.status, r.body.error];

const person = async (who) => {
  const t = await call(who, 'POST', '/api/gateway/ticket');
  return gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
};

test('a group of ten: made, listed for each, the eleventh refused; everyone in it gets its messages live, nobody else', async () => {
  const { owner: ana, members } = await serverWithMembers(srv.url, 10);
  const nine = members.slice(0, 9);
  const eleventh = members[9];
  const outsider = await register(srv.url);
  const tooMany = await call(ana, 'POST', '/api/users/@me/dms', { userIds: members.map((m) => m.user.id) });
  assert.deepEqual(refused(tooMany), [400, 'userIds: de 1 a 9 pessoas além de você']);
  const made = await call(ana, 'POST', '/api/users/@me/dms', { userIds: nine.map((m) => m.user.id), name: 'Amigos' });
  assert.equal(made.status, 200, made.text);
  const g = made.body.channel;
  assert.deepEqual([g.type, g.name, g.ownerId, g.recipientIds.length], ['dm', 'Amigos', ana.user.id, 10]);
  assert.equal(g.recipientIds[0], ana.user.id, 'in the order they joined');
  // Each of them lists it, with the others in it.
  const listed = (await call(nine[4], 'GET', '/api/users/@me/dms')).body.dms.find((d) => d.id === g.id);
  assert.equal(listed.group, true);
  assert.equal(listed.name, 'Amigos');
  assert.equal(listed.ownerId, ana.user.id);
  assert.equal(listed.people.length, 9);
  assert.ok(!listed.people.some((p) => p.id === nine[4].user.id), 'the others, not oneself');
  assert.ok(listed.people.every((p) => p.username && 'avatarUrl' in p));
  assert.equal(listed.userId, undefined, "a pair's fields are not a group's");
  // The eleventh is refused, by anyone in the group.
  const full = await call(nine[0], 'PUT', `/api/dms/${g.id}/members/${eleventh.user.id}`);
  assert.deepEqual(refused(full), [400, 'channelId: um grupo tem no máximo 10 pessoas']);
  // Live: everyone in the group, nobody outside it.
  const [s1, s9, sOut] = [await person(nine[0]), await person(nine[8]), await person(eleventh)];
  const e1 = nextEvent(s1, 'MESSAGE_CREATE');
  const e9 = nextEvent(s9, 'MESSAGE_CREATE');
  const sent = await call(ana, 'POST', `/api/dms/${g.id}/messages`, { content: 'oi, grupo' });
  assert.equal(sent.status, 200, sent.text);
  assert.equal((await e1).content, 'oi, grupo');
  assert.equal((await e9).channelId, g.id);
  await quiet();
  assert.equal(sOut.received.filter((e) => e.name === 'MESSAGE_CREATE').length, 0, 'not to someone outside');
  assert.equal((await call(outsider, 'GET', `/api/dms/${g.id}/messages`)).status, 404);
  assert.equal((await call(eleventh, 'POST', `/api/dms/${g.id}/messages`, { content: 'eu?' })).status, 404);
  // Edits, reactions, pins and files, as a pair's.
  const mid = sent.body.message.id;
  const edited = nextEvent(s9, 'MESSAGE_UPDATE');
  assert.equal((await call(ana, 'PATCH', `/api/dms/${g.id}/messages/${mid}`, { content: 'oi, pessoal' })).status, 200);
  assert.equal((await edited).content, 'oi, pessoal');
  const reacted = nextEvent(s1, 'MESSAGE_REACTIONS_UPDATE');
  assert.equal((await call(nine[8], 'POST', `/api/dms/${g.id}/messages/${mid}/react`, { emoji: '🎉' })).status, 200);
  assert.equal((await reacted).emoji, '🎉');
  assert.equal((await call(nine[3], 'POST', `/api/dms/${g.id}/messages/${mid}/pin`)).status, 200);
  assert.deepEqual((await call(nine[5], 'GET', `/api/dms/${g.id}/pins`)).body.messages.map((m) => m.id), [mid]);
  const file = await upload(srv.url, 'POST', `/api/dms/${g.id}/messages`, nine[2].token, { content: 'segue' }, [{ name: 'n.txt', data: Buffer.from('oi') }]);
  assert.equal(file.status, 200, file.text);
  const fileUrl = new URL(file.body.message.attachments[0].url);
  assert.equal((await api(srv.url, 'GET', fileUrl.pathname, { token: nine[7].token })).status, 200);
  assert.equal((await api(srv.url, 'GET', fileUrl.pathname, { token: outsider.token })).status, 404);
  const others = (await call(nine[1], 'GET', `/api/dms/${g.id}/messages`)).body.messages;
  assert.deepEqual(others.map((m) => m.content), ['oi, pessoal', 'segue']);
});

test('named by anyone in it, a name as a person\'s is; a pair\'s conversation has no name to change', async () => {
  const { owner: ana, members: [bia, caio] } = await serverWithMembers(srv.url, 2);
  const g = (await call(ana, 'POST', '/api/users/@me/dms', { userIds: [bia.user.id, caio.user.id] })).body.channel;
  assert.equal(g.name, '', 'unnamed: the page names it by its people');
  const sAna = await person(ana);
  const told = nextEvent(sAna, 'DM_UPDATE');
  const r = await call(bia, 'PATCH', `/api/dms/${g.id}`, { name: '  Viagem  ' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.channel.name, 'Viagem');
  assert.equal((await told).channel.name, 'Viagem');
  assert.deepEqual(refused(await call(bia, 'PATCH', `/api/dms/${g.id}`, { name: 'a\u202Eb' })),
    [400, 'name: não pode ter caracteres de controle ou de formatação']);
  assert.equal((await call(bia, 'PATCH', `/api/dms/${g.id}`, { name: 'x'.repeat(101) })).status, 400);
  const pair = (await call(ana, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
  assert.deepEqual(refused(await call(ana, 'PATCH', `/api/dms/${pair.id}`, { name: 'nós' })),
    [400, 'channelId: uma conversa a dois não tem nome nem pessoas a mudar']);
  assert.equal((await call(ana, 'PUT', `/api/dms/${pair.id}/members/${caio.user.id}`)).status, 400);
  const outsider = await register(srv.url);
  assert.equal((await call(outsider, 'PATCH', `/api/dms/${g.id}`, { name: 'meu' })).status, 404);
});

test('made and added to only with people one shares a server with, who are people, and whom no block separates', async () => {
  const { owner: ana, sid, members: [bia, caio] } = await serverWithMembers(srv.url, 2);
  const stranger = await register(srv.url);
  await install(srv.url, ana, await appWithBot(srv.url, ana), sid);
  const bot = (await call(ana, 'GET', `/api/servers/${sid}/members`)).body.members.find((m) => m.user.isBot);
  const words = 'Só é possível chamar para um grupo quem está em um servidor em comum com você';
  assert.deepEqual(refused(await call(ana, 'POST', '/api/users/@me/dms', { userIds: [bia.user.id, stranger.user.id] })), [403, words]);
  assert.deepEqual(refused(await call(ana, 'POST', '/api/users/@me/dms', { userIds: [bot.userId] })), [403, 'Bots não recebem mensagens diretas']);
  for (const [body, error] of [
    [{ userIds: [] }, 'userIds: de 1 a 9 pessoas além de você'],
    [{ userIds: 'x' }, 'userIds: de 1 a 9 pessoas além de você'],
    [{ userIds: [bia.user.id, bia.user.id] }, 'userIds: uma pessoa aparece duas vezes'],
    [{ userIds: [ana.user.id] }, 'userIds: você já está no grupo'],
    [{ userIds: ['nada'] }, 'userIds: cada item é o ID de uma pessoa'],
    [{ userIds: [bia.user.id], userId: bia.user.id }, 'userId: use userId para uma conversa a dois, ou userIds para um grupo'],
  ]) assert.deepEqual(refused(await call(ana, 'POST', '/api/users/@me/dms', body)), [400, error], JSON.stringify(body));
  const g = (await call(ana, 'POST', '/api/users/@me/dms', { userIds: [bia.user.id] })).body.channel;
  assert.deepEqual(refused(await call(bia, 'PUT', `/api/dms/${g.id}/members/${stranger.user.id}`)), [403, words]);
  // Caio blocked Bia: Bia cannot bring him; Ana can, and then the three talk (a block in a
  // group collapses messages on the blocker's page, it stops nobody).
  assert.equal((await call(caio, 'PUT', `/api/users/@me/blocks/${bia.user.id}`)).status, 200);
  assert.deepEqual(refused(await call(bia, 'PUT', `/api/dms/${g.id}/members/${caio.user.id}`)), [403, 'Vocês não podem conversar: um de vocês bloqueou o outro']);
  const added = await call(ana, 'PUT', `/api/dms/${g.id}/members/${caio.user.id}`);
  assert.equal(added.status, 200, added.text);
  assert.deepEqual(added.body.channel.recipientIds, [ana.user.id, bia.user.id, caio.user.id]);
  assert.equal((await call(ana, 'PUT', `/api/dms/${g.id}/members/${caio.user.id}`)).status, 200, 'twice is once');
  assert.equal((await call(bia, 'POST', `/api/dms/${g.id}/messages`, { content: 'oi' })).status, 200);
  assert.equal((await call(caio, 'POST', `/api/dms/${g.id}/messages`, { content: 'oi' })).status, 200);
});

test('anyone leaves; only the owner removes another; an owner who leaves hands the group on', async () => {
  const { owner: ana, members: [bia, caio, duda] } = await serverWithMembers(srv.url, 3);
  const g = (await call(ana, 'POST', '/api/users/@me/dms', { userIds: [bia.user.id, caio.user.id, duda.user.id] })).body.channel;
  assert.deepEqual(refused(await call(bia, 'DELETE', `/api/dms/${g.id}/members/${caio.user.id}`)), [403, 'Só quem é dono do grupo tira outra pessoa dele']);
  const [sCaio, sBia] = [await person(caio), await person(bia)];
  const removed = nextEvent(sCaio, 'DM_REMOVE');
  const update = nextEvent(sBia, 'DM_UPDATE');
  const r = await call(ana, 'DELETE', `/api/dms/${g.id}/members/${caio.user.id}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await removed, { channelId: g.id });
  assert.deepEqual((await update).channel.recipientIds, [ana.user.id, bia.user.id, duda.user.id]);
  assert.equal((await call(caio, 'GET', `/api/dms/${g.id}/messages`)).status, 404, 'out is out');
  assert.ok(!(await call(caio, 'GET', '/api/users/@me/dms')).body.dms.some((d) => d.id === g.id));
  assert.deepEqual(refused(await call(ana, 'DELETE', `/api/dms/${g.id}/members/${caio.user.id}`)), [404, 'Esta pessoa não está no grupo']);
  // Ana leaves: Bia, there longest after her, owns it now.
  const left = nextEvent(sBia, 'DM_UPDATE');
  assert.equal((await call(ana, 'DELETE', `/api/dms/${g.id}/members/@me`)).status, 200);
  const after = (await left).channel;
  assert.equal(after.ownerId, bia.user.id);
  assert.deepEqual(after.recipientIds, [bia.user.id, duda.user.id]);
  assert.equal((await call(bia, 'DELETE', `/api/dms/${g.id}/members/${duda.user.id}`)).status, 200, 'the new owner removes');
  assert.equal((await call(ana, 'POST', `/api/dms/${g.id}/messages`, { content: 'voltei?' })).status, 404);
});

test('a deleted account leaves its groups, and a group it owned passes on', async () => {
  const { owner: ana, members: [bia, caio] } = await serverWithMembers(srv.url, 2);
  const dana = await register(srv.url);
  await acquaint(srv.url, bia, dana, caio); // Bia's server: Dana owns none
  const g = (await call(dana, 'POST', '/api/users/@me/dms', { userIds: [bia.user.id, caio.user.id] })).body.channel;
  assert.equal((await call(dana, 'POST', `/api/dms/${g.id}/messages`, { content: 'tchau' })).status, 200);
  assert.equal((await call(dana, 'DELETE', '/api/users/@me', { password: 'senha-secreta-1' })).status, 200);
  const listed = (await call(bia, 'GET', '/api/users/@me/dms')).body.dms.find((d) => d.id === g.id);
  assert.deepEqual(listed.people.map((p) => p.id), [caio.user.id]);
  assert.equal(listed.ownerId, bia.user.id);
  assert.equal((await call(caio, 'POST', `/api/dms/${g.id}/messages`, { content: 'ainda aqui' })).status, 200, 'the others still talk');
  assert.equal((await call(bia, 'GET', `/api/dms/${g.id}/messages`)).body.messages.length, 2, 'what it said stays');
  void ana;
});
