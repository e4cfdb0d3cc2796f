// People on the gateway: a page signed in with the HttpOnly cookie connects with a single-use
// ticket, and a person's connection receives the messages of the channels they can see.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, serverWithMembers, gatewayConnect, appWithBot, install, eventually, sharedServer, NODES } = require('./helpers');

const { P } = require('./permissions');
const sockets = [];
const srv = sharedServer({}, sockets);

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
  const held = [];
  for (let i = 0; i < 8; i++) held.push((await ticketFor(bia)).body.ticket);
  let asked = 8;
  if (NODES < 2) { // kept in this node's memory: 8 outstanding per account (in Redis they only lapse)
    const over = await ticketFor(bia);
    asked++;
    assert.equal(over.status, 429);
    assert.equal(over.body.error, 'Tickets demais em aberto para esta conta (no máximo 8); use os que já tem ou espere um minuto');
  }
  for (; asked < 30; asked++) { // each one used makes room; the rate is still 30 a minute
    (await gatewayConnect(srv.url, { auth: { ticket: held.pop() } }, sockets)).disconnect();
    const t = await ticketFor(bia);
    assert.equal(t.status, 200, t.text);
    held.push(t.body.ticket);
  }
  const limited = await ticketFor(bia);
  assert.equal(limited.status, 429, '30 per minute');
  assert.ok(limited.body.retryAfterMs > 0);
});

test("a person's connection resumes too: a drop, then the messages they may see arrive once, in order", async () => {
  const { owner, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const secret = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'segredo' } })).body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${secret}/overwrites/${bia.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const { io } = require('socket.io-client');
  const s = io(srv.url, { auth: { token: bia.token, recovery: true }, transports: ['websocket'], reconnectionDelay: 200, reconnectionDelayMax: 400 });
  sockets.push(s);
  const seen = [];
  s.on('MESSAGE_CREATE', (m) => seen.push(m.content));
  await new Promise((r) => s.once('connect', r));
  const say = (cid, content) => api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content } });
  await say(geral, 'antes');
  await eventually(() => seen.length === 1 || seen, 3000, 'the first, live');
  const dropped = new Promise((r) => s.once('disconnect', r));
  s.io.engine.close();
  await dropped;
  for (let i = 0; i < 5; i++) await say(geral, `perdida ${i}`);
  await say(secret, 'não é para a Bia');
  await new Promise((r) => s.once('connect', r));
  assert.equal(s.recovered, true);
  await eventually(() => seen.length === 6 || seen, 5000, 'what came meanwhile');
  await say(geral, 'depois');
  await eventually(() => seen.length === 7 || seen, 3000, 'live again');
  assert.deepEqual(seen, ['antes', 'perdida 0', 'perdida 1', 'perdida 2', 'perdida 3', 'perdida 4', 'depois']);
  s.disconnect();
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

test('people get reactions, pins and changes to the server live; bots never get those', async () => {
  const { owner, sid, server, members: [bia], code } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const secret = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'diretoria' } })).body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${secret}/overwrites/${bia.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { intents: ['messages.read', 'members.read', 'interactions.receive'] });
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const sock = await gatewayConnect(srv.url, { auth: { ticket: (await ticketFor(bia)).body.ticket } }, sockets);
  const msgs = {};
  for (const [cid, text] of [[secret, 'oculta'], [geral, 'visível']])
    msgs[text] = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content: text } })).body.message.id;
  const path = (cid, mid, what) => `/api/servers/${sid}/channels/${cid}/messages/${mid}/${what}`;

  // The hidden channel's first, so the one that arrives shows the other never came.
  await api(srv.url, 'POST', path(secret, msgs.oculta, 'react'), { token: owner.token, body: { emoji: '🎉' } });
  const reacted = next(sock, 'MESSAGE_REACTIONS_UPDATE');
  await api(srv.url, 'POST', path(geral, msgs['visível'], 'react'), { token: owner.token, body: { emoji: '👍' } });
  assert.deepEqual(await reacted, { serverId: sid, channelId: geral, messageId: msgs['visível'],
                                    emoji: '👍', customEmojiId: null, userId: owner.user.id, count: 1, added: true });
  const another = next(sock, 'MESSAGE_REACTIONS_UPDATE');
  await api(srv.url, 'POST', path(geral, msgs['visível'], 'react'), { token: bia.token, body: { emoji: '👍' } });
  assert.deepEqual(await another, { serverId: sid, channelId: geral, messageId: msgs['visível'],
                                    emoji: '👍', customEmojiId: null, userId: bia.user.id, count: 2, added: true });
  const undone = next(sock, 'MESSAGE_REACTIONS_UPDATE');
  await api(srv.url, 'POST', path(geral, msgs['visível'], 'react'), { token: owner.token, body: { emoji: '👍' } });
  assert.deepEqual(await undone, { serverId: sid, channelId: geral, messageId: msgs['visível'],
                                    emoji: '👍', customEmojiId: null, userId: owner.user.id, count: 1, added: false });
  await api(srv.url, 'POST', path(secret, msgs.oculta, 'pin'), { token: owner.token });
  const pinned = next(sock, 'CHANNEL_PINS_UPDATE');
  await api(srv.url, 'POST', path(geral, msgs['visível'], 'pin'), { token: owner.token });
  assert.deepEqual(await pinned, { serverId: sid, channelId: geral, messageId: msgs['visível'], pinned: true });

  // SERVER_UPDATE says what to read again, for every kind of change.
  const changes = [
    ['channels', () => api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'novo' } })],
    ['roles', () => api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Mod' } })],
    ['members', () => api(srv.url, 'PATCH', `/api/servers/${sid}/members/${bia.user.id}`, { token: owner.token, body: { nickname: 'Bi' } })],
    ['server', () => api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { name: 'Outro nome' } })],
  ];
  for (const [what, change] of changes) {
    const update = next(sock, 'SERVER_UPDATE');
    assert.ok([200, 201].includes((await change()).status));
    assert.deepEqual(await update, { serverId: sid, changed: what });
  }
  // Members coming and going reach people too.
  const cai = await register(srv.url);
  const added = next(sock, 'GUILD_MEMBER_ADD');
  await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: cai.token });
  assert.equal((await added).userId, cai.user.id);
  const removed = next(sock, 'GUILD_MEMBER_REMOVE');
  await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: cai.token });
  assert.deepEqual(await removed, { serverId: sid, userId: cai.user.id });

  await eventually(() => bot.received.some((e) => e.name === 'GUILD_MEMBER_REMOVE'));
  const peopleOnly = ['MESSAGE_REACTIONS_UPDATE', 'CHANNEL_PINS_UPDATE', 'SERVER_UPDATE'];
  assert.deepEqual(bot.received.filter((e) => peopleOnly.includes(e.name)), [], 'bots never get people-only events');
  assert.equal(sock.received.filter((e) => e.name === 'MESSAGE_REACTIONS_UPDATE').length, 3, 'not the hidden channel\'s');
  assert.equal(sock.received.filter((e) => e.name === 'CHANNEL_PINS_UPDATE').length, 1);
});

test('a person edits the text of their own message, and no one else\'s', async () => {
  const { owner, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const url = (mid) => `/api/servers/${sid}/channels/${geral}/messages/${mid}`;
  const mine = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: bia.token, body: { content: 'olá, @' + owner.user.username } })).body.message;
  const theirs = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: owner.token, body: { content: 'oi' } })).body.message;
  const sock = await gatewayConnect(srv.url, { auth: { ticket: (await ticketFor(owner)).body.ticket } }, sockets);

  const updated = next(sock, 'MESSAGE_UPDATE');
  const r = await api(srv.url, 'PATCH', url(mine.id), { token: bia.token, body: { content: 'olá de novo', embeds: [{ title: 'x' }] } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.message.content, 'olá de novo');
  assert.equal(r.body.message.embeds, null, 'text only: embeds are not read');
  assert.deepEqual(r.body.message.mentions, [], 'mentions resolved again');
  assert.ok(r.body.message.editedAt);
  assert.deepEqual(await updated, r.body.message);

  const refused = async (token, mid, body, status, error) => {
    const x = await api(srv.url, 'PATCH', url(mid), { token, body });
    assert.equal(x.status, status, x.text);
    if (error) assert.match(x.body.error, error);
  };
  await refused(bia.token, theirs.id, { content: 'meu agora' }, 403, /^Só quem escreveu a mensagem pode editá-la$/);
  await refused(bia.token, mine.id, { content: '' }, 400);
  await refused(bia.token, mine.id, { content: 'x'.repeat(4001) }, 400);
  await refused(bia.token, '01a00000-0000-7000-8000-000000000000', { content: 'x' }, 404);
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  await refused(info.botToken, mine.id, { content: 'x' }, 403, /Rota não permitida para bots/);

  // Ten edits per 10 s (the first one above included); the eleventh waits.
  let last;
  for (let i = 0; i < 9; i++) last = await api(srv.url, 'PATCH', url(mine.id), { token: bia.token, body: { content: `edição ${i}` } });
  assert.equal(last.status, 200);
  await refused(bia.token, mine.id, { content: 'mais uma' }, 429);

  // In timeout: refused before the limit is even looked at.
  await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${bia.user.id}`, { token: owner.token, body: { timeoutUntil: new Date(Date.now() + 60000).toISOString() } });
  await refused(bia.token, mine.id, { content: 'x' }, 403, /timeout/);
});
