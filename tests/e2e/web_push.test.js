// Web Push through a real push service on the loopback: a device subscribes, and a DM and a
// mention reach it once each, encrypted (RFC 8291) and signed (VAPID), naming who and where;
// what the person muted, set to "nothing" or "only mentions", reads now, or wrote, does not; a
// 410 forgets the subscription; and the routes refuse what is not a subscription or a setting.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { api, register, serverWithMembers, gatewayConnect, eventually, quiet, sharedServer } = require('./helpers');
const { startPushService } = require('./push_service');

const sockets = [];
const srv = sharedServer({ args: ['--allow-private-endpoints', '--rate-limit-scale', '100'] }, sockets);
const call = (who, method, path, body, node) => api(srv.url, method, path, { token: who.token, body, node });
let push;
test.before(async () => { push = await startPushService(); });
test.after(() => push.close());

async function device(who) {
  const key = await call(who, 'GET', '/api/push/key');
  assert.equal(key.status, 200);
  assert.match(key.body.publicKey, /^B[A-Za-z0-9_-]{86}$/, 'an uncompressed P-256 point, base64url');
  const sub = await push.subscribe(key.body.publicKey);
  const r = await call(who, 'PUT', '/api/users/@me/push-subscriptions', { endpoint: sub.endpoint, keys: sub.keys });
  assert.equal(r.status, 200, r.text);
  return sub;
}

// Two nodes: the other node has told Redis (through its presence thread) that a page of who's
// shows room, or no longer does. One node: nothing to wait for.
async function readingKnown(who, room, shown) {
  if (!srv.nodes) return;
  const redis = (...args) => spawnSync('redis-cli', ['-u', process.env.PRACA_TEST_REDIS, ...args], { encoding: 'utf8' }).stdout;
  await eventually(() => {
    const keys = redis('--scan', '--pattern', 'praca:*:reading:*').split('\n').filter(Boolean);
    const rooms = keys.map((k) => redis('HGET', k, who.user.id)).join(',');
    return rooms.includes(room) === shown;
  }, 5000, `reading ${shown}`);
}

const send = (who, sid, cid, content, node) => call(who, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { content }, node);
// Waits until the device got n pushes in all, then a little longer to see that no more come.
async function pushes(sub, n) {
  await eventually(() => push.messages(sub).length >= n || push.messages(sub).length, 5000, `${n} pushes`);
  await quiet(300);
  const all = push.messages(sub);
  assert.equal(all.length, n, JSON.stringify(all));
  return all;
}

test('a DM and a mention reach the device once each, saying who and where; a plain message and one\'s own do not', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const sub = await device(bia);
  const dm = (await call(ana, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
  const sent = await call(ana, 'POST', `/api/dms/${dm.id}/messages`, { content: 'Oi Bia!\nSegunda linha' });
  assert.equal(sent.status, 200);
  let [n] = await pushes(sub, 1);
  assert.deepEqual([n.kind, n.serverId, n.channelId, n.messageId, n.author.id, n.text],
    ['dm', null, dm.id, sent.body.message.id, ana.user.id, 'Oi Bia!']);
  assert.equal(n.author.name, ana.user.displayName);
  // The push service saw a VAPID-signed request and decrypted the same text.
  const seen = push.received.filter((m) => m.hash === sub.hash);
  assert.match(seen[0].headers.authorization, /^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=B[\w-]{86}$/);
  assert.equal(seen[0].headers.encoding, 'aes128gcm');
  assert.deepEqual(push.model.getNotifications({ clientHash: sub.hash }).messages.map((t) => JSON.parse(t).text), ['Oi Bia!']);

  // In the server: a plain message tells nobody (servers notify mentions by default); a mention does.
  assert.equal((await send(ana, sid, cid, 'bom dia, pessoal')).status, 200);
  const mention = await send(ana, sid, cid, `@${bia.user.username} olha isto`);
  [, n] = await pushes(sub, 2);
  assert.deepEqual([n.kind, n.serverId, n.channelId, n.messageId, n.serverName, n.roomName],
    ['mention', sid, cid, mention.body.message.id, server.server.name, server.channels[0].name]);
  // Bia's own messages tell her nothing.
  assert.equal((await call(bia, 'POST', `/api/dms/${dm.id}/messages`, { content: 'eu mesma' })).status, 200);
  assert.equal((await send(bia, sid, cid, `@${bia.user.username} nota para mim`)).status, 200);
  await pushes(sub, 2);
});

test('levels and mutes: nothing, everything, a channel\'s own level, @everyone suppressed, a mute', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const sub = await device(bia);
  const set = (path, body) => call(bia, 'PUT', path, body);
  const serverPath = `/api/servers/${sid}/notification-settings`;
  const channelPath = `/api/servers/${sid}/channels/${cid}/notification-settings`;
  let r = await set(channelPath, { level: 'nothing' });
  assert.deepEqual(r.body, { scopeId: cid, level: 'nothing', mutedUntil: 0, suppressEveryone: false, suppressRoles: false });
  await send(ana, sid, cid, `@${bia.user.username} ninguém ouve`);
  await pushes(sub, 0);
  // Everything from the server, the channel following it.
  assert.equal((await set(channelPath, { level: 'default' })).status, 200);
  assert.equal((await set(serverPath, { level: 'all' })).status, 200);
  await send(ana, sid, cid, 'uma conversa qualquer');
  const [n] = await pushes(sub, 1);
  assert.deepEqual([n.kind, n.text], ['message', 'uma conversa qualquer']);
  // Only mentions, and @everyone suppressed: @everyone tells nothing, a name still does.
  assert.equal((await set(serverPath, { level: 'mentions', suppressEveryone: true })).status, 200);
  await send(ana, sid, cid, 'outra conversa');
  await send(ana, sid, cid, '@everyone reunião agora');
  await pushes(sub, 1);
  await send(ana, sid, cid, `@${bia.user.username} você vem?`);
  await pushes(sub, 2);
  // Muted for an hour: nothing, a mention included; unmuted: mentions again.
  r = await set(serverPath, { muteHours: 1 });
  assert.ok(r.body.mutedUntil > Date.now() + 59 * 60 * 1000, JSON.stringify(r.body));
  await send(ana, sid, cid, `@${bia.user.username} silêncio`);
  await pushes(sub, 2);
  assert.equal((await set(serverPath, { muteHours: 0 })).status, 200);
  await send(ana, sid, cid, `@${bia.user.username} de volta`);
  await pushes(sub, 3);
  const all = (await call(bia, 'GET', '/api/users/@me/notification-settings')).body.settings;
  assert.deepEqual(all[sid], { level: 'mentions', mutedUntil: 0, suppressEveryone: true, suppressRoles: false });
  assert.equal(all[cid], undefined, 'a channel back to its defaults keeps no row');
});

test('"não perturbe" silences DMs; a page reading the room silences it; a channel one cannot see tells nothing', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const sub = await device(bia);
  // A page of Bia's that shows the channel; with two nodes, on the other node than the sends'.
  const t = await call(bia, 'POST', '/api/gateway/ticket', undefined, 1);
  const url = srv.nodes ? srv.nodes[1].url : srv.url;
  const page = await gatewayConnect(url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
  assert.deepEqual(await page.emitWithAck('channel:view', { channelId: cid }), { ok: true });
  await readingKnown(bia, cid, true);
  await send(ana, sid, cid, `@${bia.user.username} você está vendo`, 0);
  await pushes(sub, 0);
  assert.deepEqual(await page.emitWithAck('channel:view', { channelId: null }), { ok: true });
  await readingKnown(bia, cid, false);
  await send(ana, sid, cid, `@${bia.user.username} agora não`, 0);
  await pushes(sub, 1);
  page.disconnect();
  // Do not disturb: a DM tells nothing.
  assert.equal((await call(bia, 'PUT', '/api/users/@me/presence', { status: 'dnd' })).status, 200);
  const dm = (await call(ana, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
  await call(ana, 'POST', `/api/dms/${dm.id}/messages`, { content: 'psiu' });
  await pushes(sub, 1);
  assert.equal((await call(bia, 'PUT', '/api/users/@me/presence', { status: 'online' })).status, 200);
  // A channel Bia cannot see: a mention of her there tells her nothing.
  const hidden = await call(ana, 'POST', `/api/servers/${sid}/channels`, { name: 'segredo', type: 'text' });
  assert.equal(hidden.status, 201, hidden.text);
  const closed = await call(ana, 'PUT', `/api/servers/${sid}/channels/${hidden.body.channel.id}/overwrites/${sid}`,
    { type: 'role', deny: String(1 << 8) }); // VER_CANAL
  assert.equal(closed.status, 200, closed.text);
  await send(ana, sid, hidden.body.channel.id, `@${bia.user.username} segredo`);
  await pushes(sub, 1);
});

test('a 410 forgets the subscription; a device signed in as someone else becomes theirs; the newest ten stay', async () => {
  const { owner: ana, members: [bia, caio] } = await serverWithMembers(srv.url, 2);
  const sub = await device(bia);
  push.expire(sub);
  const dm = (await call(ana, 'POST', '/api/users/@me/dms', { userId: bia.user.id })).body.channel;
  await call(ana, 'POST', `/api/dms/${dm.id}/messages`, { content: 'alô?' });
  await eventually(async () => (await call(bia, 'GET', '/api/users/@me/push-subscriptions')).body.subscriptions.length === 0,
    5000, 'the subscription forgotten');
  // The same endpoint registered by Caio is his now, and no longer Bia's.
  const shared = await device(bia);
  const again = await call(caio, 'PUT', '/api/users/@me/push-subscriptions', { endpoint: shared.endpoint, keys: shared.keys });
  assert.equal(again.status, 200);
  assert.deepEqual((await call(bia, 'GET', '/api/users/@me/push-subscriptions')).body.subscriptions, []);
  assert.equal((await call(caio, 'GET', '/api/users/@me/push-subscriptions')).body.subscriptions[0].endpoint, shared.endpoint);
  // Eleven devices: the first goes.
  const subs = [];
  for (let i = 0; i < 11; i++) subs.push(await device(bia));
  const listed = (await call(bia, 'GET', '/api/users/@me/push-subscriptions')).body.subscriptions.map((s) => s.endpoint);
  assert.equal(listed.length, 10);
  assert.ok(!listed.includes(subs[0].endpoint) && listed.includes(subs[10].endpoint));
  assert.equal((await call(bia, 'DELETE', '/api/users/@me/push-subscriptions', { endpoint: subs[10].endpoint })).status, 200);
  const gone = await call(bia, 'DELETE', '/api/users/@me/push-subscriptions', { endpoint: subs[10].endpoint });
  assert.deepEqual([gone.status, gone.body.error], [404, 'Este aparelho não está inscrito']);
  // Signed out everywhere: no device of hers hears of her any more.
  assert.equal((await call(bia, 'POST', '/api/auth/logout-everywhere')).status, 200);
  await call(ana, 'POST', `/api/dms/${dm.id}/messages`, { content: 'ainda aí?' });
  await quiet(500);
  assert.deepEqual(subs.slice(1, 10).map((s) => push.messages(s).length), Array(9).fill(0));
  const login = await api(srv.url, 'POST', '/api/auth/login', { body: { username: bia.user.username, password: bia.password } });
  assert.deepEqual((await call({ token: login.body.token }, 'GET', '/api/users/@me/push-subscriptions')).body.subscriptions, []);
});

test('the routes refuse what is not a subscription or a setting', async () => {
  const { sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const stranger = await register(srv.url);
  const cid = server.channels[0].id;
  const key = (await call(bia, 'GET', '/api/push/key')).body.publicKey;
  const good = await push.subscribe(key);
  const bad = async (body, error) => {
    const r = await call(bia, 'PUT', '/api/users/@me/push-subscriptions', body);
    assert.deepEqual([r.status, r.body.error], [400, error], JSON.stringify(body));
  };
  await bad({ keys: good.keys }, 'endpoint: obrigatório');
  await bad({ endpoint: 'ftp://push.example/x', keys: good.keys }, 'endpoint: deve ser um endereço https://');
  await bad({ endpoint: 'https://' + 'a'.repeat(1100), keys: good.keys }, 'endpoint: deve ter entre 1 e 1024 caracteres');
  await bad({ endpoint: good.endpoint, keys: { auth: good.keys.auth } }, 'keys.p256dh: deve ser a chave que o navegador deu (base64url)');
  await bad({ endpoint: good.endpoint, keys: { p256dh: good.keys.p256dh, auth: 'AAAA' } }, 'keys.auth: deve ser a chave que o navegador deu (base64url)');
  const offCurve = Buffer.from(good.keys.p256dh, 'base64url');
  offCurve[40] ^= 1;
  await bad({ endpoint: good.endpoint, keys: { p256dh: offCurve.toString('base64url'), auth: good.keys.auth } }, 'keys.p256dh: não é um ponto da curva P-256');
  const setting = async (path, body, status, error) => {
    const r = await call(bia, 'PUT', path, body);
    assert.deepEqual([r.status, r.body.error], [status, error], JSON.stringify(body));
  };
  const serverPath = `/api/servers/${sid}/notification-settings`;
  const channelPath = `/api/servers/${sid}/channels/${cid}/notification-settings`;
  await setting(serverPath, { level: 'loud' }, 400, 'level: deve ser default, all, mentions ou nothing');
  await setting(serverPath, { muteHours: 2 }, 400, 'muteHours: deve ser 0, 1, 8, 24 ou -1 (até reativar)');
  await setting(channelPath, { suppressEveryone: true }, 400, 'suppressEveryone: só vale para um servidor');
  const r = await call(stranger, 'PUT', serverPath, { level: 'all' });
  assert.equal(r.status, 404, 'a server one is not in');
  const forever = await call(bia, 'PUT', channelPath, { muteHours: -1 });
  assert.deepEqual([forever.status, forever.body.mutedUntil], [200, -1]);
});

test('a reminder reaches its person\'s device when due, even while "não perturbe"; nobody else\'s', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const sub = await device(bia);
  const other = await device(ana);
  await call(bia, 'PUT', '/api/users/@me/presence', { status: 'dnd' });
  const m = (await send(ana, sid, cid, 'A entrega é sexta')).body.message;
  const soon = () => new Date(Date.now() + 1200).toISOString();
  assert.equal((await call(bia, 'POST', '/api/users/@me/reminders', { messageId: m.id, remindAt: soon() })).status, 201);
  const [n] = await pushes(sub, 1);
  assert.deepEqual([n.kind, n.messageId, n.serverId, n.channelId, n.text], ['reminder', m.id, sid, cid, 'A entrega é sexta']);
  assert.equal((await call(bia, 'POST', '/api/users/@me/reminders', { note: 'ligar para a Ana', remindAt: soon() })).status, 201);
  const both = await pushes(sub, 2);
  assert.deepEqual([both[1].kind, both[1].messageId, both[1].channelId, both[1].text], ['reminder', null, null, 'ligar para a Ana']);
  assert.deepEqual(push.messages(other), [], 'only its person\'s devices');
});
