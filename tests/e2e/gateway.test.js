// The Socket.IO gateway with the official socket.io-client, default (polling then upgrade) and
// websocket-only: connect errors, every event and its payload, intent filtering, channel
// visibility, presence, and closing on rotation, deletion, suspension and logout.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const { spawnSync } = require('node:child_process');
const { io } = require('socket.io-client');
const { startServer, api, register, appWithBot, install, serverWithMembers, gatewayConnect, eventually, BIN, nextEvent: next, quiet, sharedServer, rawResume } = require('./helpers');

const { P } = require('./permissions');
const MODES = { default: {}, websocket: { transports: ['websocket'] } };
const sockets = [];
const srv = sharedServer({ args: ['--ping-interval-ms', '2000', '--ping-timeout-ms', '5000'] }, sockets);

// Connects and resolves with the socket, or rejects with the connect_error.
function connect(token, mode = 'default', extra = {}) {
  return gatewayConnect(srv.url, { auth: token === undefined ? undefined : { token }, ...MODES[mode], ...extra }, sockets);
}


async function world(intents = ['messages.read', 'members.read'], bits = P.VER_CANAL | P.ENVIAR_MENSAGENS) {
  const w = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, w.owner, { intents });
  await install(srv.url, w.owner, info, w.sid, { permissions: bits });
  const cid = w.server.channels[0].id;
  const url = `/api/servers/${w.sid}/channels/${cid}/messages`;
  return { ...w, info, cid, url };
}

for (const mode of Object.keys(MODES)) {
  test(`${mode}: connects with the bot token; no READY; the id is the Socket.IO id`, async () => {
    const w = await world();
    const s = await connect(w.info.botToken, mode);
    assert.match(s.id, /^[\w-]{20}$/);
    await quiet(500);
    // With two nodes the install's own GUILD_MEMBER_ADD, committed just before, may still be on
    // its way to this node (docs/api.md); nothing else comes, and no READY.
    const own = (e) => e.name === 'GUILD_MEMBER_ADD' && e.payload.userId === w.info.app.botUserId;
    assert.deepEqual(s.received.filter((e) => !own(e)), [], 'nothing is sent on connect');
    assert.equal(s.io.engine.transport.name, 'websocket', 'default mode upgrades');
  });

  test(`${mode}: CONNECT_ERROR is exactly "Sem token" or "Token inválido", and the client does not retry`, async () => {
    await assert.rejects(connect(undefined, mode), (e) => e.message === 'Sem token' && e.socket.active === false);
    await assert.rejects(connect('', mode), (e) => e.message === 'Sem token');
    await assert.rejects(connect('token-que-não-existe', mode), (e) => e.message === 'Token inválido' && e.socket.active === false);
    await assert.rejects(connect(12345, mode), (e) => e.message === 'Sem token');
  });

  test(`${mode}: MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE with their payloads`, async () => {
    const w = await world();
    const s = await connect(w.info.botToken, mode);
    const created = next(s, 'MESSAGE_CREATE');
    const sent = await api(srv.url, 'POST', w.url, { token: w.members[0].token, body: { content: 'olá, bot' } });
    assert.deepEqual(await created, sent.body.message);
    const own = next(s, 'MESSAGE_CREATE');
    const mine = await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.info.botToken, body: { content: 'eu mesmo' } });
    assert.deepEqual(await own, mine.body.message, "the bot's own messages come too");
    const updated = next(s, 'MESSAGE_UPDATE');
    const edit = await api(srv.url, 'PATCH', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages/${mine.body.message.id}`, { token: w.info.botToken, body: { content: 'editado' } });
    assert.deepEqual(await updated, edit.body.message);
    const deleted = next(s, 'MESSAGE_DELETE');
    await api(srv.url, 'DELETE', `${w.url}/${sent.body.message.id}`, { token: w.members[0].token });
    assert.deepEqual(await deleted, { id: sent.body.message.id });
  });
}

test('GUILD_MEMBER_ADD and GUILD_MEMBER_REMOVE with every reason', async () => {
  const w = await world();
  const s = await connect(w.info.botToken, 'websocket');
  const someone = await register(srv.url);
  const added = next(s, 'GUILD_MEMBER_ADD');
  await api(srv.url, 'POST', `/api/invites/${w.code}/join`, { token: someone.token });
  const add = await added;
  assert.deepEqual(Object.keys(add).sort(), ['joinedAt', 'nickname', 'roleIds', 'serverId', 'timeoutReason', 'timeoutUntil', 'user', 'userId'].sort());
  assert.equal(add.serverId, w.sid);
  assert.equal(add.userId, someone.user.id);
  assert.deepEqual(add.user, { id: someone.user.id, username: someone.user.username, displayName: someone.user.displayName, isBot: false });
  assert.deepEqual(add.roleIds, []);
  assert.equal(add.nickname, null);
  const left = next(s, 'GUILD_MEMBER_REMOVE');
  await api(srv.url, 'DELETE', `/api/servers/${w.sid}/members/@me`, { token: someone.token });
  assert.deepEqual(await left, { serverId: w.sid, userId: someone.user.id });
  const rejoined = next(s, 'GUILD_MEMBER_ADD');
  await api(srv.url, 'POST', `/api/invites/${w.code}/join`, { token: someone.token });
  await rejoined;
  const kicked = next(s, 'GUILD_MEMBER_REMOVE');
  await api(srv.url, 'DELETE', `/api/servers/${w.sid}/members/${someone.user.id}`, { token: w.owner.token });
  assert.deepEqual(await kicked, { serverId: w.sid, userId: someone.user.id, reason: 'kicked' });
  const banned = next(s, 'GUILD_MEMBER_REMOVE');
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/bans/${w.members[0].user.id}`, { token: w.owner.token });
  assert.deepEqual(await banned, { serverId: w.sid, userId: w.members[0].user.id, reason: 'banned' });
  // Another bot installed, then uninstalled.
  const other = await appWithBot(srv.url, w.owner, { name: 'Outro' });
  const botAdded = next(s, 'GUILD_MEMBER_ADD');
  await install(srv.url, w.owner, other, w.sid, { permissions: P.VER_CANAL });
  assert.equal((await botAdded).user.isBot, true);
  const uninstalled = next(s, 'GUILD_MEMBER_REMOVE');
  await api(srv.url, 'DELETE', `/api/servers/${w.sid}/applications/${other.app.id}`, { token: w.owner.token });
  assert.deepEqual(await uninstalled, { serverId: w.sid, userId: other.app.botUserId, reason: 'app_uninstalled' });
});

test('intents are read at each delivery: switching messages.read off stops the next event', async () => {
  const w = await world(['members.read']);
  const s = await connect(w.info.botToken, 'websocket');
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'sem intent' } });
  await quiet();
  assert.deepEqual(s.received.map((e) => e.name), []);
  await api(srv.url, 'PUT', `/api/applications/${w.info.app.id}/intents`, { token: w.owner.token, body: { intents: ['messages.read'] } });
  const got = next(s, 'MESSAGE_CREATE');
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'com intent' } });
  assert.equal((await got).content, 'com intent');
  await api(srv.url, 'PUT', `/api/applications/${w.info.app.id}/intents`, { token: w.owner.token, body: { intents: [] } });
  s.received.length = 0;
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'de novo sem' } });
  const someone = await register(srv.url);
  await api(srv.url, 'POST', `/api/invites/${w.code}/join`, { token: someone.token });
  await quiet();
  assert.deepEqual(s.received, [], 'no members.read either');
  assert.equal(s.connected, true, 'without reconnecting');
});

test('only channels the bot can see; never threads, DMs, reactions, pins, channels or roles', async () => {
  const w = await world(['messages.read', 'members.read'], P.VER_CANAL | P.ENVIAR_MENSAGENS | P.GERENCIAR_CANAIS);
  const s = await connect(w.info.botToken, 'websocket');
  const secret = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'secreto' } });
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${secret.body.channel.id}/overwrites/${w.info.app.botUserId}`, { token: w.owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${secret.body.channel.id}/messages`, { token: w.owner.token, body: { content: 'não veja' } });
  const rootEvent = next(s, 'MESSAGE_CREATE');
  const root = await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'raiz' } });
  assert.equal((await rootEvent).content, 'raiz', 'the secret channel sent nothing before it');
  s.received.length = 0;
  const thread = await api(srv.url, 'POST', `${w.url}/${root.body.message.id}/threads`, { token: w.owner.token, body: { name: 't' } });
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${thread.body.channel.id}/messages`, { token: w.owner.token, body: { content: 'na thread' } });
  await api(srv.url, 'POST', `${w.url}/${root.body.message.id}/react`, { token: w.owner.token, body: { emoji: '👍' } });
  await api(srv.url, 'POST', `${w.url}/${root.body.message.id}/pin`, { token: w.owner.token });
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'novo' } });
  await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: 'papel' } });
  const dm = await api(srv.url, 'POST', '/api/users/@me/dms', { token: w.owner.token, body: { userId: w.members[0].user.id } });
  await api(srv.url, 'POST', `/api/dms/${dm.body.channel.id}/messages`, { token: w.owner.token, body: { content: 'privado' } });
  await quiet(600);
  assert.deepEqual(s.received, []);
});

test("PRESENCE_UPDATE: the people of a bot's servers see it come, change its status and go, live; nobody else, and never bots", async () => {
  const w = await world();
  const bot = w.info.app.botUserId;
  const person = await connect(w.members[0].token);
  const stranger = await connect((await serverWithMembers(srv.url, 0)).owner.token);
  const other = await world(); // another bot, in another server
  const otherBot = await connect(other.info.botToken);
  // On several nodes a node's first connection of the bot says "online" again: the same status
  // twice in a row counts once.
  const seen = (s) => s.received.filter((e) => e.name === 'PRESENCE_UPDATE' && e.payload.userId === bot)
    .map((e) => e.payload.status).filter((x, i, all) => i === 0 || x !== all[i - 1]);
  const first = await connect(w.info.botToken, 'websocket');
  await eventually(() => seen(person).join() === 'online' || seen(person), 5000, 'online');
  assert.deepEqual(person.received.find((e) => e.name === 'PRESENCE_UPDATE').payload, { userId: bot, status: 'online', activity: null });
  const second = await connect(w.info.botToken, 'default');
  await api(srv.url, 'PUT', '/api/bot/presence', { token: w.info.botToken, body: { status: 'idle' } });
  await eventually(() => seen(person).join() === 'online,idle' || seen(person), 5000, 'idle; a second connection says nothing');
  first.close();
  await quiet(400);
  assert.deepEqual(seen(person), ['online', 'idle'], 'one connection is left');
  second.close();
  await eventually(() => seen(person).join() === 'online,idle,offline' || seen(person), 5000, 'offline');
  assert.deepEqual(seen(stranger), [], 'not in its servers');
  assert.deepEqual(otherBot.received.filter((e) => e.name === 'PRESENCE_UPDATE'), [], 'bots get none');
});

test('presence: online with one or two connections (on any node), the saved status, offline when the last drops', async () => {
  const w = await world();
  const status = async () => (await api(srv.url, 'GET', `/api/servers/${w.sid}/members`, { token: w.owner.token })).body.members.find((m) => m.userId === w.info.app.botUserId).status;
  // On several nodes a connection shows on the others within a moment, not at once.
  const becomes = (want, why) => eventually(async () => { const got = await status(); return got === want || got; }, 2500, why || want);
  assert.equal(await status(), 'offline');
  const a = await connect(w.info.botToken, 'websocket');
  const b = await connect(w.info.botToken, 'default');
  await becomes('online');
  const saved = await api(srv.url, 'PUT', '/api/bot/presence', { token: w.info.botToken, body: { status: 'dnd', activity: { type: 'playing', name: 'xadrez' } } });
  assert.deepEqual(saved.body, { presence: { status: 'dnd', activity: { type: 'playing', name: 'xadrez' }, connected: true } });
  for (let i = 0; i < 4; i++) assert.equal(await status(), 'dnd', 'saved through any node, shown by all at once');
  a.close();
  await quiet(300);
  assert.equal(await status(), 'dnd', 'one connection is left');
  assert.equal(await status(), 'dnd', 'one connection is left');
  b.close();
  await becomes('offline');
  const again = await connect(w.info.botToken, 'websocket');
  await becomes('dnd', 'the saved status comes back with the bot');
  await api(srv.url, 'PUT', '/api/bot/presence', { token: w.info.botToken, body: { status: 'invisible' } });
  assert.equal(await status(), 'offline');
  assert.equal(await status(), 'offline');
  again.close();
  for (const [body, path] of [[{ status: 'away' }, 'status'], [{}, 'status'], [{ status: 'idle', activity: { type: 'coding', name: 'x' } }, 'activity.type'], [{ status: 'idle', activity: { type: 'playing', name: 'x'.repeat(129) } }, 'name']]) {
    const r = await api(srv.url, 'PUT', '/api/bot/presence', { token: w.info.botToken, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.ok(r.body.error.startsWith(path + ': '), r.body.error);
  }
  assert.equal((await api(srv.url, 'PUT', '/api/bot/presence', { token: w.owner.token, body: { status: 'idle' } })).status, 403);
});

test('rotation, deletion and logout close connections with a server disconnect; suspension within 2 s', async () => {
  const w = await world();
  for (const mode of ['websocket', 'default']) {
    const s = await connect(w.info.botToken, mode);
    const gone = next(s, 'disconnect', 3000, `(rotation, ${mode}, ${s.io.engine.transport.name})`);
    const r = await api(srv.url, 'POST', `/api/applications/${w.info.app.id}/bot/token/rotate`, { token: w.owner.token });
    assert.equal(await gone, 'io server disconnect', mode);
    assert.equal(s.active, false, 'no reconnection');
    w.info.botToken = r.body.token;
  }
  await assert.rejects(connect('old-token-does-not-work'), (e) => e.message === 'Token inválido');
  const s = await connect(w.info.botToken, 'websocket');
  const gone = next(s, 'disconnect', 3000, '(suspension)');
  const run = spawnSync(BIN, ['admin', 'suspend', w.info.app.id, '--reason', 'teste', ...srv.storeArgs], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(await gone, 'io server disconnect');
  await assert.rejects(connect(w.info.botToken), (e) => e.message === 'Token inválido', 'a suspended app is refused');
  spawnSync(BIN, ['admin', 'unsuspend', w.info.app.id, ...srv.storeArgs]);
  // Another process's change reaches the server within a second.
  let back;
  await eventually(async () => {
    back = await connect(w.info.botToken, 'websocket').catch((e) => e.message);
    return typeof back !== 'string' || back;
  }, 2500, 'unsuspension seen by the gateway');
  const deleted = next(back, 'disconnect', 3000, '(deletion)');
  await api(srv.url, 'DELETE', `/api/applications/${w.info.app.id}`, { token: w.owner.token });
  assert.equal(await deleted, 'io server disconnect');
  // People connect with their session token; logout closes that session's connections only.
  const login = await api(srv.url, 'POST', '/api/auth/login', { body: { username: w.owner.user.username, password: w.owner.password } });
  const p1 = await connect(w.owner.token, 'websocket');
  const p2 = await connect(login.body.token, 'default');
  const p1gone = next(p1, 'disconnect', 3000, '(logout)');
  await api(srv.url, 'POST', '/api/auth/logout', { token: w.owner.token });
  assert.equal(await p1gone, 'io server disconnect');
  await quiet(300);
  assert.equal(p2.connected, true);
});

test('one account holds at most 32 gateway connections: the 33rd is refused with the reason, and room comes back as one closes', async () => {
  const w = await world();
  // The cap is per node: every connection of this test goes to one node.
  const one = srv.nodes ? srv.nodes[srv.nodes.length - 1].url : srv.url;
  const connect = (token) => gatewayConnect(one, { auth: { token }, transports: ['websocket'] }, sockets);
  const mine = [];
  for (let i = 0; i < 32; i++) mine.push(await connect(w.info.botToken));
  const refused = await connect(w.info.botToken).then(() => null, (e) => e);
  assert.ok(refused, 'the 33rd is refused');
  assert.match(refused.message, /^Conexões demais para esta conta neste servidor \(no máximo 32\)/);
  const person = await connect(w.owner.token);
  assert.equal(person.connected, true, 'another account is not held back');
  mine.pop().disconnect();
  await eventually(async () => {
    const s = await connect(w.info.botToken).catch(() => null);
    if (s) mine.push(s);
    return Boolean(s);
  }, 5000, 'a new one once one left');
  for (const s of mine) s.disconnect();
});

test('polling only works too, and a peer that stops answering pings is dropped', async () => {
  const w = await world();
  const s = await connect(w.info.botToken, 'default', { transports: ['polling'] });
  const got = next(s, 'MESSAGE_CREATE');
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'por polling' } });
  assert.equal((await got).content, 'por polling');
  await quiet(4500);
  assert.equal(s.connected, true, 'pings answered: still connected after two intervals');
  // A raw WebSocket that never answers the server's ping, on a server with a short heartbeat.
  const fast = await startServer({ args: ['--ping-interval-ms', '400', '--ping-timeout-ms', '300'] });
  const dead = await new Promise((resolve) => {
    const sock = net.connect(fast.port, '127.0.0.1', () => {
      sock.write('GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
    });
    let data = '';
    const started = Date.now();
    sock.on('data', (d) => { data += d.toString('latin1'); });
    sock.on('close', () => resolve({ data, ms: Date.now() - started }));
  });
  assert.match(dead.data, /^HTTP\/1\.1 101 /);
  assert.match(dead.data, /s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=/, 'the RFC 6455 accept key');
  assert.match(dead.data, /0\{"sid":"[\w-]+","upgrades":\[\],"pingInterval":400,"pingTimeout":300,"maxPayload":1000000\}/);
  assert.ok(dead.ms >= 650 && dead.ms < 3000, `dropped after ${dead.ms} ms`);
  await fast.stop();
});

test('Engine.IO errors: protocol version, transport, session, handshake method', async () => {
  const get = (q, method = 'GET') => api(srv.url, method, `/socket.io/?${q}`);
  const v3 = await get('EIO=3&transport=polling');
  assert.equal(v3.status, 400);
  assert.deepEqual(v3.body, { code: 5, message: 'Unsupported protocol version' });
  assert.deepEqual((await get('EIO=4&transport=carrier-pigeon')).body, { code: 0, message: 'Transport unknown' });
  assert.deepEqual((await get('EIO=4&transport=polling&sid=nope')).body, { code: 1, message: 'Session ID unknown' });
  assert.deepEqual((await get('EIO=4&transport=polling', 'POST')).body, { code: 2, message: 'Bad handshake method' });
  assert.deepEqual((await get('EIO=4&transport=websocket')).body, { code: 3, message: 'Bad request' }, 'websocket without Upgrade');
  const open = await get('EIO=4&transport=polling');
  assert.equal(open.status, 200);
  assert.match(open.headers.get('content-type'), /^text\/plain/);
  const sid = JSON.parse(open.text.slice(1)).sid;
  const bad = await api(srv.url, 'POST', `/socket.io/?EIO=4&transport=polling&sid=${sid}`, { raw: '4abc', headers: { 'content-type': 'text/plain' } });
  assert.equal(bad.text, 'ok');
  assert.equal((await get(`EIO=4&transport=polling&sid=${sid}`)).text, '1', 'a bad Socket.IO packet closes the session');
});

test('SIGTERM closes transports without a Socket.IO disconnect: clients come back by themselves after a restart', async () => {
  const s1 = await startServer();
  const w = await serverWithMembers(s1.url, 0);
  const info = await appWithBot(s1.url, w.owner, { intents: ['messages.read'] });
  await install(s1.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const clients = [];
  for (const mode of ['websocket', 'default']) {
    const c = io(s1.url, { auth: { token: info.botToken }, reconnectionDelay: 300, reconnectionDelayMax: 600, ...MODES[mode] });
    await new Promise((r) => c.once('connect', r));
    clients.push(c);
  }
  const reasons = Promise.all(clients.map((c) => new Promise((r) => c.once('disconnect', r))));
  s1.proc.kill('SIGTERM');
  assert.deepEqual(await reasons, ['transport close', 'transport close']);
  assert.equal((await s1.exited).code, 0);
  assert.ok(clients.every((c) => c.active), 'still trying to reconnect');
  const back = Promise.all(clients.map((c) => new Promise((r) => c.once('connect', r))));
  const s2 = await startServer({ dir: s1.dir, args: ['--port', String(s1.port)] });
  try {
    await back;
    const got = Promise.all(clients.map((c) => next(c, 'MESSAGE_CREATE', 5000)));
    await api(s2.url, 'POST', `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`, { token: w.owner.token, body: { content: 'depois do deploy' } });
    for (const m of await got) assert.equal(m.content, 'depois do deploy');
  } finally {
    clients.forEach((c) => c.close());
    const r = await s2.stop();
    assert.equal(r.code, 0, s2.stderr);
  }
});

test('while draining, a new handshake gets 503 (a transport error clients retry), not a refused CONNECT', async () => {
  const s1 = await startServer();
  // A polling session that has not collected its close keeps the drain in its grace period.
  const open = await (await fetch(`${s1.url}/socket.io/?EIO=4&transport=polling`)).text();
  const sid = JSON.parse(open.slice(1)).sid;
  s1.proc.kill('SIGTERM');
  await quiet(150);
  const r = await fetch(`${s1.url}/socket.io/?EIO=4&transport=polling`);
  assert.equal(r.status, 503);
  assert.equal(r.headers.get('retry-after'), '1');
  assert.equal((await r.json()).error, 'Servidor encerrando; reconecte em instantes');
  assert.equal(await (await fetch(`${s1.url}/socket.io/?EIO=4&transport=polling&sid=${sid}`)).text(), '1', 'the old session collects its close');
  assert.equal((await s1.exited).code, 0);
});

test('a bot that stops reading is dropped once over 1 MiB waits for it; memory stays bounded', async () => {
  // One process's memory, watched through its own presence: one node.
  const s2 = await startServer({ args: ['--rate-limit-scale', '10000'], single: true });
  try {
    const owner = await register(s2.url);
    const created = await api(s2.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'lento' } });
    const sid = created.body.server.id, cid = created.body.channels[0].id;
    const info = await appWithBot(s2.url, owner, { intents: ['messages.read'] });
    await install(s2.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
    const WebSocket = require('ws');
    const ws = new WebSocket(`${s2.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    await new Promise((resolve) => ws.on('message', (d) => {
      const t = d.toString();
      if (t[0] === '0') ws.send(`40${JSON.stringify({ token: info.botToken })}`);
      if (t.startsWith('40')) resolve();
    }));
    ws._socket.pause(); // reads nothing from now on
    const status = async () => (await api(s2.url, 'GET', `/api/servers/${sid}/members`, { token: owner.token })).body.members.find((m) => m.userId === info.app.botUserId).status;
    assert.equal(await status(), 'online');
    const big = { content: 'x'.repeat(4000), embeds: Array.from({ length: 10 }, () => ({ description: 'y'.repeat(600) })) };
    let sent = 0;
    while ((await status()) === 'online' && sent < 4000) {
      await Promise.all(Array.from({ length: 50 }, () => api(s2.url, 'POST', `/api/bot/servers/${sid}/channels/${cid}/messages`, { token: info.botToken, body: big })));
      sent += 50;
    }
    assert.equal(await status(), 'offline', `still connected after ${sent} events of ~10 KB`);
    const rss = Number(require('node:fs').readFileSync(`/proc/${s2.proc.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
    assert.ok(rss < 400 * 1024, `RSS ${rss} KiB`);
    ws.terminate();
  } finally { await s2.stop(); }
});

test('connection-state recovery (opt-in): a short drop, then the missed events arrive', async () => {
  const w = await world();
  const s = io(srv.url, { auth: { token: w.info.botToken, recovery: true }, transports: ['websocket'], reconnectionDelay: 200, reconnectionDelayMax: 400 });
  sockets.push(s);
  const seen = [];
  s.on('MESSAGE_CREATE', (m, offset) => seen.push({ content: m.content, offset }));
  await new Promise((r) => s.on('connect', r));
  assert.equal(s.recovered, false);
  const first = next(s, 'MESSAGE_CREATE');
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'antes' } });
  await first;
  assert.match(seen[0].offset, /^\d+$/, 'opted-in connections get an offset as the last argument');
  const dropped = next(s, 'disconnect');
  s.io.engine.close(); // the transport drops; the client reconnects by itself
  await dropped;
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'perdida 1' } });
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'perdida 2' } });
  await next(s, 'connect', 5000);
  assert.equal(s.recovered, true);
  await eventually(() => seen.length >= 3 || seen, 5000, 'the missed events');
  await quiet(300); // and nothing more
  assert.deepEqual(seen.map((e) => e.content), ['antes', 'perdida 1', 'perdida 2']);
  const after = next(s, 'MESSAGE_CREATE');
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'depois' } });
  assert.equal((await after).content, 'depois');
  // A kick is not recoverable, and without opting in there is no offset.
  s.close();
  const plain = await connect(w.info.botToken, 'websocket');
  const plainEvent = new Promise((r) => plain.on('MESSAGE_CREATE', (...args) => r(args)));
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'simples' } });
  assert.equal((await plainEvent).length, 1);
});

test('a quick resume judges who may see what now: a channel hidden while away keeps its events', async () => {
  const w = await world();
  const other = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'outro' } })).body.channel.id;
  const s = io(srv.url, { auth: { token: w.info.botToken, recovery: true }, transports: ['websocket'], reconnection: false });
  sockets.push(s);
  let offset;
  s.on('MESSAGE_CREATE', (m, o) => { offset = o; });
  await new Promise((r) => s.on('connect', r));
  const first = next(s, 'MESSAGE_CREATE');
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'antes' } });
  await first;
  const pid = s._pid;
  assert.match(pid, /.+/);
  const dropped = next(s, 'disconnect');
  s.io.engine.close(); // a drop: the session is kept for a quick resume
  await dropped;
  await api(srv.url, 'POST', w.url, { token: w.owner.token, body: { content: 'escondida' } });
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${other}/messages`, { token: w.owner.token, body: { content: 'visível' } });
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${w.cid}/overwrites/${w.info.app.botUserId}`, { token: w.owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const { ws, events, connect: accepted } = await rawResume(srv.url, w.info.botToken, pid, offset);
  try {
    assert.equal(accepted.pid, pid, 'the same session, resumed');
    await eventually(() => events.some((e) => e[1] && e[1].content === 'visível') || events, 5000, 'the visible one');
    await quiet(300);
    assert.deepEqual(events.filter((e) => e[0] === 'MESSAGE_CREATE').map((e) => e[1].content), ['visível'], 'not the hidden channel\'s');
  } finally { ws.close(); }
});

test('after a restart, bots are known from the start: valid ones connect, a suspended one does not', async () => {
  const s2 = await startServer();
  const owner = await register(s2.url);
  const good = await appWithBot(s2.url, owner, { name: 'Robô Bom' });
  const held = await appWithBot(s2.url, owner, { name: 'Robô Suspenso' });
  await s2.stop();
  const run = (...args) => spawnSync(BIN, ['admin', ...args, ...s2.storeArgs], { encoding: 'utf8' });
  assert.equal(run('suspend', held.app.id, '--reason', 'teste').status, 0);
  const s3 = await startServer({ dir: s2.dir });
  try {
    const ok = await gatewayConnect(s3.url, { auth: { token: good.botToken }, transports: ['websocket'] }, sockets);
    assert.equal(ok.connected, true);
    await assert.rejects(gatewayConnect(s3.url, { auth: { token: held.botToken }, transports: ['websocket'] }, sockets),
      /Token inválido/);
    await assert.rejects(gatewayConnect(s3.url, { auth: { token: 'x' + good.botToken }, transports: ['websocket'] }, sockets),
      /Token inválido/);
    assert.equal(run('unsuspend', held.app.id).status, 0);
    await eventually(async () => {
      const s = await gatewayConnect(s3.url, { auth: { token: held.botToken }, transports: ['websocket'] }, sockets).catch(() => null);
      return Boolean(s && s.connected);
    }, 2500, 'the unsuspended bot connects');
    for (const s of sockets) s.close();
  } finally { await s3.stop(); }
});

test('a client that floods events is disconnected (io server disconnect); a normal one is not', async () => {
  const s2 = await startServer();
  try {
    const owner = await register(s2.url);
    const calm = await appWithBot(s2.url, owner, { name: 'Robô Calmo' });
    const loud = await appWithBot(s2.url, owner, { name: 'Robô Barulhento' });
    const a = await gatewayConnect(s2.url, { auth: { token: calm.botToken }, transports: ['websocket'] }, sockets);
    const b = await gatewayConnect(s2.url, { auth: { token: loud.botToken }, transports: ['websocket'] }, sockets);
    const gone = new Promise((resolve) => b.on('disconnect', resolve));
    for (let i = 0; i < 100; i++) a.emit('qualquer', i);
    for (let i = 0; i < 2000 && b.connected; i++) b.emit('qualquer', i);
    assert.equal(await gone, 'io server disconnect');
    await quiet(200);
    assert.equal(a.connected, true, 'the calm one stays');
    a.close();
  } finally { await s2.stop(); }
});

test('new sessions come at --sessions-per-second: past a second\'s worth, 503 with Retry-After, and again a moment later', async () => {
  const s2 = await startServer({ args: ['--sessions-per-second', '5'] });
  try {
    const handshake = () => fetch(`${s2.url}/socket.io/?EIO=4&transport=polling`).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), text: await r.text() }));
    const t0 = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, handshake));
    const seconds = (Date.now() - t0) / 1000;
    const ok = answers.filter((a) => a.status === 200).length;
    assert.ok(ok >= 5 && ok <= 5 + Math.ceil(seconds * 5), `${ok} admitted in ${seconds} s: ${answers.map((a) => a.status).join()}`);
    const busy = answers.find((a) => a.status === 503);
    assert.ok(busy, 'past the pace');
    assert.equal(busy.retry, '1');
    assert.match(busy.text, /Too many new sessions/);
    await quiet(1100);
    assert.equal((await handshake()).status, 200, 'a moment later');
  } finally { await s2.stop(); }
});

test('tickets come at the same pace: past a second\'s worth, 503 with Retry-After before a ticket is made', async () => {
  const s2 = await startServer({ args: ['--sessions-per-second', '5'] });
  try {
    const people = await Promise.all(Array.from({ length: 3 }, () => register(s2.url)));
    const ticket = (p) => fetch(`${s2.url}/api/gateway/ticket`, { method: 'POST', headers: { authorization: `Bearer ${p.token}` } })
      .then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), text: await r.text() }));
    const t0 = Date.now();
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => ticket(people[i % 3])));
    const seconds = (Date.now() - t0) / 1000;
    const ok = answers.filter((a) => a.status === 200).length;
    assert.ok(ok >= 5 && ok <= 5 + Math.ceil(seconds * 5), `${ok} tickets in ${seconds} s: ${answers.map((a) => a.status).join()}`);
    const busy = answers.find((a) => a.status === 503);
    assert.ok(busy, 'past the pace');
    assert.equal(busy.retry, '1');
    assert.match(busy.text, /Muitas conexões sendo abertas agora/);
    await quiet(1100);
    assert.equal((await ticket(people[0])).status, 200, 'a moment later');
  } finally { await s2.stop(); }
});

test('Engine.IO sessions are capped like connections: polling handshakes past it get 503', async () => {
  const s2 = await startServer({ args: ['--max-connections', '20'] });
  try {
    const handshake = () => fetch(`${s2.url}/socket.io/?EIO=4&transport=polling`).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), text: await r.text() }));
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await handshake());
    assert.equal(answers.filter((a) => a.status === 200).length, 20, answers.map((a) => a.status).join());
    const busy = answers.at(-1);
    assert.equal(busy.status, 503);
    assert.equal(busy.retry, '1');
    assert.match(busy.text, /Too many sessions/);
  } finally { await s2.stop(); }
});
