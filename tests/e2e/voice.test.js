// Voice signaling: a person (session token) and a bot join a voice channel over their gateway
// connections, relay signals both ways, and get the participant, permission and end events.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, appWithBot, install, serverWithMembers, gatewayConnect, quiet, sharedServer } = require('./helpers');

const { P } = require('./permissions');
const BOT_PERMS = P.VER_CANAL | P.CONECTAR_VOZ | P.FALAR;
const sockets = [];
const srv = sharedServer({}, sockets);

const connect = (token, transports) => gatewayConnect(srv.url, { auth: { token }, ...(transports && { transports }) }, sockets);

// The first event named `name` at or after index `from` of what s received that satisfies pred.
// With several nodes an update of the state before can still arrive after a mark (each node
// tells its own connections), so a wait for a new list says which list it waits for.
async function waitFor(s, name, pred = () => true, { from = 0, timeoutMs = 3000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = s.received.slice(from).find((e) => e.name === name && pred(e.payload));
    if (hit) return hit.payload;
    if (Date.now() > deadline) throw new Error(`no ${name} within ${timeoutMs} ms; got ${JSON.stringify(s.received.slice(from))}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const mark = (s) => s.received.length;
const since = (s, from, name) => s.received.slice(from).filter((e) => e.name === name).map((e) => e.payload);
const ask = (s, name, payload) => s.timeout(3000).emitWithAck(name, payload);
const ids = (participants) => participants.map((p) => p.userId);

// A server with a voice channel, a member, and a bot with voice.connect, both connected.
async function world({ transports, intents = ['voice.connect'], perms = BOT_PERMS } = {}) {
  const w = await serverWithMembers(srv.url, 1);
  const ch = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'Sala de voz', type: 'voice' } });
  assert.equal(ch.status, 201, ch.text);
  const info = await appWithBot(srv.url, w.owner, { intents });
  const inst = await install(srv.url, w.owner, info, w.sid, { permissions: perms });
  assert.equal(inst.complete.status, 200, inst.complete.text);
  const member = w.members[0];
  const bot = await connect(info.botToken, transports);
  const person = await connect(member.token, transports);
  const vcid = ch.body.channel.id;
  const botId = info.app.botUserId;
  const voiceMembers = (cid = vcid, token = info.botToken) => api(srv.url, 'GET', `/api/bot/servers/${w.sid}/channels/${cid}/voice-members`, { token });
  const overwrite = (targetId, type, allow, deny) => api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${vcid}/overwrites/${targetId}`, { token: w.owner.token, body: { type, allow, deny } });
  return { ...w, info, member, bot, person, vcid, botId, personId: member.user.id, textId: w.server.channels[0].id, voiceMembers, overwrite };
}

for (const transports of [undefined, ['websocket']]) {
  const mode = transports ? 'websocket' : 'default';
  test(`${mode}: a person and a bot share a voice channel, relay signals both ways, and leave`, async () => {
    const w = await world({ transports });
    const botJoined = await ask(w.bot, 'voice:join', { channelId: w.vcid });
    // Without --stun-url or --turn-url, no ICE servers: host candidates only.
    assert.deepEqual(botJoined, { ok: true, serverId: w.sid, channelId: w.vcid, canSpeak: true, participants: [{ userId: w.botId, muted: false, deafened: false }],
                                  iceServers: [], iceTransportPolicy: 'all' });
    await waitFor(w.bot, 'channel_voice:participants_update', (p) => p.participants.length === 1);

    const personJoined = await ask(w.person, 'voice:join', { channelId: w.vcid, deafened: true });
    assert.equal(personJoined.ok, true);
    assert.deepEqual(ids(personJoined.participants), [w.botId, w.personId]);
    const both = [{ userId: w.botId, muted: false, deafened: false }, { userId: w.personId, muted: false, deafened: true }];
    const seenByBot = await waitFor(w.bot, 'channel_voice:participants_update', (p) => p.participants.length === 2);
    assert.deepEqual(seenByBot, { serverId: w.sid, channelId: w.vcid, participants: both });
    assert.deepEqual(await waitFor(w.person, 'channel_voice:participants_update', (p) => p.participants.length === 2), seenByBot);

    const members = await w.voiceMembers();
    assert.equal(members.status, 200, members.text);
    assert.deepEqual(members.body.members.map(({ joinedAt, ...rest }) => rest), both);
    for (const m of members.body.members) assert.ok(Math.abs(Date.parse(m.joinedAt) - Date.now()) < 60_000);

    // Signals: offer from the person to the bot, answer and a candidate back.
    const offer = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };
    assert.deepEqual(await ask(w.person, 'channel_voice:signal', { channelId: w.vcid, toUserId: w.botId, data: offer }), { ok: true });
    assert.deepEqual(await waitFor(w.bot, 'channel_voice:signal'), { serverId: w.sid, channelId: w.vcid, fromUserId: w.personId, data: offer });
    const answer = { type: 'answer', sdp: 'v=0\r\n', candidates: [{ candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMLineIndex: 0 }] };
    assert.deepEqual(await ask(w.bot, 'channel_voice:signal', { channelId: w.vcid, toUserId: w.personId, data: answer }), { ok: true });
    assert.deepEqual(await waitFor(w.person, 'channel_voice:signal'), { serverId: w.sid, channelId: w.vcid, fromUserId: w.botId, data: answer });

    // The person leaves: their session ends; the bot sees the list without them.
    const b = mark(w.bot);
    assert.deepEqual(await ask(w.person, 'voice:leave', {}), { ok: true });
    assert.deepEqual(await waitFor(w.person, 'voice:session_ended'), { serverId: w.sid, channelId: w.vcid, reason: 'left' });
    assert.deepEqual(await waitFor(w.bot, 'channel_voice:participants_update', (u) => u.participants.length === 1, { from: b }), { serverId: w.sid, channelId: w.vcid, participants: [both[0]] });
    assert.deepEqual(since(w.bot, b, 'voice:session_ended'), [], 'the bot is still in');
    assert.deepEqual(ids((await w.voiceMembers()).body.members), [w.botId]);

    // The bot leaves that channel by name.
    assert.deepEqual(await ask(w.bot, 'voice:leave', { channelId: w.vcid }), { ok: true });
    assert.deepEqual(await waitFor(w.bot, 'voice:session_ended'), { serverId: w.sid, channelId: w.vcid, reason: 'left' });
    assert.deepEqual((await w.voiceMembers()).body.members, []);
  });

  test(`${mode}: permission changes mute, then remove, a participant`, async () => {
    const w = await world({ transports });
    await ask(w.bot, 'voice:join', { channelId: w.vcid });
    await ask(w.person, 'voice:join', { channelId: w.vcid });
    await waitFor(w.bot, 'channel_voice:participants_update', (p) => p.participants.length === 2);

    // FALAR denied to the bot in this channel: it may stay, muted.
    let b = mark(w.bot), p = mark(w.person);
    assert.equal((await w.overwrite(w.botId, 'member', 0, P.FALAR)).status, 200);
    assert.deepEqual(await waitFor(w.bot, 'voice:permission_changed', () => true, { from: b }), { serverId: w.sid, channelId: w.vcid, canConnect: true, canSpeak: false });
    const muted = await waitFor(w.person, 'channel_voice:participants_update', (u) => u.participants[0].muted, { from: p });
    assert.deepEqual(muted.participants[0], { userId: w.botId, muted: true, deafened: false });
    assert.deepEqual(since(w.person, p, 'voice:permission_changed'), [], 'only the one whose rights changed hears of it');

    // CONECTAR_VOZ denied too: the bot's session ends.
    b = mark(w.bot); p = mark(w.person);
    assert.equal((await w.overwrite(w.botId, 'member', 0, P.FALAR | P.CONECTAR_VOZ)).status, 200);
    assert.deepEqual(await waitFor(w.bot, 'voice:permission_changed', () => true, { from: b }), { serverId: w.sid, channelId: w.vcid, canConnect: false, canSpeak: false });
    assert.deepEqual(await waitFor(w.bot, 'voice:session_ended', () => true, { from: b }), { serverId: w.sid, channelId: w.vcid, reason: 'permission_revoked' });
    assert.deepEqual(ids((await waitFor(w.person, 'channel_voice:participants_update', (u) => u.participants.length === 1, { from: p })).participants), [w.personId]);
    const again = await ask(w.bot, 'voice:join', { channelId: w.vcid });
    assert.deepEqual(again, { ok: false, status: 403, error: 'Sem permissão: é preciso CONECTAR_VOZ' });

    // A role change works the same way: @everyone loses CONECTAR_VOZ, the person is removed.
    p = mark(w.person);
    const everyone = w.server.roles.find((r) => r.id === w.sid);
    const patched = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/roles/${w.sid}`, { token: w.owner.token, body: { permissions: everyone.permissions & ~P.CONECTAR_VOZ } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(await waitFor(w.person, 'voice:permission_changed', () => true, { from: p }), { serverId: w.sid, channelId: w.vcid, canConnect: false, canSpeak: false });
    assert.deepEqual(await waitFor(w.person, 'voice:session_ended', () => true, { from: p }), { serverId: w.sid, channelId: w.vcid, reason: 'permission_revoked' });
  });
}

test('sessions end when the channel is deleted, the member is kicked, or the connection closes', async () => {
  const w = await world();
  await ask(w.bot, 'voice:join', { channelId: w.vcid });
  await ask(w.person, 'voice:join', { channelId: w.vcid });
  await waitFor(w.bot, 'channel_voice:participants_update', (p) => p.participants.length === 2);

  // The person's connection closes: the bot sees them gone.
  let b = mark(w.bot);
  w.person.close();
  assert.deepEqual(ids((await waitFor(w.bot, 'channel_voice:participants_update', (u) => u.participants.length === 1, { from: b })).participants), [w.botId]);

  // They come back on a new connection and are kicked.
  const person = await connect(w.member.token);
  assert.equal((await ask(person, 'voice:join', { channelId: w.vcid })).ok, true);
  b = mark(w.bot);
  const kicked = await api(srv.url, 'DELETE', `/api/servers/${w.sid}/members/${w.personId}`, { token: w.owner.token });
  assert.equal(kicked.status, 200, kicked.text);
  assert.deepEqual(await waitFor(person, 'voice:session_ended'), { serverId: w.sid, channelId: w.vcid, reason: 'removed_from_server' });
  assert.deepEqual(since(person, 0, 'voice:permission_changed'), []);
  assert.deepEqual(ids((await waitFor(w.bot, 'channel_voice:participants_update', (u) => u.participants.length === 1, { from: b })).participants), [w.botId]);

  // The channel is deleted under the bot.
  const del = await api(srv.url, 'DELETE', `/api/servers/${w.sid}/channels/${w.vcid}`, { token: w.owner.token });
  assert.equal(del.status, 200, del.text);
  assert.deepEqual(await waitFor(w.bot, 'voice:session_ended'), { serverId: w.sid, channelId: w.vcid, reason: 'channel_deleted' });
});

test('joining another voice channel of the server moves the session; a rejoin changes flags', async () => {
  const w = await world();
  const other = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'Outra sala', type: 'voice' } });
  await ask(w.person, 'voice:join', { channelId: w.vcid });
  const first = (await w.voiceMembers()).body.members[0];
  await quiet(20);
  const rejoin = await ask(w.person, 'voice:join', { channelId: w.vcid, muted: true });
  assert.deepEqual(rejoin.participants, [{ userId: w.personId, muted: true, deafened: false }]);
  assert.equal((await w.voiceMembers()).body.members[0].joinedAt, first.joinedAt, 'still the same session');
  assert.deepEqual(since(w.person, 0, 'voice:session_ended'), []);
  const moved = await ask(w.person, 'voice:join', { channelId: other.body.channel.id });
  assert.equal(moved.ok, true);
  assert.deepEqual(await waitFor(w.person, 'voice:session_ended'), { serverId: w.sid, channelId: w.vcid, reason: 'moved' });
  assert.deepEqual((await w.voiceMembers()).body.members, []);
  assert.deepEqual(ids((await w.voiceMembers(other.body.channel.id)).body.members), [w.personId]);
});

test('voice events reach only bots with voice.connect that can see the channel', async () => {
  const w = await world();
  // Two more bots in the same server: one watching with voice.connect, one without it.
  const watcher = await appWithBot(srv.url, w.owner, { name: 'Observador', intents: ['voice.connect'] });
  await install(srv.url, w.owner, watcher, w.sid, { permissions: P.VER_CANAL });
  const deaf = await appWithBot(srv.url, w.owner, { name: 'Sem voz', intents: ['messages.read'] });
  await install(srv.url, w.owner, deaf, w.sid, { permissions: BOT_PERMS });
  const watcherSocket = await connect(watcher.botToken);
  const deafSocket = await connect(deaf.botToken);

  await ask(w.person, 'voice:join', { channelId: w.vcid });
  const seen = await waitFor(watcherSocket, 'channel_voice:participants_update');
  assert.deepEqual(ids(seen.participants), [w.personId]);
  // The bot without the intent cannot join, read the members, or hear anything.
  assert.deepEqual(await ask(deafSocket, 'voice:join', { channelId: w.vcid }), { ok: false, status: 403, error: 'Intent voice.connect desligada para esta aplicação' });
  const r = await w.voiceMembers(w.vcid, deaf.botToken);
  assert.equal(r.status, 403);
  assert.equal(r.body.error, 'Intent voice.connect desligada para esta aplicação');
  await quiet();
  assert.deepEqual(deafSocket.received.filter((e) => /voice/.test(e.name)), []);

  // Hidden from the watcher by an overwrite: it stops hearing about the channel.
  assert.equal((await w.overwrite(watcher.app.botUserId, 'member', 0, P.VER_CANAL)).status, 200);
  const m = mark(watcherSocket);
  await ask(w.bot, 'voice:join', { channelId: w.vcid });
  await waitFor(w.person, 'channel_voice:participants_update', (u) => u.participants.length === 2);
  await quiet();
  assert.deepEqual(since(watcherSocket, m, 'channel_voice:participants_update'), []);
});

test('turning voice.connect off ends the bot\'s session without telling it', async () => {
  const w = await world();
  await ask(w.bot, 'voice:join', { channelId: w.vcid });
  await ask(w.person, 'voice:join', { channelId: w.vcid });
  // Both sockets have seen both joins before the switch (each gets its copy in its own time).
  for (const s of [w.person, w.bot]) await waitFor(s, 'channel_voice:participants_update', (u) => u.participants.length === 2);
  const b = mark(w.bot), p = mark(w.person);
  const off = await api(srv.url, 'PUT', `/api/applications/${w.info.app.id}/intents`, { token: w.owner.token, body: { intents: ['messages.read'] } });
  assert.equal(off.status, 200, off.text);
  assert.deepEqual(ids((await waitFor(w.person, 'channel_voice:participants_update', (u) => u.participants.length === 1, { from: p })).participants), [w.personId]);
  await quiet();
  assert.deepEqual(w.bot.received.slice(b).filter((e) => /voice/.test(e.name)), []);
});

test('a timeout takes the right to connect away', async () => {
  const w = await world();
  await ask(w.person, 'voice:join', { channelId: w.vcid });
  const until = new Date(Date.now() + 60_000).toISOString();
  const t = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/members/${w.personId}`, { token: w.owner.token, body: { timeoutUntil: until } });
  assert.equal(t.status, 200, t.text);
  assert.deepEqual(await waitFor(w.person, 'voice:session_ended'), { serverId: w.sid, channelId: w.vcid, reason: 'permission_revoked' });
  assert.deepEqual(await ask(w.person, 'voice:join', { channelId: w.vcid }), { ok: false, status: 403, error: 'Sem permissão: é preciso CONECTAR_VOZ' });
});

// No route asks for a review: the rights follow the changes each commit names (the writer's
// change marks), whichever route made them.
test('a right held through a role follows the role: its CONECTAR_VOZ taken away, the role taken back, the role deleted', async () => {
  const w = await world();
  const everyone = w.server.roles.find((r) => r.id === w.sid);
  const base = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/roles/${w.sid}`, { token: w.owner.token, body: { permissions: everyone.permissions & ~P.CONECTAR_VOZ } });
  assert.equal(base.status, 200, base.text);
  const made = await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: 'Voz', permissions: P.VER_CANAL | P.CONECTAR_VOZ | P.FALAR } });
  assert.equal(made.status, 201, made.text);
  const rid = made.body.role.id;
  const grant = async () => assert.equal((await api(srv.url, 'PUT', `/api/servers/${w.sid}/members/${w.personId}/roles/${rid}`, { token: w.owner.token })).status, 200);
  const joinsAndEnds = async (change) => {
    const joined = await ask(w.person, 'voice:join', { channelId: w.vcid });
    assert.equal(joined.ok, true, JSON.stringify(joined));
    const p = mark(w.person);
    const r = await change();
    assert.ok(r.status === 200 || r.status === 204, r.text);
    assert.deepEqual(await waitFor(w.person, 'voice:session_ended', () => true, { from: p }), { serverId: w.sid, channelId: w.vcid, reason: 'permission_revoked' });
    assert.deepEqual(await ask(w.person, 'voice:join', { channelId: w.vcid }), { ok: false, status: 403, error: 'Sem permissão: é preciso CONECTAR_VOZ' });
  };
  await grant();
  await joinsAndEnds(() => api(srv.url, 'PATCH', `/api/servers/${w.sid}/roles/${rid}`, { token: w.owner.token, body: { permissions: P.VER_CANAL | P.FALAR } }));
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}/roles/${rid}`, { token: w.owner.token, body: { permissions: P.VER_CANAL | P.CONECTAR_VOZ | P.FALAR } })).status, 200);
  await joinsAndEnds(() => api(srv.url, 'DELETE', `/api/servers/${w.sid}/members/${w.personId}/roles/${rid}`, { token: w.owner.token }));
  await grant();
  await joinsAndEnds(() => api(srv.url, 'DELETE', `/api/servers/${w.sid}/roles/${rid}`, { token: w.owner.token }));
});

test('bad joins, leaves and signals are refused with the reason', async () => {
  const w = await world();
  const refused = (status, error) => ({ ok: false, status, error });
  // Each connection may join or leave 10 times in 10 s: the refusals use two more connections.
  const malformed = await connect(w.member.token);
  assert.deepEqual(await ask(malformed, 'voice:join', {}), refused(400, 'channelId: obrigatório'));
  assert.deepEqual(await ask(malformed, 'voice:join', { channelId: 42 }), refused(400, 'channelId: deve ser um texto'));
  assert.deepEqual(await ask(malformed, 'voice:join', { channelId: 'sala' }), refused(400, 'channelId: deve ser um UUID'));
  assert.deepEqual(await ask(malformed, 'voice:join', { channelId: w.vcid, muted: 'sim' }), refused(400, 'muted: deve ser verdadeiro ou falso'));
  assert.deepEqual(await ask(malformed, 'voice:join', 'sala'), refused(400, 'payload: deve ser um objeto'));
  assert.deepEqual(await ask(malformed, 'voice:leave', { channelId: 'sala' }), refused(400, 'channelId: deve ser um UUID'));
  const elsewhere = await serverWithMembers(srv.url, 0);
  const foreign = await api(srv.url, 'POST', `/api/servers/${elsewhere.sid}/channels`, { token: elsewhere.owner.token, body: { name: 'Fora', type: 'voice' } });
  const wrong = await connect(w.member.token);
  assert.deepEqual(await ask(wrong, 'voice:join', { channelId: w.textId }), refused(400, 'channelId: não é um canal de voz'));
  assert.deepEqual(await ask(wrong, 'voice:join', { channelId: '01a1fe3b-0000-7000-8000-000000000000' }), refused(404, 'Canal não encontrado'));
  // A voice channel of a server one is not in looks the same as none; a hidden one too.
  assert.deepEqual(await ask(wrong, 'voice:join', { channelId: foreign.body.channel.id }), refused(404, 'Canal não encontrado'));
  assert.equal((await w.overwrite(w.personId, 'member', 0, P.VER_CANAL)).status, 200);
  assert.deepEqual(await ask(wrong, 'voice:join', { channelId: w.vcid }), refused(404, 'Canal não encontrado'));
  assert.equal((await w.overwrite(w.personId, 'member', 0, 0)).status, 200);

  assert.deepEqual(await ask(w.person, 'voice:leave', { channelId: w.vcid }), refused(404, 'Você não está neste canal de voz'));
  assert.deepEqual(await ask(w.person, 'voice:leave', {}), { ok: true }, 'leaving nothing is fine');

  const signal = (s, body) => ask(s, 'channel_voice:signal', body);
  const data = { type: 'offer', sdp: 'v=0' };
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, toUserId: w.botId, data }), refused(403, 'Você não está neste canal de voz'));
  await ask(w.person, 'voice:join', { channelId: w.vcid });
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, toUserId: w.botId, data }), refused(404, 'Destinatário não está neste canal de voz'));
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, toUserId: w.personId, data }), refused(400, 'toUserId: não pode ser você'));
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, toUserId: w.botId }), refused(400, 'data: obrigatório'));
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, data }), refused(400, 'toUserId: obrigatório'));
  const joined = mark(w.person);
  await ask(w.bot, 'voice:join', { channelId: w.vcid });
  // On two nodes the bot's session reaches the person's node through the stream: signals wait for it.
  await waitFor(w.person, 'channel_voice:participants_update', (u) => u.participants.length === 2, { from: joined });
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, toUserId: w.botId, data: { sdp: 'x'.repeat(65536) } }), refused(413, 'data: no máximo 65536 bytes'));
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, toUserId: w.botId, data: Buffer.from('binário') }), refused(400, 'data: deve ser JSON, sem anexos binários'));
  const b = mark(w.bot);
  assert.deepEqual(await signal(w.person, { channelId: w.vcid, toUserId: w.botId, data: 'x'.repeat(65000) }), { ok: true }, 'just under the limit');
  assert.equal((await waitFor(w.bot, 'channel_voice:signal', () => true, { from: b })).data.length, 65000);

  // Without an acknowledgement the server stays quiet and keeps the connection.
  w.person.emit('voice:join', { channelId: 'sala' });
  w.person.emit('channel_voice:signal', null);
  assert.deepEqual(await ask(w.person, 'voice:leave', {}), { ok: true });
  assert.equal(w.person.connected, true);
});

test('each connection may join or leave 10 times and signal 100 times in a window, then 429', async () => {
  const w = await world();
  for (let i = 0; i < 5; i++) {
    assert.equal((await ask(w.person, 'voice:join', { channelId: w.vcid })).ok, true);
    assert.deepEqual(await ask(w.person, 'voice:leave', {}), { ok: true });
  }
  const over = await ask(w.person, 'voice:join', { channelId: w.vcid });
  assert.equal(over.status, 429);
  assert.equal(over.error, 'Muitas requisições; aguarde antes de tentar de novo');
  assert.ok(over.retryAfterMs > 0 && over.retryAfterMs <= 10_000, JSON.stringify(over));
  // Another connection of the same person has its own count.
  const second = await connect(w.member.token);
  assert.equal((await ask(second, 'voice:join', { channelId: w.vcid })).ok, true);
  const joined = mark(second);
  await ask(w.bot, 'voice:join', { channelId: w.vcid });
  await waitFor(second, 'channel_voice:participants_update', (u) => u.participants.length === 2, { from: joined }); // known on second's node
  const b = mark(w.bot);
  const signal = () => ask(second, 'channel_voice:signal', { channelId: w.vcid, toUserId: w.botId, data: { n: 1 } });
  const answers = await Promise.all(Array.from({ length: 100 }, signal));
  assert.ok(answers.every((a) => a.ok), 'the first 100 pass');
  const refusedSignal = await signal();
  assert.equal(refusedSignal.status, 429);
  assert.ok(refusedSignal.retryAfterMs > 0 && refusedSignal.retryAfterMs <= 5_000);
  await waitFor(w.bot, 'channel_voice:signal', () => since(w.bot, b, 'channel_voice:signal').length === 100, { from: b });
  await quiet();
  assert.equal(since(w.bot, b, 'channel_voice:signal').length, 100, 'the refused one is not relayed');
  assert.equal((await ask(second, 'voice:leave', {})).ok, true, 'joins and signals are counted apart');
});

test('the voice-members route: errors', async () => {
  const w = await world();
  assert.equal((await w.voiceMembers(w.textId)).status, 400);
  assert.equal((await w.voiceMembers(w.textId)).body.error, 'cid: não é um canal de voz');
  assert.equal((await w.voiceMembers('01a1fe3b-0000-7000-8000-000000000000')).status, 404);
  const asPerson = await w.voiceMembers(w.vcid, w.member.token);
  assert.equal(asPerson.status, 403, asPerson.text);
  const none = await api(srv.url, 'GET', `/api/bot/servers/${w.sid}/channels/${w.vcid}/voice-members`);
  assert.equal(none.status, 401);
  // A bot that cannot see a channel of its own server: 403 naming the permission.
  assert.equal((await w.overwrite(w.botId, 'member', 0, P.VER_CANAL)).status, 200);
  const hidden = await w.voiceMembers();
  assert.equal(hidden.status, 403);
  assert.equal(hidden.body.error, 'Sem permissão: é preciso VER_CANAL');
});

test('with a TURN server configured, each join hands out a credential coturn can check, expiring after the TTL', async () => {
  const secret = 'segredo-compartilhado';
  const own = await startServer({ args: ['--stun-url', 'stun:stun.example:3478', '--turn-url', 'turn:turn.example:3478?transport=udp,turns:turn.example:5349',
    '--turn-secret', secret, '--turn-ttl-seconds', '600'] });
  try {
    const w = await serverWithMembers(own.url, 0);
    const ch = await api(own.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'Voz', type: 'voice' } });
    const s = await gatewayConnect(own.url, { auth: { token: w.owner.token } }, sockets);
    const before = Math.floor(Date.now() / 1000);
    const joined = await s.timeout(3000).emitWithAck('voice:join', { channelId: ch.body.channel.id });
    assert.equal(joined.ok, true);
    assert.equal(joined.iceTransportPolicy, 'all');
    assert.deepEqual(joined.iceServers[0], { urls: ['stun:stun.example:3478'] });
    const turn = joined.iceServers[1];
    assert.deepEqual(turn.urls, ['turn:turn.example:3478?transport=udp', 'turns:turn.example:5349']);
    const [expiry, user] = turn.username.split(':');
    assert.equal(user, w.owner.user.id);
    assert.ok(Number(expiry) >= before + 600 && Number(expiry) <= before + 602, turn.username);
    const expected = require('node:crypto').createHmac('sha1', secret).update(turn.username).digest('base64');
    assert.equal(turn.credential, expected, 'the TURN REST API scheme coturn\'s use-auth-secret checks');
  } finally {
    await own.stop();
  }
});

test('a voice configuration that cannot work stops praca at start, saying why', async () => {
  for (const [args, said] of [
    [['--turn-url', 'turn:t.example:3478'], /--turn-url needs --turn-secret/],
    [['--turn-url', 'http://t.example', '--turn-secret', 'x'], /each URL starts with turn: or turns:/],
    [['--stun-url', 'turn:t.example'], /each URL starts with stun: or stuns:/],
    [['--voice-relay-only'], /--voice-relay-only needs --turn-url/],
    [['--sfu-url', 'http://127.0.0.1:8088/janus', '--sfu-secret', 'segredo-de-dezesseis'], /--sfu-url needs --sfu-ws-url/],
    [['--sfu-url', 'http://127.0.0.1:8088/janus', '--sfu-ws-url', 'ws://127.0.0.1:8188', '--sfu-secret', 'curto'], /--sfu-secret of 16 characters/],
    [['--sfu-url', 'unix:/janus', '--sfu-ws-url', 'ws://127.0.0.1:8188', '--sfu-secret', 'segredo-de-dezesseis'], /--sfu-url: Janus's HTTP API/],
    [['--voice-mesh-max', '101'], /voice-mesh-max/],
  ]) {
    const r = require('node:child_process').spawnSync(require('./helpers').BIN, ['serve', '--port', '0', '--data', require('node:path').join(require('./helpers').tempDir(), 'x.db'), ...args], { encoding: 'utf8', timeout: 20000 });
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr + r.stdout, said);
  }
});
