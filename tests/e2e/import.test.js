// praca import discord: a DiscordChatExporter export (tests/e2e/fixtures/discord, made from the
// exporter's documented JSON, with its odd cases) becomes a server, read back through the API
// of a live server beside it; run again, or killed halfway and run again, it writes nothing
// twice; and history is never news: no event reaches a page or a bot.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync, spawn } = require('node:child_process');
const helpers = require('./helpers');
const { api, register, eventually, gatewayConnect, quiet, BIN, sharedServer, tempDir, appWithBot, install } = helpers;

const sockets = [];
const srv = sharedServer({}, sockets);
const FIXTURE = path.join(__dirname, 'fixtures', 'discord');
const praca = (...args) => spawnSync(BIN, [...args, ...srv.storeArgs], { encoding: 'utf8' });
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(FIXTURE, fs.readdirSync(FIXTURE).find((f) => f.includes(name))), 'utf8'));

const importedServer = (owner, name) => helpers.importedServer(srv.url, owner, name);

async function history(owner, sid, cid) {
  const r = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${cid}/messages?limit=100`, { token: owner.token });
  assert.equal(r.status, 200);
  return r.body.messages.slice().sort((a, b) => (a.id < b.id ? -1 : 1));
}

test('a Discord export becomes a server: channels, categories, threads, people, messages with their times, replies, reactions, pins', async () => {
  const owner = await register(srv.url);
  const r = praca('import', 'discord', FIXTURE, '--server', 'Clube do Livro', '--owner', owner.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /#geral: 7 of 7 messages/);
  assert.match(r.stdout, /4 channels, 12 messages written, 0 there already, 1 left out, \d+ people/);
  const tree = await importedServer(owner, 'Clube do Livro');
  assert.equal(tree.server.ownerId, owner.user.id);
  const byName = (n) => tree.channels.find((c) => c.name === n);
  const category = byName('Conversa');
  assert.equal(category.type, 'category');
  assert.equal(byName('geral').parentId, category.id);
  assert.equal(byName('avisos').parentId, null);
  assert.equal(byName('Tópico órfão').type, 'text', "a thread whose channel was deleted comes as a channel");
  assert.equal(byName('Livro do mês'), undefined, 'a thread is not a channel of the list');

  const sid = tree.server.id, geral = byName('geral').id;
  const source = fixture('geral [').messages;
  const ms = await history(owner, sid, geral);
  assert.equal(ms.length, 7, 'six messages (one in two parts); the join notice left out');
  // Times and order as they were.
  for (const [i, at] of [[0, 0], [1, 1], [2, 2], [3, 3], [4, 5]]) assert.equal(Date.parse(ms[i].createdAt), Date.parse(source[at].timestamp));
  assert.deepEqual(ms.map((m) => m.createdAt), ms.map((m) => m.createdAt).slice().sort());
  const [hello, question, gone, cover, long1, long2, orphanReply] = ms;
  assert.equal(hello.content, source[0].content);
  assert.equal(hello.pinned, true);
  assert.deepEqual(hello.reactions.map((x) => [x.emoji, x.count]), [['👍', 2]], "a server's own emoji is left out");
  assert.equal(question.replyTo.id, hello.id);
  assert.equal(Date.parse(question.editedAt), Date.parse(source[1].timestampEdited));
  assert.equal(orphanReply.replyToId, null, 'a reply to a message the export lacks is plain');
  assert.match(cover.content, /^A capa:\nhttps:\/\/cdn\.discordapp\.com\/attachments\/1\/2\/capa\.png$/);
  assert.equal([...long1.content].length, 4000);
  assert.equal(long1.content + long2.content, source[5].content, 'a message past 4000 characters in parts, in order');
  assert.equal(long1.fromId, long2.fromId);
  const pins = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${geral}/pins`, { token: owner.token });
  assert.deepEqual(pins.body.messages.map((m) => m.id), [hello.id]);

  // The thread hangs from the message it started from, with its own messages.
  const threads = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${geral}/threads`, { token: owner.token });
  assert.equal(threads.body.threads.length, 1);
  const thread = threads.body.threads[0];
  assert.equal(thread.name, 'Livro do mês');
  assert.equal(thread.originMessageId, question.id);
  const inThread = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${thread.id}/messages`, { token: owner.token });
  assert.deepEqual(inThread.body.messages.map((m) => m.content).sort(), ['Boa escolha!', 'Voto no Dom Casmurro.']);

  // The authors: placeholders by the names they had, marked imported, whom nobody signs in as.
  const members = (await api(srv.url, 'GET', `/api/servers/${sid}/members?limit=100`, { token: owner.token })).body.members;
  const named = (n) => members.find((m) => m.user.displayName === n);
  for (const n of ['Alice', 'Bóris Ünal', '雪 Yuki', 'Deleted User']) assert.equal(named(n).user.imported, true, n);
  assert.equal(members.find((m) => m.userId === owner.user.id).user.imported, false);
  assert.equal(question.fromId, named('Bóris Ünal').userId);
  // Their roles, with their names, colours and order, and no permissions (Discord's do not map).
  const roles = tree.roles.filter((r) => r.name !== '@everyone');
  assert.deepEqual(roles.map((r) => [r.name, r.color, r.permissions]).sort(), [['Leitores', 0x3498db, 0], ['Moderação', 0xe67e22, 0]]);
  const role = (n) => roles.find((r) => r.name === n).id;
  assert.ok(roles.find((r) => r.name === 'Moderação').position > roles.find((r) => r.name === 'Leitores').position);
  assert.deepEqual(named('Alice').roleIds.slice().sort(), [role('Moderação'), role('Leitores')].sort());
  assert.deepEqual(named('Bóris Ünal').roleIds, [role('Leitores')]);
  assert.deepEqual(named('雪 Yuki').roleIds, []);
  assert.equal(gone.fromId, named('Deleted User').userId);
  const card = await api(srv.url, 'GET', `/api/users/${named('Alice').userId}/profile`, { token: owner.token });
  assert.equal(card.body.user.imported, true);
  const login2 = await api(srv.url, 'POST', '/api/auth/login', { body: { username: named('Alice').user.username, password: 'qualquer-coisa-1' } });
  assert.equal(login2.status, 401);

  // Searchable like any history.
  const found = await api(srv.url, 'GET', `/api/servers/${sid}/messages/search?q=Casmurro`, { token: owner.token });
  assert.deepEqual(found.body.messages.map((m) => m.content), ['Voto no Dom Casmurro.']);

  // Run again: nothing twice.
  const again = praca('import', 'discord', FIXTURE, '--server', 'Clube do Livro', '--owner', owner.user.username);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /0 messages written, 12 there already, 1 left out, 0 people/);
  assert.equal((await history(owner, sid, geral)).length, 7);
});

test('a Discord server\'s structure brings its roles with their permissions, its categories, voice and forum channels, and overwrites', async () => {
  const { P } = require('./permissions');
  const owner = await register(srv.url);
  const structure = path.join(__dirname, 'fixtures', 'discord-structure', 'guild.json');
  const r = praca('import', 'discord', FIXTURE, '--server', 'Clube Estruturado', '--owner', owner.user.username, '--structure', structure);
  assert.equal(r.status, 0, r.stderr);
  const tree = await importedServer(owner, 'Clube Estruturado');
  const role = (n) => tree.roles.find((x) => x.name === n);
  const bits = (x) => BigInt(x.permissions);
  const everyone = tree.roles.find((x) => x.id === tree.server.id);
  assert.equal(bits(everyone), BigInt(P.VER_CANAL | P.ENVIAR_MENSAGENS | P.ADICIONAR_REACOES | P.CONECTAR_VOZ | P.FALAR | P.CRIAR_CONVITE), "@everyone takes Discord's, mapped");
  assert.equal(bits(role('Moderação')), BigInt(P.GERENCIAR_MENSAGENS | P.FIXAR_MENSAGENS | P.EXPULSAR_MEMBROS | P.MODERAR_MEMBROS));
  assert.equal(role('Moderação').hoist, true);
  assert.equal(role('Moderação').color, 0xE67E22);
  assert.equal(bits(role('Leitores')), 0n);
  assert.equal(role('Carl-bot'), undefined, "a bot's own role is not brought");
  const byName = (n) => tree.channels.find((c) => c.name === n);
  assert.equal(byName('Conversa').type, 'category');
  assert.equal(byName('geral').parentId, byName('Conversa').id, 'the history lands in the structure\'s channel');
  assert.equal(byName('geral').topic, 'Tudo sobre o clube');
  assert.equal(byName('Sala de leitura').type, 'voice');
  assert.equal(byName('ideias').type, 'forum');
  assert.equal(byName('Palco').type, 'voice', 'a stage is a voice channel');
  const hidden = byName('moderação');
  assert.deepEqual(hidden.overwrites.map((o) => [o.targetId, BigInt(o.allow), BigInt(o.deny)]).sort(),
    [[tree.server.id, 0n, BigInt(P.VER_CANAL)], [role('Moderação').id, BigInt(P.VER_CANAL | P.ENVIAR_MENSAGENS), 0n]].sort(), "a member's overwrite is left out");
  assert.equal(byName('avisos').overwrites[0].targetId, tree.server.id);
  const geral = await history(owner, tree.server.id, byName('geral').id);
  assert.equal(geral.length, 7, 'the history as without a structure');
  const bad = praca('import', 'discord', FIXTURE, '--server', 'Outro', '--owner', owner.user.username, '--structure', path.join(FIXTURE, fs.readdirSync(FIXTURE)[0]));
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /not a Discord server's structure/);
});

test('a placeholder is claimed with a code its server\'s manager hands out: its messages and reactions become the claimer\'s', async () => {
  const owner = await register(srv.url);
  assert.equal(praca('import', 'discord', FIXTURE, '--server', 'Reivindicar', '--owner', owner.user.username).status, 0);
  const tree = await importedServer(owner, 'Reivindicar');
  const sid = tree.server.id;
  const members = async () => (await api(srv.url, 'GET', `/api/servers/${sid}/members?limit=100`, { token: owner.token })).body.members;
  const alice = (await members()).find((m) => m.user.displayName === 'Alice');
  const yuki = (await members()).find((m) => m.user.displayName === '雪 Yuki');
  // Only managers make codes, only for placeholders.
  const stranger = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/members/${alice.userId}/claim-code`, { token: stranger.token })).status, 404);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/members/${owner.user.id}/claim-code`, { token: owner.token })).status, 404);
  const made = await api(srv.url, 'POST', `/api/servers/${sid}/members/${alice.userId}/claim-code`, { token: owner.token });
  assert.equal(made.status, 200);
  assert.equal(made.body.userId, alice.userId);
  assert.ok(Date.parse(made.body.expiresAt) > Date.now() + 6 * 86400e3);
  const seen = await api(srv.url, 'GET', `/api/claims/${made.body.code}`, { token: stranger.token });
  assert.deepEqual(seen.body.claim, { serverId: sid, serverName: 'Reivindicar', userId: alice.userId, displayName: 'Alice', messages: 4 });
  for (const bad of ['x', 'a'.repeat(43), made.body.code.slice(0, -1) + '!']) {
    assert.equal((await api(srv.url, 'GET', `/api/claims/${encodeURIComponent(bad)}`, { token: stranger.token })).status, 404, bad);
  }
  // A new code replaces the last one.
  const again = await api(srv.url, 'POST', `/api/servers/${sid}/members/${alice.userId}/claim-code`, { token: owner.token });
  assert.equal((await api(srv.url, 'GET', `/api/claims/${made.body.code}`, { token: stranger.token })).status, 404);

  // Someone who was not a member claims Alice: they join, and her words are theirs.
  const claimed = await api(srv.url, 'POST', `/api/claims/${again.body.code}`, { token: stranger.token });
  assert.equal(claimed.status, 200, claimed.text);
  assert.deepEqual(claimed.body.claim, { serverId: sid, placeholderId: alice.userId, messages: 4, joined: true });
  assert.equal((await api(srv.url, 'POST', `/api/claims/${again.body.code}`, { token: stranger.token })).status, 404, 'good once');
  const geral = tree.channels.find((c) => c.name === 'geral').id;
  const ms = await history(stranger, sid, geral);
  assert.equal(ms[0].fromId, stranger.user.id);
  assert.equal(ms[0].content, 'Olá a todos! Bem-vindos ao clube.');
  assert.equal(ms[1].replyTo.fromId, stranger.user.id);
  const now = await members();
  assert.equal(now.find((m) => m.userId === alice.userId), undefined, 'the placeholder is gone');
  assert.equal(now.find((m) => m.userId === stranger.user.id).user.imported, false);
  assert.equal((await api(srv.url, 'GET', `/api/users/${alice.userId}/profile`, { token: owner.token })).status, 404);
  const thread = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${geral}/threads`, { token: owner.token })).body.threads[0];
  const inThread = await history(owner, sid, thread.id);
  assert.deepEqual(inThread[1].reactions.map((r) => [r.emoji, r.userIds]), [['❤️', [stranger.user.id]]], 'her reaction moved with her');

  // A member claims Yuki, whose 👍 they had also given: it stays once; they keep their own place.
  const member = stranger;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages/${ms[0].id}/react`, { token: member.token, body: { emoji: '👍' } });
  const before = (await history(owner, sid, geral))[0].reactions.find((r) => r.emoji === '👍');
  assert.ok(before.userIds.includes(member.user.id) && before.userIds.includes(yuki.userId));
  const code = (await api(srv.url, 'POST', `/api/servers/${sid}/members/${yuki.userId}/claim-code`, { token: owner.token })).body.code;
  const second = await api(srv.url, 'POST', `/api/claims/${code}`, { token: member.token });
  assert.equal(second.status, 200);
  assert.equal(second.body.claim.joined, false);
  const after = (await history(owner, sid, geral))[0].reactions.find((r) => r.emoji === '👍');
  assert.equal(after.count, before.count - 1);
  assert.deepEqual(after.userIds.filter((u) => u === member.user.id), [member.user.id]);

  // Banned people and bots do not claim.
  const bob = (await members()).find((m) => m.user.displayName === 'Bóris Ünal');
  const banned = await register(srv.url);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${banned.user.id}`, { token: owner.token, body: {} })).status, 200);
  const bobCode = (await api(srv.url, 'POST', `/api/servers/${sid}/members/${bob.userId}/claim-code`, { token: owner.token })).body.code;
  assert.equal((await api(srv.url, 'POST', `/api/claims/${bobCode}`, { token: banned.token })).status, 403);
  const app = await appWithBot(srv.url, owner);
  assert.equal((await api(srv.url, 'POST', `/api/claims/${bobCode}`, { token: app.botToken })).status, 403);
  assert.equal((await api(srv.url, 'GET', `/api/claims/${bobCode}`, { token: owner.token })).status, 200, 'still good after refusals');
  const log = await api(srv.url, 'GET', `/api/servers/${sid}/audit-log?action=member.claim`, { token: owner.token });
  assert.equal(log.body.entries.length, 2);
});

test('a Mattermost bulk export: one team becomes a server, replies become threads, private channels stay private', async () => {
  const owner = await register(srv.url);
  const file = path.join(__dirname, 'fixtures', 'mattermost', 'export.jsonl');
  const several = praca('import', 'mattermost', file, '--server', 'Clube MM', '--owner', owner.user.username);
  assert.equal(several.status, 1);
  assert.match(several.stderr, /several teams; choose one with --team: clube outro/);
  assert.match(praca('import', 'mattermost', file, '--server', 'Clube MM', '--owner', owner.user.username, '--team', 'nenhum').stderr, /no team named nenhum/);
  const r = praca('import', 'mattermost', file, '--server', 'Clube MM', '--owner', owner.user.username, '--team', 'clube');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /4 channels, 9 messages written, 0 there already, 2 left out, 4 people/);
  assert.match(r.stderr, /line 17 left out: a post without its user or time/);
  const tree = await importedServer(owner, 'Clube MM');
  const sid = tree.server.id;
  const byName = (n) => tree.channels.find((c) => c.name === n);
  assert.deepEqual(tree.channels.filter((c) => c.type === 'text').map((c) => c.name), ['Town Square', 'Off-Topic', 'Segredos']);
  assert.equal(byName('Town Square').topic, 'Tudo sobre o clube');
  assert.equal(byName('Off-Topic').topic, 'Conversa solta', 'the header when there is no purpose');
  const members = (await api(srv.url, 'GET', `/api/servers/${sid}/members?limit=100`, { token: owner.token })).body.members;
  const named = (n) => members.find((m) => m.user.displayName === n);
  for (const n of ['Alice', 'Bóris Ünal', 'yuki', 'dani']) assert.equal(named(n).user.imported, true, n);
  // Private: hidden from @everyone, shown to its members.
  const secret = byName('Segredos');
  const everyone = secret.overwrites.find((o) => o.targetId === sid);
  assert.equal(everyone.deny & 256, 256);
  assert.deepEqual(secret.overwrites.filter((o) => o.type === 'member' && o.allow & 256).map((o) => o.targetId).sort(), [named('Alice').userId, named('yuki').userId].sort());
  const guest = await register(srv.url);
  const invite = await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} });
  await api(srv.url, 'POST', `/api/invites/${invite.body.code}/join`, { token: guest.token });
  const seen = await api(srv.url, 'GET', `/api/servers/${sid}`, { token: guest.token });
  assert.equal(seen.body.channels.some((c) => c.name === 'Segredos'), false, 'a private channel stays private');
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/channels/${secret.id}/messages`, { token: guest.token })).status, 403);

  const ms = await history(owner, sid, byName('Town Square').id);
  assert.deepEqual(ms.map((m) => m.content.slice(0, 12)), ['Olá a todos!', 'Qual é o liv', 'A capa:\n📎 c', 'Capítulo um,', 'éééééééééééé']);
  const [hello, question, cover] = ms;
  assert.equal(hello.pinned, true);
  assert.equal(hello.createdAt, new Date(1690000000000).toISOString());
  assert.deepEqual(hello.reactions.map((x) => [x.emoji, x.userIds]), [['👍', [named('Bóris Ünal').userId]]], "a team's own emoji is left out");
  assert.equal(cover.content, 'A capa:\n📎 capa.png');
  const threads = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${byName('Town Square').id}/threads`, { token: owner.token })).body.threads;
  assert.deepEqual(threads.map((t) => [t.name, t.originMessageId]), [['Qual é o livro do mês?', question.id]]);
  const replies = await history(owner, sid, threads[0].id);
  assert.deepEqual(replies.map((m) => [m.content, m.fromId]), [['Voto no Dom Casmurro.', named('yuki').userId], ['Boa escolha!', named('Alice').userId]]);
  assert.deepEqual(replies[1].reactions.map((x) => x.emoji), ['❤️']);
  assert.equal((await history(owner, sid, byName('Off-Topic').id))[0].fromId, named('dani').userId, 'an author the export does not list is named by their username');

  const again = praca('import', 'mattermost', file, '--server', 'Clube MM', '--owner', owner.user.username, '--team', 'clube');
  assert.match(again.stdout, /0 messages written, 9 there already/);
  const dir = tempDir('praca-import-mm-');
  fs.writeFileSync(path.join(dir, 'x.jsonl'), '{"type":"team","team":{"name":"t"}}\n');
  assert.match(praca('import', 'mattermost', path.join(dir, 'x.jsonl'), '--server', 'x', '--owner', owner.user.username).stderr, /not a Mattermost bulk export/);
});

test('a Slack workspace export: channels by day files, threads, mentions named, private channels private', async () => {
  const owner = await register(srv.url);
  const dir = path.join(__dirname, 'fixtures', 'slack');
  const r = praca('import', 'slack', dir, '--server', 'Clube Slack', '--owner', owner.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /4 channels, 10 messages written, 0 there already, 2 left out, 4 people/);
  assert.match(r.stderr, /channel 2 left out: a channel without an id or a usable name/, 'a name that would leave the export is refused');
  const tree = await importedServer(owner, 'Clube Slack');
  const sid = tree.server.id;
  const byName = (n) => tree.channels.find((c) => c.name === n);
  assert.deepEqual(tree.channels.filter((c) => c.type === 'text').map((c) => [c.name, c.topic]), [['geral', 'Tudo sobre o clube'], ['aleatorio', 'Conversa solta'], ['segredos', 'Só a moderação']]);
  const members = (await api(srv.url, 'GET', `/api/servers/${sid}/members?limit=100`, { token: owner.token })).body.members;
  const named = (n) => members.find((m) => m.user.displayName === n);
  for (const n of ['Alice', 'Bóris Ünal', 'yuki', 'Lembretes']) assert.equal(named(n).user.imported, true, n);
  const secret = byName('segredos');
  assert.equal(secret.overwrites.find((o) => o.targetId === sid).deny & 256, 256);
  assert.deepEqual(secret.overwrites.filter((o) => o.type === 'member').map((o) => o.targetId).sort(), [named('Alice').userId, named('yuki').userId].sort());

  const ms = await history(owner, sid, byName('geral').id);
  assert.deepEqual(ms.map((m) => m.content.slice(0, 24)), ['Olá a todos! **Bem-vindo', 'Qual é o livro do mês?', 'A capa:\n📎 capa.png', 'Encontro sábado às 15h.', 'Capítulo um, resumido: é', 'éééééééééééééééééééééééé']);
  const [hello, question] = ms;
  assert.equal(hello.content, 'Olá a todos! **Bem-vindos** ao clube, @Bóris Ünal e @here.');
  assert.equal(hello.pinned, true);
  assert.equal(hello.createdAt, new Date(1690000000000).toISOString());
  assert.deepEqual(hello.reactions.map((x) => [x.emoji, x.count]), [['👍', 2]], 'a skin tone left out, a workspace emoji too');
  assert.equal(ms[3].fromId, named('Lembretes').userId, "a bot's post under the name it showed");
  const threads = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${byName('geral').id}/threads`, { token: owner.token })).body.threads;
  assert.deepEqual(threads.map((t) => [t.name, t.originMessageId]), [['Qual é o livro do mês?', question.id]]);
  const replies = await history(owner, sid, threads[0].id);
  assert.deepEqual(replies.map((m) => m.content), ['Voto no Dom Casmurro.', 'Boa escolha! Veja [a resenha](https://example.com/livro) em #aleatorio.']);
  assert.equal(Date.parse(replies[1].editedAt), 1690000070000);
  assert.deepEqual(replies[1].reactions.map((x) => x.emoji), ['❤️']);
  assert.deepEqual((await history(owner, sid, byName('aleatorio').id)).map((m) => m.content), ['No aleatório & <livre>.']);
  const again = praca('import', 'slack', dir, '--server', 'Clube Slack', '--owner', owner.user.username);
  assert.match(again.stdout, /4 channels, 0 messages written, 10 there already/);
  const empty = tempDir('praca-import-slack-');
  assert.match(praca('import', 'slack', empty, '--server', 'x', '--owner', owner.user.username).stderr, /users\.json: missing/);
});

test('a Slack export as Slack hands it over, a zip, imports as its folder does; a zip that would write elsewhere or lies about its bytes is refused', async () => {
  const owner = await register(srv.url);
  const zip = path.join(__dirname, 'fixtures', 'slack.zip');
  const r = praca('import', 'slack', zip, '--server', 'Clube Slack Zip', '--owner', owner.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /4 channels, 10 messages written, 0 there already, 2 left out, 4 people/);
  const tree = await importedServer(owner, 'Clube Slack Zip');
  const geral = tree.channels.find((c) => c.name === 'geral');
  assert.equal((await history(owner, tree.server.id, geral.id)).length, 6);
  const dir = tempDir('praca-import-zip-');
  // The same export under one folder, as some tools zip it; then two that must not be unpacked.
  const py = (script) => spawnSync('python3', ['-c', script], { cwd: dir, encoding: 'utf8' });
  const made = py(`
import zipfile, os
src = ${JSON.stringify(path.join(__dirname, 'fixtures', 'slack'))}
with zipfile.ZipFile('nested.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk(src):
        for f in files:
            p = os.path.join(root, f)
            z.write(p, 'export/' + os.path.relpath(p, src))
with zipfile.ZipFile('slip.zip', 'w') as z:
    z.writestr('users.json', '[]')
    z.writestr('../escaped.json', '[]')
data = open(os.path.join(src, 'users.json'), 'rb').read()
with zipfile.ZipFile('lies.zip', 'w') as z:
    z.writestr('users.json', data)
raw = bytearray(open('lies.zip', 'rb').read())
i = raw.index(data[:16]); raw[i] ^= 1
open('lies.zip', 'wb').write(raw)
`);
  assert.equal(made.status, 0, made.stderr);
  const nested = praca('import', 'slack', path.join(dir, 'nested.zip'), '--server', 'Clube Slack Pasta', '--owner', owner.user.username);
  assert.equal(nested.status, 0, nested.stderr);
  assert.match(nested.stdout, /10 messages written/);
  const unpackIn = tempDir('praca-unpack-');
  const unpacking = (...args) => spawnSync(BIN, [...args, ...srv.storeArgs], { encoding: 'utf8', env: { ...process.env, TMPDIR: unpackIn } });
  const slip = unpacking('import', 'slack', path.join(dir, 'slip.zip'), '--server', 'Fuga', '--owner', owner.user.username);
  assert.equal(slip.status, 1);
  assert.match(slip.stderr, /cannot be unpacked where it belongs/);
  assert.equal(fs.existsSync(path.join(unpackIn, 'escaped.json')), false);
  const lies = unpacking('import', 'slack', path.join(dir, 'lies.zip'), '--server', 'Mentira', '--owner', owner.user.username);
  assert.equal(lies.status, 1);
  assert.match(lies.stderr, /do not match/);
  assert.deepEqual(fs.readdirSync(unpackIn), [], 'nothing unpacked is left behind');
});

// An export of one channel with n messages, "m 0" … "m n-1", a second apart, by three authors.
function bigExport(dir, n) {
  const EPOCH = 1420070400000n, start = 1690000000000;
  const authors = [1, 2, 3].map((k) => ({ id: `20000000000000000${k}`, name: `autor${k}`, nickname: null, isBot: false }));
  const messages = Array.from({ length: n }, (_, i) => {
    const at = start + i * 1000;
    return { id: String((BigInt(at) - EPOCH) << 22n), type: 'Default', timestamp: new Date(at).toISOString(), timestampEdited: null,
      isPinned: false, content: `m ${i}`, author: authors[i % 3], attachments: [], reactions: [] };
  });
  fs.writeFileSync(path.join(dir, 'big.json'), JSON.stringify({
    guild: { id: '881', name: 'Grande' }, channel: { id: '882', type: 'GuildTextChat', categoryId: null, category: null, name: 'tudo', topic: null }, messages,
  }));
}

test('an import killed halfway, run again, ends with every message once', async () => {
  const owner = await register(srv.url);
  const dir = tempDir('praca-import-');
  const n = 3000;
  bigExport(dir, n);
  const args = ['import', 'discord', dir, '--server', 'Grande', '--owner', owner.user.username, '--batch', '20', ...srv.storeArgs];
  const first = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ended = new Promise((resolve) => first.on('exit', (code, signal) => resolve({ code, signal })));
  first.stdout.on('data', (d) => {
    out += d;
    if (/#tudo: \d+ of 3000/.test(out) && first.exitCode === null) first.kill('SIGKILL');
  });
  const { signal } = await ended;
  assert.equal(signal, 'SIGKILL', `the first run was killed before it ended (it printed ${out.length} bytes)`);
  const second = spawnSync(BIN, args, { encoding: 'utf8' });
  assert.equal(second.status, 0, second.stderr);
  const [, written, known] = second.stdout.match(/(\d+) messages written, (\d+) there already/).map(Number);
  assert.ok(known >= 20, `the first run's batches were kept (${known})`);
  assert.equal(written + known, n);
  const tree = await importedServer(owner, 'Grande');
  const cid = tree.channels.find((c) => c.name === 'tudo').id;
  const seen = [];
  for (let before = ''; ;) {
    const r = await api(srv.url, 'GET', `/api/servers/${tree.server.id}/channels/${cid}/messages?limit=100${before}`, { token: owner.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    seen.push(...r.body.messages);
    if (r.body.messages.length < 100) break;
    before = `&beforeId=${r.body.messages[0].id}`; // a page is oldest first
  }
  assert.equal(seen.length, n);
  assert.equal(new Set(seen.map((m) => m.content)).size, n, 'each message once');
  const byId = seen.slice().sort((a, b) => (a.id < b.id ? -1 : 1)).map((m) => Number(m.content.slice(2)));
  assert.deepEqual(byId, Array.from({ length: n }, (_, i) => i), 'history in the order it was written');
});

test('history is not news: no event reaches a page of the owner, nor a bot of theirs elsewhere', async () => {
  const owner = await register(srv.url);
  const t = await api(srv.url, 'POST', '/api/gateway/ticket', { token: owner.token });
  const page = await gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
  const app = await appWithBot(srv.url, owner, { intents: ['messages.read', 'members.read'] });
  const own = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Onde o robô está' } });
  const installed = await install(srv.url, owner, app, own.body.server.id);
  assert.equal(installed.complete.status, 200);
  const bot = await gatewayConnect(srv.url, { auth: { token: app.botToken } }, sockets);
  page.received.length = bot.received.length = 0;
  const r = praca('import', 'discord', FIXTURE, '--server', 'Sem notícias', '--owner', owner.user.username);
  assert.equal(r.status, 0, r.stderr);
  await importedServer(owner, 'Sem notícias');
  await quiet(500);
  const news = (s) => s.received.filter((e) => /MESSAGE|REACTION|PIN|THREAD|CHANNEL|SERVER|GUILD|MEMBER/.test(e.name)).map((e) => e.name);
  assert.deepEqual(news(page), []);
  assert.deepEqual(news(bot), []);
});

test('praca import refuses what it cannot read, and says why', async () => {
  const owner = await register(srv.url);
  const usage = [['import'], ['import', 'teams', FIXTURE], ['import', 'discord', FIXTURE, '--server', 'x'], ['import', 'discord', '--server', 'x', '--owner', 'y'],
    ['import', 'discord', FIXTURE, '--server', 'x', '--owner', 'y', '--batch', '0'], ['import', 'discord', FIXTURE, '--server', '', '--owner', 'y']];
  for (const words of usage) {
    const r = praca(...words);
    assert.equal(r.status, 2, words.join(' '));
    assert.match(r.stderr, /^usage: praca import/);
  }
  const nobody = praca('import', 'discord', FIXTURE, '--server', 'x', '--owner', 'ninguem_mesmo');
  assert.equal(nobody.status, 1);
  assert.match(nobody.stderr, /no person named ninguem_mesmo/);
  const dir = tempDir('praca-import-bad-');
  fs.writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ messages: [] }));
  const notExport = praca('import', 'discord', dir, '--server', 'x', '--owner', owner.user.username);
  assert.equal(notExport.status, 1);
  assert.match(notExport.stderr, /a\.json: not a DiscordChatExporter JSON export/);
  fs.writeFileSync(path.join(dir, 'a.json'), '{"guild": ');
  assert.match(praca('import', 'discord', dir, '--server', 'x', '--owner', owner.user.username).stderr, /a\.json: line \d+/);
  const two = tempDir('praca-import-two-');
  for (const [file, guild] of [['a.json', '1'], ['b.json', '2']]) {
    fs.writeFileSync(path.join(two, file), JSON.stringify({ guild: { id: guild, name: 'G' }, channel: { id: '3' + guild, name: 'c' }, messages: [] }));
  }
  const mixed = praca('import', 'discord', two, '--server', 'x', '--owner', owner.user.username);
  assert.equal(mixed.status, 1);
  assert.match(mixed.stderr, /another server's export/);
  const empty = tempDir('praca-import-empty-');
  assert.match(praca('import', 'discord', empty, '--server', 'x', '--owner', owner.user.username).stderr, /no export files/);
  // Nothing was made by any of these.
  const servers = (await api(srv.url, 'GET', '/api/servers', { token: owner.token })).body.servers;
  assert.deepEqual(servers, []);
});

test.after(() => { for (const s of sockets) s.close(); });
