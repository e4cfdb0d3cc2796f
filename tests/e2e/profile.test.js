// A person's profile: the name others see (any script, no control or format characters), a
// short "about" and a banner colour, set with PATCH /api/users/@me; a new name reaches the pages
// of the people who share a server at once.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, serverWithMembers, gatewayConnect, nextEvent, sharedServer } = require('./helpers');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);
const patch = (who, body) => api(srv.url, 'PATCH', '/api/users/@me', { token: who.token, body });
const refused = async (who, body, error) => {
  const r = await patch(who, body);
  assert.deepEqual([r.status, r.body.error], [400, error], JSON.stringify(body));
};

test('the name, about and banner colour: set, shown, cleared; what cannot be a name is refused', async () => {
  const ana = await register(srv.url);
  let r = await patch(ana, { displayName: '  Ana Conceição 🌿 ', about: 'Jardineira em Recife.', bannerColor: 0x1f6f5c });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.user.displayName, 'Ana Conceição 🌿');
  assert.equal(r.body.user.about, 'Jardineira em Recife.');
  assert.equal(r.body.user.bannerColor, 0x1f6f5c);
  r = await api(srv.url, 'GET', '/api/users/@me', { token: ana.token });
  assert.deepEqual([r.body.user.displayName, r.body.user.about, r.body.user.bannerColor], ['Ana Conceição 🌿', 'Jardineira em Recife.', 0x1f6f5c]);
  assert.equal((await patch(ana, { displayName: 'محمد' })).body.user.displayName, 'محمد', 'any script');
  await refused(ana, { displayName: 'admin\u202e' }, 'displayName: não pode ter caracteres de controle ou de formatação');
  await refused(ana, { displayName: 'An\u200ba' }, 'displayName: não pode ter caracteres de controle ou de formatação');
  await refused(ana, { displayName: 'a\u0007' }, 'displayName: não pode ter caracteres de controle ou de formatação');
  await refused(ana, { displayName: 'x'.repeat(33) }, 'displayName: deve ter entre 1 e 32 caracteres');
  await refused(ana, { displayName: '   ' }, 'displayName: deve ter entre 1 e 32 caracteres');
  await refused(ana, { about: 'a'.repeat(191) }, 'about: deve ter no máximo 190 caracteres');
  await refused(ana, { about: 'sino\u0007' }, 'about: não pode ter caracteres de controle');
  await refused(ana, { bannerColor: 0x1000000 }, 'bannerColor: deve estar entre 0 e 16777215');
  await refused(ana, {}, 'locale: obrigatório (ou displayName, about, bannerColor)');
  assert.equal((await patch(ana, { about: 'Duas linhas\ne um emoji 🌱' })).body.user.about, 'Duas linhas\ne um emoji 🌱');
  // Null clears: the username shows again, no about, no colour.
  r = await patch(ana, { displayName: null, about: null, bannerColor: null });
  assert.deepEqual([r.body.user.displayName, r.body.user.about, r.body.user.bannerColor], [ana.user.username, null, null]);
  // The same rule at sign-up.
  const bad = await api(srv.url, 'POST', '/api/auth/register', { body: { username: `rtl_${Date.now() % 100000}`, password: 'senha-secreta-1', displayName: 'x\u202ey' } });
  assert.deepEqual([bad.status, bad.body.error], [400, 'displayName: não pode ter caracteres de controle ou de formatação']);
});

test('a new name reaches the people of every server the person shares, and the members they read', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const s = await gatewayConnect(srv.url, { auth: { token: bia.token } }, sockets);
  const update = nextEvent(s, 'SERVER_UPDATE');
  assert.equal((await patch(ana, { displayName: 'Ana da Praça' })).status, 200);
  assert.deepEqual(await update, { serverId: sid, changed: 'members' });
  const { body: { members } } = await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: bia.token });
  assert.equal(members.find((m) => m.userId === ana.user.id).user.displayName, 'Ana da Praça');
  // An about alone changes no name: nobody is told.
  let told = false;
  s.once('SERVER_UPDATE', () => { told = true; });
  assert.equal((await patch(ana, { about: 'Sobre mim' })).status, 200);
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(told, false);
});

test('a person\'s status: do not disturb shown, invisible shown offline yet sending, a custom text; online again', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const watcher = await gatewayConnect(srv.url, { auth: { token: ana.token } }, sockets);
  const online = nextEvent(watcher, 'PRESENCE_UPDATE');
  await gatewayConnect(srv.url, { auth: { token: bia.token } }, sockets);
  assert.deepEqual(await online, { userId: bia.user.id, status: 'online', activity: null });
  const statusOf = async () => (await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: ana.token })).body.members.find((m) => m.userId === bia.user.id).status;
  const set = (body) => api(srv.url, 'PUT', '/api/users/@me/presence', { token: bia.token, body });
  let next = nextEvent(watcher, 'PRESENCE_UPDATE');
  let r = await set({ status: 'dnd', activity: { type: 'custom', name: 'Estudando ☕' } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.presence, { status: 'dnd', activity: { type: 'custom', name: 'Estudando ☕' }, connected: true });
  assert.deepEqual(await next, { userId: bia.user.id, status: 'dnd', activity: { type: 'custom', name: 'Estudando ☕' } }, 'the status text with it');
  assert.equal(await statusOf(), 'dnd');
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: bia.token })).body.user.presence.status, 'dnd', 'the page reads what it chose');
  next = nextEvent(watcher, 'PRESENCE_UPDATE');
  assert.equal((await set({ status: 'invisible' })).status, 200);
  assert.deepEqual(await next, { userId: bia.user.id, status: 'offline', activity: null }, 'invisible is offline to others, with no text');
  assert.equal(await statusOf(), 'offline');
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: bia.token, body: { content: 'ainda aqui' } })).status, 200, 'and still sends');
  next = nextEvent(watcher, 'PRESENCE_UPDATE');
  assert.equal((await set({ status: 'online' })).status, 200);
  assert.deepEqual(await next, { userId: bia.user.id, status: 'online', activity: null });
  r = await set({ status: 'away' });
  assert.deepEqual([r.status, r.body.error], [400, 'status: deve ser online, idle, dnd ou invisible']);
  const bot = await api(srv.url, 'PUT', '/api/users/@me/presence', { token: 'x', body: { status: 'dnd' } });
  assert.equal(bot.status, 401);
});

test('a custom status with an emoji until a time: others read it on the card, and after that time nobody does', async () => {
  const clocked = await startServer({ args: ['--test-clock'] });
  try {
    const { members: [ana, bia] } = await serverWithMembers(clocked.url, 2);
    const socket = await gatewayConnect(clocked.url, { auth: { token: bia.token } }, sockets);
    const set = (body) => api(clocked.url, 'PUT', '/api/users/@me/presence', { token: bia.token, body });
    const now = Date.parse((await api(clocked.url, 'GET', '/api/health')).headers.get('date')) || Date.now();
    const until = new Date(now + 3600_000).toISOString();
    const r = await set({ status: 'online', activity: { type: 'custom', name: 'Em reunião', emoji: '📅', expiresAt: until } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.presence.activity.emoji, '📅');
    assert.equal(Date.parse(r.body.presence.activity.expiresAt), Date.parse(until));
    const card = async () => (await api(clocked.url, 'GET', `/api/users/${bia.user.id}/profile`, { token: ana.token })).body.user.presence;
    assert.deepEqual(await card(), { status: 'online', activity: { type: 'custom', name: 'Em reunião', emoji: '📅', expiresAt: r.body.presence.activity.expiresAt } });
    await api(clocked.url, 'POST', '/api/test/clock', { body: { advanceMs: 3600_001 } });
    assert.deepEqual(await card(), { status: 'online', activity: null }, 'past its time');
    assert.equal((await api(clocked.url, 'GET', '/api/users/@me', { token: bia.token })).body.user.presence.activity, null);
    // Invisible: offline on the card, and no text.
    await set({ status: 'invisible', activity: { type: 'custom', name: 'secreto' } });
    assert.deepEqual(await card(), { status: 'offline', activity: null });
    // Refusals.
    for (const [activity, error] of [
      [{ type: 'custom', name: 'x', emoji: 'a\u0007' }, 'activity.emoji: não pode ter caracteres de controle'],
      [{ type: 'custom', name: 'x', emoji: '😀'.repeat(33) }, 'emoji: deve ter entre 1 e 32 caracteres'],
      [{ type: 'custom', name: 'x', expiresAt: 'amanhã' }, 'activity.expiresAt: deve ser uma data ISO 8601 nos próximos 30 dias'],
      [{ type: 'custom', name: 'x', expiresAt: new Date(now - 1000).toISOString() }, 'activity.expiresAt: deve ser uma data ISO 8601 nos próximos 30 dias'],
      [{ type: 'custom', name: 'x', expiresAt: new Date(now + 40 * 86400_000).toISOString() }, 'activity.expiresAt: deve ser uma data ISO 8601 nos próximos 30 dias'],
    ]) {
      const x = await set({ status: 'online', activity });
      assert.deepEqual([x.status, x.body.error], [400, error], JSON.stringify(activity));
    }
    socket.disconnect();
  } finally {
    await clocked.stop();
  }
});
