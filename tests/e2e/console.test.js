// The portal's event console over HTTP: while the owner looks, what became of each event of the
// application's servers on its way to the bot (delivered, or withheld and why).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, appWithBot, install, serverWithMembers, gatewayConnect, sharedServer, eventually } = require('./helpers');

const { P } = require('./permissions');
const sockets = [];
const srv = sharedServer({}, sockets);

// An application with a bot installed in a server with a second channel the bot cannot see.
async function world(intents = ['messages.read']) {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { intents });
  const { owner, sid, server } = await serverWithMembers(srv.url, 0);
  const r = await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  assert.equal(r.complete.status, 200, r.complete.text);
  const open = server.channels[0].id;
  const hidden = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'segredo' } })).body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${hidden}/overwrites/${info.app.botUserId}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const say = async (cid, content) => (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content } })).body.message;
  const look = (after = '0', token = dev.token) => api(srv.url, 'GET', `/api/applications/${info.app.id}/console?after=${after}`, { token });
  return { dev, info, owner, sid, open, hidden, say, look };
}

// Polls the console until `n` events came after `after`.
async function events(w, n, after = '0') {
  for (let i = 0; i < 100; i++) {
    const r = await w.look(after);
    assert.equal(r.status, 200, r.text);
    if (r.body.events.length >= n) return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`fewer than ${n} console events`);
}

test('delivered, not connected, intent off: each with its reason, only while watched; nothing of a channel the bot cannot see', async () => {
  const w = await world();
  await w.say(w.open, 'antes de olhar'); // nobody watches yet: not recorded
  const first = await w.look();
  assert.deepEqual(first.body, { events: [], watching: true, next: '0' });

  await w.say(w.open, 'sem bot conectado');
  const offline = await events(w, 1);
  assert.equal(offline.events.length, 1);
  const e = offline.events[0];
  assert.deepEqual(Object.keys(e), ['position', 'type', 'kind', 'serverId', 'channelId', 'at', 'delivered', 'reason', 'detail']);
  assert.equal(e.kind, null);
  assert.deepEqual([e.type, e.serverId, e.channelId, e.delivered, e.reason, e.detail],
                   ['MESSAGE_CREATE', w.sid, w.open, false, 'not_connected', 'Bot não conectado']);
  assert.match(e.position, /^\d+$/);
  assert.equal(offline.next, e.position);

  const bot = await gatewayConnect(srv.url, { auth: { token: w.info.botToken } }, sockets);
  await w.say(w.open, 'entregue');
  await w.say(w.hidden, 'escondido');
  await w.say(w.open, 'depois');
  const two = await events(w, 2, offline.next);
  assert.deepEqual(two.events.map((x) => [x.channelId, x.delivered, x.reason, x.detail]), [
    [w.open, true, null, 'Entregue'],
    [w.open, true, null, 'Entregue'],
  ], 'nothing of the channel the bot cannot see');
  assert.ok(!JSON.stringify(two).includes(w.hidden));
  // Written to the bot's socket is what the console says; the client reads it a moment later.
  await eventually(() => bot.received.some((r) => r.name === 'MESSAGE_CREATE' && r.payload.content === 'entregue'), 5000, 'the bot got it');
  assert.ok(!bot.received.some((r) => r.payload && r.payload.content === 'escondido'), 'the console tells, the bot did not get it');

  assert.equal((await api(srv.url, 'PUT', `/api/applications/${w.info.app.id}/intents`, { token: w.dev.token, body: { intents: [] } })).status, 200);
  await w.say(w.open, 'sem intent');
  const off = await events(w, 1, two.next);
  assert.deepEqual(off.events.map((x) => [x.delivered, x.reason, x.detail]), [[false, 'intent_off', 'Intent messages.read desligada']]);
  assert.ok(!JSON.stringify(off).includes('sem intent'), 'never the content');
  bot.close();
});

test('interactions show their kind (autocomplete, command), and a deferred answer shows as thinking', async () => {
  const w = await world(['messages.read', 'interactions.receive']);
  await api(srv.url, 'PUT', '/api/bot/commands', { token: w.info.botToken, body: { commands: [
    { name: 'busca', description: 'Busca', options: [{ name: 'termo', description: 't', type: 'string', autocomplete: true }] }] } });
  const bot = await gatewayConnect(srv.url, { auth: { token: w.info.botToken } }, sockets);
  bot.on('INTERACTION_CREATE', (i) => api(srv.url, 'POST', `/api/bot/interactions/${i.id}/respond`, { token: w.info.botToken,
    body: i.type === 'autocomplete' ? { type: 'autocomplete', data: { choices: [] } } : { type: 'defer' } }));
  assert.equal((await w.look()).status, 200); // watching from here
  const invoke = (body) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.open}/interactions`, { token: w.owner.token, body: { applicationId: w.info.app.id, commandName: 'busca', ...body } });
  assert.equal((await invoke({ type: 'autocomplete', focused: 'termo', options: [{ name: 'termo', value: 'x' }] })).status, 202);
  assert.equal((await invoke({ type: 'command', options: [] })).status, 202);
  const seen = await events(w, 3);
  assert.deepEqual(seen.events.map((x) => [x.type, x.kind, x.delivered]), [
    ['INTERACTION_CREATE', 'autocomplete', true], ['INTERACTION_CREATE', 'command', true], ['MESSAGE_CREATE', 'thinking', true]]);
  bot.close();
});

test('only the owner sees it; other servers and other bots are not in it; after is checked', async () => {
  const w = await world();
  const stranger = await register(srv.url);
  for (const token of [stranger.token, w.owner.token]) {
    const r = await w.look('0', token);
    assert.equal(r.status, 404, 'someone else\'s application does not exist for them');
  }
  assert.equal((await api(srv.url, 'GET', `/api/applications/${w.info.app.id}/console`, { token: w.info.botToken })).status, 403, 'not for bots');
  assert.equal((await w.look('-1')).status, 400);
  assert.equal((await w.look('x')).body.error, 'after: deve ser uma posição (número inteiro ≥ 0)');

  await w.look();
  const other = await world(); // another application's server, same moment
  await other.say(other.open, 'outro servidor');
  await w.say(w.open, 'deste servidor');
  const got = await events(w, 1);
  assert.deepEqual(got.events.map((x) => x.serverId), [w.sid], 'only the servers it is installed in');
});

test('an application without a bot: nothing to watch', async () => {
  const dev = await register(srv.url);
  const created = await api(srv.url, 'POST', '/api/applications', { token: dev.token, body: { name: 'Sem bot' } });
  const r = await api(srv.url, 'GET', `/api/applications/${created.body.application.id}/console`, { token: dev.token });
  assert.deepEqual(r.body, { events: [], watching: false, next: '0' });
});
