// Messages: bot send and edit, history, delete, reactions, pins, the human route, threads, DMs.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, appWithBot, install, serverWithMembers, totp, sharedServer, acquaint, gatewayConnect, nextEvent, pageModule } = require('./helpers');

const { P } = require('./permissions');
const BOT_BITS = P.VER_CANAL | P.ENVIAR_MENSAGENS | P.ADICIONAR_REACOES | P.FIXAR_MENSAGENS;
const BOGUS_ID = '01a1fe3b-0000-7000-8000-000000000000';
const MESSAGE_KEYS = ['id', 'serverId', 'channelId', 'threadId', 'fromId', 'content', 'type', 'createdAt', 'editedAt', 'embeds',
  'components', 'flags', 'applicationId', 'commandName', 'commandInvokerId', 'replyToId', 'replyTo', 'mentions',
  'mentionsEveryone', 'mentionedRoleIds', 'reactions', 'pinned', 'attachments', 'webhook', 'poll', 'forwarded', 'previews'];

const { png, uploadEmoji } = require('./gif');
const srv = sharedServer({ args: ['--test-clock'] });

// A server with a member and an installed bot; `bits` are the bot's granted permissions.
async function world({ bits = BOT_BITS, members = 1, intents = ['messages.read'] } = {}) {
  const s = await serverWithMembers(srv.url, members);
  const info = await appWithBot(srv.url, s.owner, { intents });
  const { complete } = await install(srv.url, s.owner, info, s.sid, { permissions: bits });
  assert.equal(complete.status, 200);
  const cid = s.server.channels[0].id;
  const botUrl = `/api/bot/servers/${s.sid}/channels/${cid}/messages`;
  const url = `/api/servers/${s.sid}/channels/${cid}/messages`;
  const botSend = (body) => api(srv.url, 'POST', botUrl, { token: info.botToken, body });
  const send = (who, body) => api(srv.url, 'POST', url, { token: who.token, body });
  return { ...s, info, cid, botUrl, url, botSend, send };
}

test('bot send: 200 {message} with every field of the Message table', async () => {
  const w = await world();
  const r = await w.botSend({ content: 'Olá, mundo' });
  assert.equal(r.status, 200);
  const m = r.body.message;
  assert.deepEqual(Object.keys(m), MESSAGE_KEYS);
  assert.equal(m.serverId, w.sid);
  assert.equal(m.channelId, w.cid);
  assert.equal(m.threadId, null);
  assert.equal(m.fromId, w.info.app.botUserId);
  assert.equal(m.content, 'Olá, mundo');
  assert.equal(m.type, 'text');
  assert.equal(m.editedAt, null);
  assert.equal(m.embeds, null);
  assert.equal(m.components, null);
  assert.equal(m.flags, 0);
  assert.equal(m.applicationId, w.info.app.id);
  assert.equal(m.commandName, null);
  assert.equal(m.commandInvokerId, null);
  assert.deepEqual(m.reactions, []);
  assert.equal(m.pinned, false);
  assert.deepEqual(m.mentions, []);
  assert.equal(m.mentionsEveryone, false);
});

test('bot send: only server text channels; forum, voice, threads and other servers refused', async () => {
  const w = await world({ bits: BOT_BITS | P.GERENCIAR_CANAIS });
  for (const type of ['forum', 'voice']) {
    const ch = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: type, type } });
    const r = await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${ch.body.channel.id}/messages`, { token: w.info.botToken, body: { content: 'x' } });
    assert.equal(r.status, 400, type);
  }
  const first = await w.send(w.owner, { content: 'raiz' });
  const thread = await api(srv.url, 'POST', `${w.url}/${first.body.message.id}/threads`, { token: w.owner.token, body: { name: 't' } });
  assert.equal((await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${thread.body.channel.id}/messages`, { token: w.info.botToken, body: { content: 'x' } })).status, 400);
  const other = await serverWithMembers(srv.url, 0);
  assert.equal((await api(srv.url, 'POST', `/api/bot/servers/${other.sid}/channels/${other.server.channels[0].id}/messages`, { token: w.info.botToken, body: { content: 'x' } })).status, 404, 'not installed there');
  assert.equal((await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${other.server.channels[0].id}/messages`, { token: w.info.botToken, body: { content: 'x' } })).status, 404, 'channel of another server');
  assert.equal((await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${BOGUS_ID}/messages`, { token: w.info.botToken, body: { content: 'x' } })).status, 404);
  assert.equal((await api(srv.url, 'POST', w.botUrl, { token: w.owner.token, body: { content: 'x' } })).status, 403, 'sessions are refused');
  assert.equal((await api(srv.url, 'POST', w.botUrl, { body: { content: 'x' } })).status, 401);
});

test('bot send: VER_CANAL and ENVIAR_MENSAGENS in that channel', async () => {
  const w = await world({ bits: P.VER_CANAL });
  // The bot also holds @everyone's bits, which include sending by default.
  assert.equal((await w.botSend({ content: 'x' })).status, 200);
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}/roles/${w.sid}`, { token: w.owner.token, body: { permissions: P.VER_CANAL } });
  const denied = await w.botSend({ content: 'x' });
  assert.equal(denied.status, 403);
  assert.match(denied.body.error, /ENVIAR_MENSAGENS/);
  const w2 = await world();
  await api(srv.url, 'PUT', `/api/servers/${w2.sid}/channels/${w2.cid}/overwrites/${w2.info.app.botUserId}`, { token: w2.owner.token, body: { type: 'member', deny: P.ENVIAR_MENSAGENS } });
  assert.equal((await w2.botSend({ content: 'x' })).status, 403);
  await api(srv.url, 'PUT', `/api/servers/${w2.sid}/channels/${w2.cid}/overwrites/${w2.info.app.botUserId}`, { token: w2.owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const hidden = await w2.botSend({ content: 'x' });
  assert.equal(hidden.status, 403, 'a channel of its server that it cannot see');
  assert.equal(hidden.body.error, 'Sem permissão: é preciso VER_CANAL');
  const history = await api(srv.url, 'GET', `/api/servers/${w2.sid}/channels/${w2.cid}/messages`, { token: w2.info.botToken });
  assert.equal(history.status, 403, history.text);
  const elsewhere = await world();
  const other = await api(srv.url, 'POST', `/api/bot/servers/${w2.sid}/channels/${elsewhere.cid}/messages`, { token: w2.info.botToken, body: { content: 'x' } });
  assert.equal(other.status, 404, 'a channel of another server stays unknown');
});

test('bot send: limits at their edges with path: motivo', async () => {
  const w = await world();
  const scale = (await startServer({ args: ['--rate-limit-scale', '100'] }));
  try {
    const s = { url: scale.url };
    const owner = await register(s.url);
    const created = await api(s.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'S' } });
    const sid = created.body.server.id, cid = created.body.channels[0].id;
    const info = await appWithBot(s.url, owner);
    await install(s.url, owner, info, sid, { permissions: BOT_BITS });
    const send = (body) => api(s.url, 'POST', `/api/bot/servers/${sid}/channels/${cid}/messages`, { token: info.botToken, body });
    const title = (n) => ({ title: 'a'.repeat(n) });
    const cases = [
      [{ content: 'a'.repeat(4000) }, 200], [{ content: 'a'.repeat(4001) }, 'content: deve ter no máximo 4000 caracteres'],
      [{ content: 'ç'.repeat(4000) }, 200],
      [{ embeds: Array.from({ length: 10 }, () => title(1)) }, 200], [{ embeds: Array.from({ length: 11 }, () => title(1)) }, /^embeds: /],
      [{ embeds: [title(256)] }, 200], [{ embeds: [title(257)] }, 'embeds.0.title: deve ter no máximo 256 caracteres'],
      [{ embeds: [{ description: 'a'.repeat(4096) }, { description: 'b'.repeat(1904) }] }, 200],
      [{ embeds: [{ description: 'a'.repeat(4096) }, { description: 'b'.repeat(1905) }] }, /^embeds: .*6000/],
      [{ embeds: [{ description: 'a'.repeat(4097) }] }, /^embeds\.0\.description: /],
      [{ embeds: [{ fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) }] }, /^embeds\.0\.fields: /],
      [{ embeds: [{ url: 'ftp://x' }] }, /^embeds\.0\.url: /],
      [{ embeds: [{ color: -1 }] }, /^embeds\.0\.color: /],
      [{}, 'content: obrigatório (envie content, embeds, components ou arquivos)'], [{ content: '' }, /^content: obrigatório/],
      [{ content: 5 }, 'content: deve ser um texto'], [{ embeds: {} }, 'embeds: deve ser uma lista'],
      [{ content: 'x', flags: 4 }, /^flags: /], [{ content: 'x', flags: 'x' }, /^flags: /],
    ];
    const v2 = (n) => ({ flags: 32768, components: Array.from({ length: n }, () => ({ type: 10, content: 'x' })) });
    cases.push([v2(40), 200], [v2(41), /^components\.40: /]);
    cases.push([{ ...v2(1), content: 'x' }, 'content: deve estar ausente com a flag IS_COMPONENTS_V2']);
    cases.push([{ ...v2(1), embeds: [title(1)] }, 'embeds: deve estar ausente com a flag IS_COMPONENTS_V2']);
    cases.push([{ flags: 32768 }, 'components: obrigatório com a flag IS_COMPONENTS_V2']);
    cases.push([{ components: [{ type: 10, content: 'x' }] }, 'components.0.type: tipo 10 não é permitido aqui']);
    const row = (n) => ({ type: 1, components: Array.from({ length: n }, (_, i) => ({ type: 2, style: 1, customId: `b${i}`, label: 'B' })) });
    cases.push([{ components: [row(5)] }, 200], [{ components: [row(6)] }, /^components\.0\.components: /]);
    cases.push([{ components: [{ type: 1, components: [{ type: 2, style: 1, customId: 'x' }, { type: 2, style: 2, customId: 'x' }] }] }, /^components\.0\.components\.1\.customId: /]);
    for (const [body, expect] of cases) {
      const r = await send(body);
      if (expect === 200) { assert.equal(r.status, 200, JSON.stringify(body).slice(0, 120) + ' ' + r.text); continue; }
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 120));
      if (expect instanceof RegExp) assert.match(r.body.error, expect); else assert.equal(r.body.error, expect);
    }
  } finally { await scale.stop(); }
  assert.ok(w);
});

test('mentions: members, mentionable roles, @everyone only with MENCIONAR_TODOS', async () => {
  const w = await world({ members: 2 });
  const [a, b] = w.members;
  const stranger = await register(srv.url);
  const role = await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: 'Equipe Azul', mentionable: true } });
  const quiet = await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: 'Silencio', mentionable: false } });
  assert.ok(quiet.body.role);
  const text = `oi @${a.user.username.toUpperCase()} e @${b.user.username}, @${stranger.user.username} @equipe azul @Silencio @everyone`;
  const r = await w.botSend({ content: text });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.message.mentions, [a.user.id, b.user.id]);
  assert.deepEqual(r.body.message.mentionedRoleIds, [role.body.role.id]);
  assert.equal(r.body.message.mentionsEveryone, false, 'no MENCIONAR_TODOS: stays text, no error');
  assert.equal(r.body.message.content, text);
  const w2 = await world({ bits: BOT_BITS | P.MENCIONAR_TODOS });
  assert.equal((await w2.botSend({ content: 'atenção @here' })).body.message.mentionsEveryone, true);
});

test('replyToId: a message of the same channel gives replyTo; anything else is ignored', async () => {
  const w = await world({ bits: BOT_BITS | P.GERENCIAR_CANAIS });
  const long = 'é'.repeat(150);
  const target = await w.send(w.members[0], { content: long });
  const r = await w.botSend({ content: 'resposta', replyToId: target.body.message.id });
  assert.equal(r.body.message.replyToId, target.body.message.id);
  assert.deepEqual(r.body.message.replyTo, { id: target.body.message.id, fromId: w.members[0].user.id, kind: 'text', preview: 'é'.repeat(100) });
  const other = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'outro' } });
  const elsewhere = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${other.body.channel.id}/messages`, { token: w.owner.token, body: { content: 'lá' } });
  for (const replyToId of [elsewhere.body.message.id, BOGUS_ID, 'lixo']) {
    const x = await w.botSend({ content: 'x', replyToId });
    assert.equal(x.status, 200);
    assert.equal(x.body.message.replyToId, null);
    assert.equal(x.body.message.replyTo, null);
  }
});

test('automod: blocked words and too many mentions are 422 {automod: true} on send and edit', async () => {
  const w = await world({ members: 3 });
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/automod`, { token: w.owner.token, body: { blockedWords: ['golpe'], maxMentions: 2 } });
  const blocked = await w.botSend({ content: 'isso é um GOLPE!' });
  assert.equal(blocked.status, 422);
  assert.equal(blocked.body.automod, true);
  assert.equal((await w.botSend({ content: 'golpes não contam' })).status, 200);
  assert.equal((await w.botSend({ embeds: [{ title: 'golpe' }] })).status, 422, 'embed text is moderated too');
  const names = w.members.map((m) => '@' + m.user.username);
  assert.equal((await w.botSend({ content: names.slice(0, 2).join(' ') })).status, 200);
  assert.equal((await w.botSend({ content: names.join(' ') })).status, 422);
  const human = await w.send(w.members[0], { content: 'golpe' });
  assert.equal(human.status, 422);
  assert.equal(human.body.automod, true);
  const ok = await w.botSend({ content: 'limpo' });
  const edit = await api(srv.url, 'PATCH', `${w.botUrl}/${ok.body.message.id}`, { token: w.info.botToken, body: { content: 'golpe' } });
  assert.equal(edit.status, 422);
});

test('forum posts and threads meet the send route\'s gates: automod on title and text, timeout, rules, verification, the send limit', async () => {
  const w = await world();
  const [b] = w.members;
  const forum = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'forum', type: 'forum' } })).body.channel.id;
  const post = (who, body) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${forum}/threads`, { token: who.token, body });
  const origin = (await w.send(w.owner, { content: 'começo' })).body.message.id;
  const thread = (who, name) => api(srv.url, 'POST', `${w.url}/${origin}/threads`, { token: who.token, body: { name } });
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/automod`, { token: w.owner.token, body: { blockedWords: ['golpe'], maxMentions: null } });
  for (const r of [await post(b, { name: 'um golpe', content: 'oi' }), await post(b, { name: 'título', content: 'é golpe' }), await thread(b, 'golpe aqui')]) {
    assert.equal(r.status, 422);
    assert.equal(r.body.automod, true);
  }
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/automod`, { token: w.owner.token, body: { blockedWords: [], maxMentions: null } });
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}/members/${b.user.id}`, { token: w.owner.token, body: { timeoutUntil: new Date(Date.now() + 600_000).toISOString() } });
  assert.equal((await post(b, { name: 't', content: 'x' })).status, 403);
  assert.equal((await thread(b, 't')).status, 403);
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}/members/${b.user.id}`, { token: w.owner.token, body: { timeoutUntil: null } });
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { requiresRulesAcceptance: true, rules: 'Seja gentil' } });
  assert.equal((await post(b, { name: 't', content: 'x' })).body.requiresRulesAcceptance, true);
  assert.equal((await thread(b, 't')).body.requiresRulesAcceptance, true);
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { requiresRulesAcceptance: false, verificationLevel: 3 } });
  assert.equal((await post(b, { name: 't', content: 'x' })).body.verificationLevelBlocked, true);
  assert.equal((await thread(b, 't')).body.verificationLevelBlocked, true);
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { verificationLevel: 0 } });
  // Posts, threads and sends share one limit: 10 per 10 s.
  const statuses = [];
  for (let i = 0; i < 11; i++) statuses.push((await post(b, { name: `p${i}`, content: 'x' })).status);
  assert.deepEqual(statuses, [...Array(10).fill(201), 429]);
  assert.equal((await thread(b, 'mais uma')).status, 429);
  assert.equal((await w.send(b, { content: 'e uma mensagem' })).status, 429);
});

test('automod: a mention cap alone, blocked words alone, and neither', async () => {
  const w = await world({ members: 3 });
  const automod = (body) => api(srv.url, 'PUT', `/api/servers/${w.sid}/automod`, { token: w.owner.token, body });
  const names = w.members.map((m) => '@' + m.user.username).join(' ');
  assert.equal((await automod({ blockedWords: [], maxMentions: 2 })).status, 200);
  assert.equal((await w.botSend({ content: names })).status, 422, 'the cap applies without any word');
  assert.equal((await w.botSend({ content: 'golpe' })).status, 200);
  assert.equal((await automod({ blockedWords: ['golpe'], maxMentions: null })).status, 200);
  assert.equal((await w.botSend({ content: 'golpe' })).status, 422, 'words apply without a cap');
  assert.equal((await w.botSend({ content: names })).status, 200);
  assert.equal((await automod({ blockedWords: [], maxMentions: null })).status, 200);
  assert.equal((await w.botSend({ content: 'golpe ' + names })).status, 200, 'nothing is moderated');
});

test('bot send and the human route: 10 per 10 s, then 429', async () => {
  const w = await world();
  for (let i = 0; i < 10; i++) assert.equal((await w.botSend({ content: `m${i}` })).status, 200);
  const r = await w.botSend({ content: 'demais' });
  assert.equal(r.status, 429);
  assert.ok(r.body.retryAfterMs > 0 && r.body.retryAfterMs <= 10_000);
  assert.equal(r.headers.get('retry-after'), null);
  const edit = await api(srv.url, 'PATCH', `${w.botUrl}/${(await api(srv.url, 'GET', w.url, { token: w.info.botToken })).body.messages[0].id}`, { token: w.info.botToken, body: { content: 'edit' } });
  assert.equal(edit.status, 200, 'edits have their own window');
  for (let i = 0; i < 10; i++) assert.equal((await w.send(w.members[0], { content: `h${i}` })).status, 200);
  assert.equal((await w.send(w.members[0], { content: 'demais' })).status, 429);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 10_001 } });
  assert.equal((await w.botSend({ content: 'de novo' })).status, 200);
});

test('bot edit: only the authoring application; absent keeps, [] removes, "" clears', async () => {
  const w = await world();
  const sent = await w.botSend({ content: 'original', embeds: [{ title: 'E' }], components: [{ type: 1, components: [{ type: 2, style: 1, customId: 'a', label: 'A' }] }] });
  const url = `${w.botUrl}/${sent.body.message.id}`;
  const keep = await api(srv.url, 'PATCH', url, { token: w.info.botToken, body: { content: 'novo', embeds: null } });
  assert.equal(keep.status, 200);
  assert.equal(keep.body.message.content, 'novo');
  assert.deepEqual(keep.body.message.embeds, [{ title: 'E' }]);
  assert.match(keep.body.message.editedAt, /Z$/);
  const removed = await api(srv.url, 'PATCH', url, { token: w.info.botToken, body: { embeds: [] } });
  assert.equal(removed.body.message.embeds, null);
  assert.equal(removed.body.message.content, 'novo');
  const cleared = await api(srv.url, 'PATCH', url, { token: w.info.botToken, body: { content: '' } });
  assert.equal(cleared.body.message.content, '');
  assert.equal(cleared.body.message.components.length, 1);
  const empty = await api(srv.url, 'PATCH', url, { token: w.info.botToken, body: { components: [] } });
  assert.equal(empty.status, 400, 'nothing would be left');
  assert.match((await api(srv.url, 'PATCH', url, { token: w.info.botToken, body: { embeds: [{ title: 'x'.repeat(257) }] } })).body.error, /^embeds\.0\.title: /);
  // Another application's bot in the same server: 403.
  const other = await appWithBot(srv.url, w.owner);
  await install(srv.url, w.owner, other, w.sid, { permissions: BOT_BITS });
  assert.equal((await api(srv.url, 'PATCH', url, { token: other.botToken, body: { content: 'meu' } })).status, 403);
  const human = await w.send(w.members[0], { content: 'de uma pessoa' });
  assert.equal((await api(srv.url, 'PATCH', `${w.botUrl}/${human.body.message.id}`, { token: w.info.botToken, body: { content: 'x' } })).status, 403);
  assert.equal((await api(srv.url, 'PATCH', `${w.botUrl}/${BOGUS_ID}`, { token: w.info.botToken, body: { content: 'x' } })).status, 404);
});

test('history: oldest first, limit, beforeId, before, around, hasMore, and bad parameters', async () => {
  const w = await world();
  const s = await startServer({ args: ['--rate-limit-scale', '100'] });
  try {
    const owner = await register(s.url);
    const created = await api(s.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'H' } });
    const url = `/api/servers/${created.body.server.id}/channels/${created.body.channels[0].id}/messages`;
    const ids = [];
    for (let i = 0; i < 60; i++) ids.push((await api(s.url, 'POST', url, { token: owner.token, body: { content: `m${i}` } })).body.message.id);
    const get = (q) => api(s.url, 'GET', `${url}${q}`, { token: owner.token });
    const def = await get('');
    assert.equal(def.body.messages.length, 50);
    assert.equal(def.body.hasMore, true);
    assert.deepEqual(def.body.messages.map((m) => m.id), ids.slice(10));
    const all = await get('?limit=100');
    assert.equal(all.body.messages.length, 60);
    assert.equal(all.body.hasMore, false);
    const before = await get(`?limit=5&beforeId=${ids[20]}`);
    assert.deepEqual(before.body.messages.map((m) => m.content), ['m15', 'm16', 'm17', 'm18', 'm19']);
    assert.equal(before.body.hasMore, true);
    const first = await get(`?limit=5&beforeId=${ids[5]}`);
    assert.deepEqual(first.body.messages.map((m) => m.content), ['m0', 'm1', 'm2', 'm3', 'm4']);
    assert.equal(first.body.hasMore, false);
    const around = await get(`?limit=4&around=${ids[30]}`);
    assert.deepEqual(around.body.messages.map((m) => m.content), ['m28', 'm29', 'm30', 'm31']);
    assert.equal(around.body.hasMore, true);
    const edge = await get(`?limit=10&around=${ids[58]}`);
    assert.deepEqual(edge.body.messages.map((m) => m.content), ['m53', 'm54', 'm55', 'm56', 'm57', 'm58', 'm59']);
    assert.equal(edge.body.hasMore, true, 'older ones exist');
    const future = await get(`?before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=3`);
    assert.deepEqual(future.body.messages.map((m) => m.content), ['m57', 'm58', 'm59']);
    const past = await get('?before=2000-01-01%2000:00:00');
    assert.deepEqual(past.body, { messages: [], hasMore: false });
    for (const q of ['?limit=0', '?limit=101', '?limit=x', '?before=ontem', '?beforeId=123', '?around=x', `?before=2020-01-01T00:00:00Z&beforeId=${ids[1]}`, `?around=${ids[1]}&beforeId=${ids[1]}`]) {
      const r = await get(q);
      assert.equal(r.status, 400, q);
    }
  } finally { await s.stop(); }
  const r = await api(srv.url, 'GET', w.url, { token: w.info.botToken });
  assert.equal(r.status, 200, 'bots read history with their token');
  const stranger = await register(srv.url);
  assert.equal((await api(srv.url, 'GET', w.url, { token: stranger.token })).status, 404);
});

test('delete: own with VER_CANAL, others with GERENCIAR_MENSAGENS; requires2FA for moderation', async () => {
  const w = await world({ bits: BOT_BITS | P.GERENCIAR_MENSAGENS });
  const own = await w.botSend({ content: 'meu' });
  assert.deepEqual((await api(srv.url, 'DELETE', `${w.url}/${own.body.message.id}`, { token: w.info.botToken })).body, { ok: true });
  assert.equal((await api(srv.url, 'DELETE', `${w.url}/${own.body.message.id}`, { token: w.info.botToken })).status, 404);
  const theirs = await w.send(w.members[0], { content: 'de outra pessoa' });
  const url = `${w.url}/${theirs.body.message.id}`;
  assert.equal((await api(srv.url, 'DELETE', `${w.url}/${(await w.send(w.owner, { content: 'do dono' })).body.message.id}`, { token: w.members[0].token })).status, 403, 'a plain member cannot delete others');
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { requires2FA: true } });
  const bot2fa = await api(srv.url, 'DELETE', url, { token: w.info.botToken });
  assert.equal(bot2fa.status, 403);
  assert.equal(bot2fa.body.requires2FA, true);
  const owner2fa = await api(srv.url, 'DELETE', url, { token: w.owner.token });
  assert.equal(owner2fa.status, 403);
  assert.equal(owner2fa.body.requires2FA, true);
  const mine = await w.send(w.members[0], { content: 'apago o meu' });
  assert.equal((await api(srv.url, 'DELETE', `${w.url}/${mine.body.message.id}`, { token: w.members[0].token })).status, 200, 'own messages need no 2FA');
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { requires2FA: false } });
  assert.equal((await api(srv.url, 'DELETE', url, { token: w.info.botToken })).status, 200);
});

test('reactions toggle per person; pins toggle; permissions and bad bodies', async () => {
  const w = await world();
  const m = await w.botSend({ content: 'reaja' });
  const react = (who, body) => api(srv.url, 'POST', `${w.url}/${m.body.message.id}/react`, { token: who.token, body });
  const bot = { token: w.info.botToken };
  const r1 = await react(bot, { emoji: '👍' });
  assert.equal(r1.status, 200);
  assert.deepEqual(r1.body.reactions, [{ emoji: '👍', customEmojiId: null, count: 1, userIds: [w.info.app.botUserId] }]);
  const r2 = await react(w.members[0], { emoji: '👍' });
  assert.equal(r2.body.reactions[0].count, 2);
  const festa = (await uploadEmoji(srv.url, w.owner.token, w.sid, 'festa_123', png(16, 16), 'image/png')).body.emoji;
  const r3 = await react(w.members[0], { customEmojiId: festa.id });
  assert.deepEqual(r3.body.reactions[1], { emoji: null, customEmojiId: festa.id, count: 1, userIds: [w.members[0].user.id] });
  const r4 = await react(bot, { emoji: '👍' });
  assert.deepEqual(r4.body.reactions[0].userIds, [w.members[0].user.id], 'toggled off');
  for (const body of [{}, { emoji: '👍', customEmojiId: 'x' }, { emoji: 5 }, { emoji: '' }, { emoji: 'a b' },
    { emoji: 'ok' }, { emoji: '<b>' }, { emoji: '👍a' }, { emoji: '\u200d' }, { customEmojiId: 'a b' }, { customEmojiId: '<x>' }]) {
    assert.equal((await react(bot, body)).status, 400, JSON.stringify(body));
  }
  assert.equal((await react(bot, { emoji: 'ok' })).body.error, 'emoji: deve ser um emoji');
  const pin = (who) => api(srv.url, 'POST', `${w.url}/${m.body.message.id}/pin`, { token: who.token });
  assert.deepEqual((await pin(bot)).body, { pinned: true });
  assert.equal((await api(srv.url, 'GET', w.url, { token: bot.token })).body.messages.at(-1).pinned, true);
  assert.deepEqual((await pin(bot)).body, { pinned: false });
  assert.equal((await pin(w.members[0])).status, 403, 'FIXAR_MENSAGENS needed');
  assert.equal((await api(srv.url, 'POST', `${w.url}/${BOGUS_ID}/pin`, { token: bot.token })).status, 404);
  const w2 = await world({ bits: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  await api(srv.url, 'PATCH', `/api/servers/${w2.sid}/roles/${w2.sid}`, { token: w2.owner.token, body: { permissions: P.VER_CANAL } });
  const m2 = await w2.botSend({ content: 'x' });
  assert.equal((await api(srv.url, 'POST', `${w2.url}/${m2.body.message.id}/react`, { token: w2.info.botToken, body: { emoji: '👍' } })).status, 403);
});

test('a channel\'s pins: newest first, whole messages, gone when unpinned or deleted; only for who can read the channel', async () => {
  const w = await world();
  const pinsUrl = `/api/servers/${w.sid}/channels/${w.cid}/pins`;
  const owner = { token: w.owner.token };
  const pins = async (who = owner) => (await api(srv.url, 'GET', pinsUrl, { token: who.token })).body.messages.map((m) => m.content);
  assert.deepEqual(await pins(), []);
  const sent = [];
  for (const content of ['um', 'dois', 'três']) sent.push((await w.send(w.owner, { content })).body.message);
  for (const m of [sent[0], sent[2]]) assert.deepEqual((await api(srv.url, 'POST', `${w.url}/${m.id}/pin`, owner)).body, { pinned: true });
  const got = (await api(srv.url, 'GET', pinsUrl, owner)).body.messages;
  assert.deepEqual(got.map((m) => m.content), ['três', 'um'], 'newest first');
  assert.deepEqual(Object.keys(got[0]), MESSAGE_KEYS);
  assert.equal(got[0].pinned, true);
  assert.deepEqual(await pins(w.members[0]), ['três', 'um'], 'any member who reads the channel');
  assert.deepEqual(await pins({ token: w.info.botToken }), ['três', 'um'], 'and a bot that does');
  await api(srv.url, 'POST', `${w.url}/${sent[2].id}/pin`, owner);
  await api(srv.url, 'DELETE', `${w.url}/${sent[0].id}`, owner);
  assert.deepEqual(await pins(), []);
  const stranger = await register(srv.url);
  assert.equal((await api(srv.url, 'GET', pinsUrl, { token: stranger.token })).status, 404);
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${w.cid}/overwrites/${w.sid}`, { token: w.owner.token, body: { type: 'role', deny: P.VER_CANAL } });
  const hidden = await api(srv.url, 'GET', pinsUrl, { token: w.members[0].token });
  assert.equal(hidden.status, 403);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${BOGUS_ID}/pins`, owner)).status, 404);
});

test('a message takes at most 20 distinct reactions; more people on one of them is still fine', async () => {
  const w = await world();
  const m = await w.botSend({ content: 'muitas reações' });
  const react = (who, body) => api(srv.url, 'POST', `${w.url}/${m.body.message.id}/react`, { token: who.token, body });
  const EMOJI = ['😀', '😂', '😍', '😎', '😭', '😡', '👍', '👎', '👏', '🙏', '🔥', '🎉', '❤️', '💯', '✅', '❌', '🚀', '👀', '🤔', '🇧🇷'];
  for (const emoji of EMOJI.slice(0, 19)) assert.equal((await react(w.owner, { emoji })).status, 200, emoji);
  const festa = (await uploadEmoji(srv.url, w.owner.token, w.sid, 'festa', png(16, 16), 'image/png')).body.emoji;
  const twentieth = await react(w.owner, { customEmojiId: festa.id });
  assert.equal(twentieth.status, 200);
  assert.equal(twentieth.body.reactions.length, 20);
  const over = await react(w.owner, { emoji: EMOJI[19] });
  assert.equal(over.status, 400);
  assert.equal(over.body.error, 'emoji: a mensagem já tem 20 reações diferentes');
  const joined = await react(w.members[0], { emoji: '🔥' });
  assert.equal(joined.status, 200, 'an existing reaction takes more people');
  assert.equal(joined.body.reactions.find((r) => r.emoji === '🔥').count, 2);
  assert.equal((await react(w.owner, { emoji: '😀' })).status, 200, 'one removed…');
  assert.equal((await react(w.members[0], { emoji: EMOJI[19] })).status, 200, '…makes room for another');
  const list = (await api(srv.url, 'GET', w.url, { token: w.owner.token })).body.messages.find((x) => x.id === m.body.message.id).reactions;
  assert.equal(list.length, 20);
  assert.deepEqual(list.find((r) => r.emoji === '🔥').userIds, [w.owner.user.id, w.members[0].user.id]);
});

test('every emoji the page\'s picker offers is one the react route takes', async () => {
  const offered = (await pageModule('emoji-names.js')).EMOJI.map(([e]) => e);
  assert.ok(offered.length >= 60);
  const roomy = await startServer({ args: ['--rate-limit-scale', '100'] });
  try {
    const s = await serverWithMembers(roomy.url, 0);
    const cid = s.server.channels[0].id;
    const refused = [];
    for (let i = 0; i < offered.length; i += 20) { // 20 distinct reactions per message
      const mid = (await api(roomy.url, 'POST', `/api/servers/${s.sid}/channels/${cid}/messages`, { token: s.owner.token, body: { content: `lote ${i}` } })).body.message.id;
      for (const emoji of offered.slice(i, i + 20)) {
        const r = await api(roomy.url, 'POST', `/api/servers/${s.sid}/channels/${cid}/messages/${mid}/react`, { token: s.owner.token, body: { emoji } });
        if (r.status !== 200) refused.push(`${emoji} ${r.status} ${r.body.error}`);
      }
    }
    assert.deepEqual(refused, []);
  } finally { await roomy.stop(); }
});

test('human route: people and bots (text only), timeouts, rules acceptance, verification levels', async () => {
  const w = await world({ members: 2 });
  const [a, b] = w.members;
  const r = await w.send(a, { content: 'oi', embeds: [{ title: 'ignorado' }] });
  assert.equal(r.status, 200);
  assert.equal(r.body.message.embeds, null);
  assert.equal(r.body.message.applicationId, null);
  const fromBot = await api(srv.url, 'POST', w.url, { token: w.info.botToken, body: { content: 'sou bot', components: [{ type: 1 }] } });
  assert.equal(fromBot.status, 200);
  assert.equal(fromBot.body.message.components, null);
  assert.equal(fromBot.body.message.applicationId, null);
  // Timeout: no sending, reacting or pinning.
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}/members/${b.user.id}`, { token: w.owner.token, body: { timeoutUntil: new Date(Date.now() + 600_000).toISOString() } });
  assert.equal((await w.send(b, { content: 'x' })).status, 403);
  assert.equal((await api(srv.url, 'POST', `${w.url}/${r.body.message.id}/react`, { token: b.token, body: { emoji: '👍' } })).status, 403);
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}/members/${b.user.id}`, { token: w.owner.token, body: { timeoutUntil: null } });
  // Rules.
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { requiresRulesAcceptance: true, rules: 'Seja gentil' } });
  const rules = await w.send(a, { content: 'x' });
  assert.equal(rules.status, 403);
  assert.equal(rules.body.requiresRulesAcceptance, true);
  const botRules = await api(srv.url, 'POST', w.url, { token: w.info.botToken, body: { content: 'x' } });
  assert.equal(botRules.status, 403);
  assert.equal(botRules.body.requiresRulesAcceptance, true);
  assert.equal((await w.botSend({ content: 'a rota de bot não tem regras' })).status, 200);
  await api(srv.url, 'POST', `/api/servers/${w.sid}/rules/accept`, { token: a.token });
  assert.equal((await w.send(a, { content: 'aceitei' })).status, 200);
  assert.equal((await w.send(w.owner, { content: 'o dono não precisa' })).status, 200);
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { requiresRulesAcceptance: false, verificationLevel: 1 } });
  // Level 1: accounts younger than 5 minutes wait.
  const lvl = await w.send(b, { content: 'x' });
  assert.equal(lvl.status, 403);
  assert.equal(lvl.body.verificationLevelBlocked, true);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 5 * 60_000 + 1 } });
  assert.equal((await w.send(b, { content: 'agora sim' })).status, 200);
  // Level 2: members for less than 10 minutes wait.
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { verificationLevel: 2 } });
  assert.equal((await w.send(b, { content: 'x' })).body.verificationLevelBlocked, true);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 5 * 60_000 } });
  assert.equal((await w.send(b, { content: 'membro antigo' })).status, 200);
  // Level 3: two-factor too.
  await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { verificationLevel: 3 } });
  assert.equal((await w.send(b, { content: 'x' })).body.verificationLevelBlocked, true);
  const enrol = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: b.token });
  const now = Date.now() + 10 * 60_000 + 2;
  await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: b.token, body: { code: totp(enrol.body.secret, now) } });
  assert.equal((await w.send(b, { content: 'com 2FA' })).status, 200);
  assert.equal((await w.send(b, {})).status, 400);
  assert.equal((await w.send(b, { content: 'a'.repeat(4001) })).status, 400);
});

test('threads: from a message (once), talk in them, history; forum posts; bots stay out', async () => {
  const w = await world({ bits: BOT_BITS | P.GERENCIAR_CANAIS });
  const root = await w.send(w.members[0], { content: 'vamos conversar' });
  const t = await api(srv.url, 'POST', `${w.url}/${root.body.message.id}/threads`, { token: w.members[0].token, body: { name: 'Conversa' } });
  assert.equal(t.status, 201);
  assert.equal(t.body.channel.type, 'thread');
  assert.equal(t.body.channel.parentId, w.cid);
  assert.equal((await api(srv.url, 'POST', `${w.url}/${root.body.message.id}/threads`, { token: w.owner.token, body: { name: 'de novo' } })).status, 409);
  assert.equal((await api(srv.url, 'POST', `${w.url}/${root.body.message.id}/threads`, { token: w.owner.token, body: {} })).body.error, 'name: obrigatório');
  const tid = t.body.channel.id;
  const turl = `/api/servers/${w.sid}/channels/${tid}/messages`;
  const inThread = await api(srv.url, 'POST', turl, { token: w.owner.token, body: { content: 'na thread' } });
  assert.equal(inThread.status, 200);
  assert.equal(inThread.body.message.channelId, w.cid);
  assert.equal(inThread.body.message.threadId, tid);
  assert.deepEqual((await api(srv.url, 'GET', turl, { token: w.members[0].token })).body.messages.map((m) => m.content), ['na thread']);
  assert.ok(!(await api(srv.url, 'GET', w.url, { token: w.owner.token })).body.messages.some((m) => m.content === 'na thread'), 'thread messages stay in the thread');
  assert.equal((await api(srv.url, 'POST', turl, { token: w.info.botToken, body: { content: 'bot' } })).status, 400, 'bots do not post in threads');
  const forum = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'ideias', type: 'forum' } });
  const post = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${forum.body.channel.id}/threads`, { token: w.members[0].token, body: { name: 'Ideia 1', content: 'que tal?' } });
  assert.equal(post.status, 201);
  assert.equal(post.body.message.threadId, post.body.channel.id);
  assert.equal(post.body.message.channelId, forum.body.channel.id);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${forum.body.channel.id}/messages`, { token: w.owner.token, body: { content: 'x' } })).status, 400);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/threads`, { token: w.owner.token, body: { name: 'x', content: 'y' } })).status, 400);
});

test('DMs: send and read between the two people only', async () => {
  const a = await register(srv.url);
  const b = await register(srv.url);
  const c = await register(srv.url);
  await acquaint(srv.url, a, b, c);
  const dm = await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } });
  const url = `/api/dms/${dm.body.channel.id}/messages`;
  const sent = await api(srv.url, 'POST', url, { token: a.token, body: { content: 'oi, B' } });
  assert.equal(sent.status, 200);
  assert.equal(sent.body.message.serverId, null);
  assert.equal(sent.body.message.channelId, dm.body.channel.id);
  const reply = await api(srv.url, 'POST', url, { token: b.token, body: { content: 'oi, A', replyToId: sent.body.message.id } });
  assert.equal(reply.body.message.replyTo.id, sent.body.message.id);
  assert.deepEqual((await api(srv.url, 'GET', url, { token: b.token })).body.messages.map((m) => m.content), ['oi, B', 'oi, A']);
  assert.equal((await api(srv.url, 'GET', url, { token: c.token })).status, 404);
  assert.equal((await api(srv.url, 'POST', url, { token: c.token, body: { content: 'x' } })).status, 404);
  assert.equal((await api(srv.url, 'POST', url, { token: a.token, body: {} })).status, 400);
});

test('DMs: either person reacts to and pins any message of their conversation; nobody else, and never a message elsewhere', async () => {
  const a = await register(srv.url);
  const b = await register(srv.url);
  const c = await register(srv.url);
  const sid = await acquaint(srv.url, a, b, c);
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } })).body.channel;
  const url = `/api/dms/${dm.id}`;
  const m = (await api(srv.url, 'POST', `${url}/messages`, { token: a.token, body: { content: 'fixa isto' } })).body.message;
  const react = (who, body, mid = m.id, where = url) => api(srv.url, 'POST', `${where}/messages/${mid}/react`, { token: who.token, body });
  const pin = (who, mid = m.id, where = url) => api(srv.url, 'POST', `${where}/messages/${mid}/pin`, { token: who.token });
  const r1 = await react(b, { emoji: '👍' });
  assert.equal(r1.status, 200, r1.text);
  assert.deepEqual(r1.body.reactions.map((r) => [r.emoji, r.count]), [['👍', 1]]);
  assert.deepEqual((await react(a, { emoji: '👍' })).body.reactions.map((r) => [r.emoji, r.count]), [['👍', 2]]);
  assert.deepEqual((await react(a, { emoji: '👍' })).body.reactions.map((r) => [r.emoji, r.count]), [['👍', 1]], 'a second time takes it back');
  assert.deepEqual((await pin(b)).body, { pinned: true });
  assert.deepEqual((await api(srv.url, 'GET', `${url}/pins`, { token: a.token })).body.messages.map((x) => x.id), [m.id]);
  const listed = (await api(srv.url, 'GET', `${url}/messages`, { token: a.token })).body.messages[0];
  assert.equal(listed.pinned, true);
  assert.deepEqual(listed.reactions.map((r) => r.emoji), ['👍']);
  // Not for the third person, nor for a message of another channel, nor with a bad body.
  assert.equal((await react(c, { emoji: '👍' })).status, 404);
  assert.equal((await pin(c)).status, 404);
  assert.equal((await api(srv.url, 'GET', `${url}/pins`, { token: c.token })).status, 404);
  const geral = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: a.token })).body.channels[0].id;
  const elsewhere = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: a.token, body: { content: 'no servidor' } })).body.message;
  assert.equal((await react(a, { emoji: '👍' }, elsewhere.id)).status, 404);
  assert.equal((await pin(a, elsewhere.id)).status, 404);
  assert.equal((await react(a, {})).body.error, 'emoji: obrigatório (ou customEmojiId)');
  assert.equal((await react(a, { emoji: 'abc' })).body.error, 'emoji: deve ser um emoji');
  assert.deepEqual((await pin(a)).body, { pinned: false }, 'unpinned by the other person');
  const info = await appWithBot(srv.url, a);
  assert.equal((await react({ token: info.botToken }, { emoji: '👍' })).status, 403, 'bots have no DMs');
});

test('DMs: one edits and deletes one\'s own message; both pages hear it; nobody else may, nor anywhere else', async () => {
  const a = await register(srv.url);
  const b = await register(srv.url);
  const c = await register(srv.url);
  await acquaint(srv.url, a, b, c);
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } })).body.channel;
  const other = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: c.user.id } })).body.channel;
  const url = `/api/dms/${dm.id}/messages`;
  const mine = (await api(srv.url, 'POST', url, { token: a.token, body: { content: 'oi, B' } })).body.message;
  const hers = (await api(srv.url, 'POST', url, { token: b.token, body: { content: 'oi, A' } })).body.message;
  const sockets = [];
  const bSocket = await gatewayConnect(srv.url, { auth: { token: b.token } }, sockets);
  const updated = nextEvent(bSocket, 'MESSAGE_UPDATE');
  const edited = await api(srv.url, 'PATCH', `${url}/${mine.id}`, { token: a.token, body: { content: 'olá, B' } });
  assert.equal(edited.status, 200);
  assert.equal(edited.body.message.content, 'olá, B');
  assert.ok(edited.body.message.editedAt);
  const { id, content, serverId, channelId } = await updated;
  assert.deepEqual({ id, content, serverId, channelId }, { id: mine.id, content: 'olá, B', serverId: null, channelId: dm.id });
  const refusals = [
    [b.token, 'PATCH', `${url}/${mine.id}`, { content: 'x' }, 403, 'Só quem escreveu a mensagem pode editá-la'],
    [a.token, 'DELETE', `${url}/${hers.id}`, undefined, 403, 'Só quem escreveu a mensagem pode apagá-la'],
    [c.token, 'PATCH', `${url}/${mine.id}`, { content: 'x' }, 404, 'Conversa não encontrada'],
    [c.token, 'DELETE', `${url}/${mine.id}`, undefined, 404, 'Conversa não encontrada'],
    [a.token, 'PATCH', `/api/dms/${other.id}/messages/${mine.id}`, { content: 'x' }, 404, 'Mensagem não encontrada'],
    [a.token, 'PATCH', `${url}/nada`, { content: 'x' }, 404, 'Mensagem não encontrada'],
    [a.token, 'PATCH', `${url}/${mine.id}`, {}, 400, 'content: obrigatório'],
    [a.token, 'PATCH', `${url}/${mine.id}`, { content: 'x'.repeat(4001) }, 400, null],
  ];
  for (const [token, method, path, body, status, error] of refusals) {
    const r = await api(srv.url, method, path, { token, body });
    assert.equal(r.status, status, `${method} ${path}`);
    if (error) assert.equal(r.body.error, error);
  }
  const deleted = nextEvent(bSocket, 'MESSAGE_DELETE');
  assert.equal((await api(srv.url, 'DELETE', `${url}/${mine.id}`, { token: a.token })).status, 200);
  assert.deepEqual(await deleted, { id: mine.id, serverId: null, channelId: dm.id });
  assert.deepEqual((await api(srv.url, 'GET', url, { token: b.token })).body.messages.map((m) => m.content), ['oi, A']);
  assert.equal((await api(srv.url, 'DELETE', `${url}/${mine.id}`, { token: a.token })).status, 404, 'gone');
  for (const s of sockets) s.close();
});

test('mention counts: by name, @everyone, a role one holds, after the mark only', async () => {
  const { owner: a, sid, server, members: [b, c] } = await serverWithMembers(srv.url, 2);
  const geral = server.channels[0].id;
  const post = async (who, content) => (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: who.token, body: { content } })).body.message;
  const count = async (who) => ((await api(srv.url, 'GET', '/api/users/@me/unread', { token: who.token })).body.unread.find((u) => u.channelId === geral) || {}).mentionCount;
  const role = (await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: a.token, body: { name: 'Plantao', mentionable: true } })).body.role;
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${b.user.id}/roles/${role.id}`, { token: a.token });
  const first = await post(a, `@${b.user.username} oi`);
  await post(a, 'nada para ninguém');
  await post(a, '@everyone reunião');
  await post(a, '@Plantao alguém?');
  await post(a, `@${c.user.username} só para a C`);
  assert.equal(await count(b), 3, 'by name, @everyone, and the role B holds');
  assert.equal(await count(c), 2, 'by name and @everyone; not the role');
  await api(srv.url, 'PUT', `/api/users/@me/read-states/${geral}`, { token: b.token, body: { messageId: first.id } });
  assert.equal(await count(b), 2, 'only after the mark');
  await post(b, `@${b.user.username} eu mesmo`);
  assert.equal(await count(b), 2, 'one\'s own messages never count');
});

test('read state: unread until read up to the newest message by someone else, never back; threads, DMs, hidden channels; bad marks refused', async () => {
  const { owner: a, sid, server, members: [b] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const post = async (who, cid, content) => (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: who.token, body: { content } })).body.message;
  const unread = async (who) => (await api(srv.url, 'GET', '/api/users/@me/unread', { token: who.token })).body.unread;
  const mark = (who, cid, messageId) => api(srv.url, 'PUT', `/api/users/@me/read-states/${cid}`, { token: who.token, body: { messageId } });
  const m1 = await post(a, geral, 'um');
  const m2 = await post(a, geral, 'dois');
  assert.deepEqual(await unread(b), [{ channelId: geral, serverId: sid, lastMessageId: m2.id, lastReadId: null, mentionCount: 0 }]);
  assert.deepEqual(await unread(a), [], 'one\'s own messages are read');
  assert.deepEqual((await mark(b, geral, m1.id)).body, { ok: true });
  assert.deepEqual(await unread(b), [{ channelId: geral, serverId: sid, lastMessageId: m2.id, lastReadId: m1.id, mentionCount: 0 }], 'a newer one is left, after the mark');
  assert.equal((await mark(b, geral, m2.id)).status, 200);
  assert.deepEqual(await unread(b), []);
  assert.equal((await mark(b, geral, m1.id)).status, 200);
  assert.deepEqual(await unread(b), [], 'a mark never goes back');
  await post(b, geral, 'minha'); // B's own: still read
  assert.deepEqual(await unread(b), []);
  // A thread, a channel B cannot see, and a DM.
  const m3 = await post(a, geral, 'tres');
  const thread = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages/${m3.id}/threads`, { token: a.token, body: { name: 't' } })).body.channel;
  const inThread = await post(a, thread.id, 'na thread');
  const secret = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: a.token, body: { name: 'segredo' } })).body.channel;
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${secret.id}/overwrites/${sid}`, { token: a.token, body: { type: 'role', deny: P.VER_CANAL } });
  const hidden = await post(a, secret.id, 'oculto');
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } })).body.channel;
  const inDm = (await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: a.token, body: { content: 'oi' } })).body.message;
  const got = await unread(b);
  assert.deepEqual(got.map((u) => u.channelId).sort(), [geral, thread.id, dm.id].sort(), 'not the hidden channel');
  assert.deepEqual(got.find((u) => u.channelId === dm.id), { channelId: dm.id, serverId: null, lastMessageId: inDm.id, lastReadId: null, mentionCount: 1 }, 'every DM message counts');
  assert.equal(got.find((u) => u.channelId === thread.id).lastMessageId, inThread.id);
  assert.equal((await mark(b, dm.id, inDm.id)).status, 200);
  assert.equal((await mark(b, thread.id, inThread.id)).status, 200);
  assert.deepEqual((await unread(b)).map((u) => u.channelId), [geral]);
  // Refused: a channel one cannot see or is not in, another channel's message, no or a bad ID.
  assert.equal((await mark(b, secret.id, hidden.id)).status, 404);
  const stranger = await register(srv.url);
  assert.equal((await mark(stranger, geral, m3.id)).status, 404);
  assert.equal((await mark(stranger, dm.id, inDm.id)).status, 404);
  assert.equal((await mark(b, BOGUS_ID, m3.id)).status, 404);
  assert.equal((await mark(b, geral, inThread.id)).body.error, 'messageId: não é uma mensagem deste canal');
  assert.equal((await mark(b, geral, BOGUS_ID)).status, 400);
  assert.equal((await mark(b, geral, 'x')).body.error, 'messageId: deve ser um UUID');
  assert.equal((await api(srv.url, 'PUT', `/api/users/@me/read-states/${geral}`, { token: b.token, body: {} })).body.error, 'messageId: obrigatório');
  const info = await appWithBot(srv.url, a);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me/unread', { token: info.botToken })).status, 403);
  // 60 marks a minute (B has made 7 so far).
  const statuses = [];
  for (let i = 0; i < 54; i++) statuses.push((await mark(b, geral, m3.id)).status);
  assert.deepEqual([...new Set(statuses.slice(0, 53))], [200]);
  assert.equal(statuses[53], 429, 'the 61st in a minute');
});
