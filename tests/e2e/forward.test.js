// Forwarding: a message one can read, posted as a copy into a channel of another server or a
// conversation; the copy keeps the original's text, author and place (pinging nobody), its files
// become the new message's own (readable where the copy is), it outlives the original, a forward
// of a forward copies the original, and whatever else a send carries is refused beside it.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, upload, register, serverWithMembers, acquaint, gatewayConnect, nextEvent } = require('./helpers');
const { png } = require('./gif');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);

// Ana is in both servers; Caio only in the second.
async function world() {
  const a = await serverWithMembers(srv.url, 1);
  const [ana] = a.members;
  const b = await serverWithMembers(srv.url, 1);
  const [caio] = b.members;
  const invite = await api(srv.url, 'POST', `/api/servers/${b.sid}/invites`, { token: b.owner.token, body: {} });
  await api(srv.url, 'POST', `/api/invites/${invite.body.code}/join`, { token: ana.token });
  const from = `/api/servers/${a.sid}/channels/${a.server.channels[0].id}/messages`;
  const to = `/api/servers/${b.sid}/channels/${b.server.channels[0].id}/messages`;
  return { a, b, ana, caio, from, to };
}

test('a message forwarded to another server: a copy with its author and place, pinging nobody, told to the room', async () => {
  const w = await world();
  const original = (await api(srv.url, 'POST', w.from, { token: w.a.owner.token, body: { content: `@everyone olá @${w.ana.user.username}, a reunião mudou para as 15h` } })).body.message;
  assert.ok(original.mentionsEveryone || original.mentions.length, 'the original mentions');
  const page = await gatewayConnect(srv.url, { auth: { ticket: (await api(srv.url, 'POST', '/api/gateway/ticket', { token: w.caio.token })).body.ticket } }, sockets);
  const told = nextEvent(page, 'MESSAGE_CREATE');
  const sent = await api(srv.url, 'POST', w.to, { token: w.ana.token, body: { forward: { messageId: original.id } } });
  assert.equal(sent.status, 200, sent.text);
  const m = sent.body.message;
  assert.equal(m.content, '');
  assert.deepEqual(m.mentions, []);
  assert.equal(m.mentionsEveryone, false, 'a forwarded @everyone pings nobody');
  assert.equal(m.fromId, w.ana.user.id);
  const f = m.forwarded;
  assert.equal(f.messageId, original.id);
  assert.equal(f.serverId, w.a.sid);
  assert.equal(f.channelId, w.a.server.channels[0].id);
  assert.equal(f.threadId, null);
  assert.equal(f.fromId, w.a.owner.user.id);
  assert.equal(f.authorName, w.a.owner.user.displayName || w.a.owner.user.username);
  assert.equal(f.content, original.content);
  assert.equal(f.createdAt, original.createdAt);
  assert.deepEqual((await told).forwarded, f, 'the room hears it with its copy');
  // History shows it alike; the original's edit and deletion leave the copy as it was.
  await api(srv.url, 'PATCH', `${w.from}/${original.id}`, { token: w.a.owner.token, body: { content: 'mudou de novo' } });
  await api(srv.url, 'DELETE', `${w.from}/${original.id}`, { token: w.a.owner.token });
  const read = (await api(srv.url, 'GET', w.to, { token: w.caio.token })).body.messages.find((x) => x.id === m.id);
  assert.deepEqual(read.forwarded, f);
  const plain = (await api(srv.url, 'POST', w.to, { token: w.caio.token, body: { content: 'oi' } })).body.message;
  assert.equal(plain.forwarded, null);
});

test('its files are the copy\'s own: readable where it is, while the original\'s stay closed', async () => {
  const w = await world();
  const original = await upload(srv.url, 'POST', w.from, w.a.owner.token, { content: 'o mapa' }, [{ name: 'mapa.png', type: 'image/png', data: png(8, 8) }]);
  assert.equal(original.status, 200, original.text);
  const file = original.body.message.attachments[0];
  const sent = await api(srv.url, 'POST', w.to, { token: w.ana.token, body: { forward: { messageId: original.body.message.id } } });
  assert.equal(sent.status, 200, sent.text);
  const [copy] = sent.body.message.attachments;
  assert.notEqual(copy.id, file.id, 'a row of its own');
  assert.equal(copy.filename, 'mapa.png');
  assert.equal(copy.size, file.size);
  const get = (url, who) => fetch(url, { headers: { authorization: `Bearer ${who.token}` } });
  const mine = await get(copy.url, w.caio);
  assert.equal(mine.status, 200);
  assert.deepEqual(Buffer.from(await mine.arrayBuffer()), Buffer.from(await (await get(file.url, w.ana)).arrayBuffer()), 'the same bytes');
  assert.notEqual((await get(file.url, w.caio)).status, 200, 'the original\'s file stays with its channel');
  // The original goes: the copy's file stays (its blob is still named by the copy).
  await api(srv.url, 'DELETE', `${w.from}/${original.body.message.id}`, { token: w.a.owner.token });
  assert.equal((await get(copy.url, w.caio)).status, 200);
});

test('into a conversation; a forward of a forward copies the original', async () => {
  const w = await world();
  const original = (await api(srv.url, 'POST', w.from, { token: w.a.owner.token, body: { content: 'leiam isto' } })).body.message;
  const first = (await api(srv.url, 'POST', w.to, { token: w.ana.token, body: { forward: { messageId: original.id } } })).body.message;
  await acquaint(srv.url, w.caio, w.ana);
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: w.caio.token, body: { userId: w.ana.user.id } })).body.channel;
  const again = await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: w.caio.token, body: { forward: { messageId: first.id } } });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body.message.forwarded, first.forwarded, 'the original, not the forward');
  const inDm = (await api(srv.url, 'GET', `/api/dms/${dm.id}/messages`, { token: w.ana.token })).body.messages.at(-1);
  assert.equal(inDm.forwarded.content, 'leiam isto');
});

test('refused: what one cannot read, a poll, anything beside it, a room one cannot send in', async () => {
  const w = await world();
  const original = (await api(srv.url, 'POST', w.from, { token: w.a.owner.token, body: { content: 'só do servidor A' } })).body.message;
  const send = (who, body, to = w.to) => api(srv.url, 'POST', to, { token: who.token, body });
  const notHis = await send(w.caio, { forward: { messageId: original.id } });
  assert.equal(notHis.status, 400, notHis.text);
  assert.equal(notHis.body.error, 'forward.messageId: mensagem não encontrada', 'nothing said of a message he cannot read');
  assert.equal((await send(w.ana, { forward: { messageId: '01a1fe3b-0000-7000-8000-000000000000' } })).body.error, 'forward.messageId: mensagem não encontrada');
  for (const forward of ['x', { messageId: 'nao-e-id' }, { messageId: 7 }]) {
    const r = await send(w.ana, { forward });
    assert.equal(r.status, 400, JSON.stringify(forward));
    assert.equal(r.body.error, 'forward.messageId: deve ser o ID de uma mensagem');
  }
  for (const extra of [{ content: 'veja' }, { replyToId: original.id }, { poll: { question: 'Q', answers: [{ text: 'a' }, { text: 'b' }] } }]) {
    const r = await send(w.ana, { forward: { messageId: original.id }, ...extra });
    assert.equal(r.status, 400, JSON.stringify(extra));
    assert.match(r.body.error, /^forward: uma mensagem encaminhada vai sozinha/);
  }
  const poll = (await send(w.a.owner, { poll: { question: 'Q', answers: [{ text: 'a' }, { text: 'b' }] } }, w.from)).body.message;
  assert.equal((await send(w.ana, { forward: { messageId: poll.id } })).body.error, 'forward.messageId: enquetes não podem ser encaminhadas');
  // The room's own rules hold: no ENVIAR_MENSAGENS, no forward.
  const cid = w.b.server.channels[0].id;
  await api(srv.url, 'PUT', `/api/servers/${w.b.sid}/channels/${cid}/overwrites/${w.ana.user.id}`, { token: w.b.owner.token, body: { type: 'member', deny: P.ENVIAR_MENSAGENS } });
  assert.equal((await send(w.ana, { forward: { messageId: original.id } })).status, 403);
  const stranger = await register(srv.url);
  assert.equal((await send(stranger, { forward: { messageId: original.id } })).status, 404, 'not in the room\'s server');
});
