// praca export / praca import praca-archive: a server moved to another Praça with everything it
// holds (roles with their permissions, categories, channels and their overwrites, people as
// placeholders, messages with their times, replies, threads, reactions, pins, files and emoji),
// read back through the new Praça's API; run twice it writes nothing twice; exported again
// there, the archive describes the same server; and an archive cannot reach into another server.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync, spawn } = require('node:child_process');
const { api, register, BIN, startServer, tempDir, upload, appWithBot, install, serverWithMembers, gatewayConnect, quiet } = require('./helpers');
const { png, uploadEmoji } = require('./gif');
const { P } = require('./permissions');

const ARGS = ['--uploads-per-minute', '1000', '--rate-limit-scale', '100'];
let from, to;
test.before(async () => { [from, to] = await Promise.all([startServer({ args: ARGS, env: { ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0' } }), startServer({ args: ARGS })]); });
test.after(async () => { await Promise.all([from.stop(), to.stop()]); });

const praca = (srv, ...args) => spawnSync(BIN, [...args, ...srv.storeArgs, '--files', path.join(srv.dir, 'files')], { encoding: 'utf8' });
const lines = (file) => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const FILE = Buffer.from('Ata da reunião de sábado.\n'.repeat(50000)); // past one archive line

// A server with a bit of everything, made through the API.
async function richServer() {
  const w = await serverWithMembers(from.url, 2);
  const [ana, bia] = w.members;
  const t = w.owner.token, sid = w.sid;
  const tree = (await api(from.url, 'GET', `/api/servers/${sid}`, { token: t })).body;
  const geral = tree.channels.find((c) => c.type === 'text').id;
  const role = (await api(from.url, 'POST', `/api/servers/${sid}/roles`, { token: t, body: { name: 'Moderação', color: 0x3366cc, permissions: String(P.GERENCIAR_MENSAGENS | P.VER_CANAL), hoist: true } })).body.role;
  assert.ok(role, 'role made');
  assert.equal((await api(from.url, 'PUT', `/api/servers/${sid}/members/${ana.user.id}/roles/${role.id}`, { token: t })).status, 200);
  const cat = (await api(from.url, 'POST', `/api/servers/${sid}/channels`, { token: t, body: { name: 'Equipe', type: 'category' } })).body.channel;
  const equipe = (await api(from.url, 'POST', `/api/servers/${sid}/channels`, { token: t, body: { name: 'moderação', topic: 'Só a equipe', parentId: cat.id } })).body.channel;
  assert.equal((await api(from.url, 'PUT', `/api/servers/${sid}/channels/${equipe.id}/overwrites/${sid}`, { token: t, body: { type: 'role', allow: '0', deny: String(P.VER_CANAL) } })).status, 200);
  assert.equal((await api(from.url, 'PUT', `/api/servers/${sid}/channels/${equipe.id}/overwrites/${role.id}`, { token: t, body: { type: 'role', allow: String(P.VER_CANAL), deny: '0' } })).status, 200);
  const url = `/api/servers/${sid}/channels/${geral}/messages`;
  const say = async (who, body) => { const r = await api(from.url, 'POST', url, { token: who.token, body }); assert.equal(r.status, 200, r.text); return r.body.message; };
  const hello = await say(w.owner, { content: 'Bem-vindos ao clube! ção 🎉' });
  const q = await say(ana, { content: 'Qual é o livro do mês?', replyToId: hello.id });
  await api(from.url, 'POST', `${url}/${hello.id}/react`, { token: bia.token, body: { emoji: '👍' } });
  await api(from.url, 'POST', `${url}/${hello.id}/react`, { token: ana.token, body: { emoji: '👍' } });
  await api(from.url, 'POST', `${url}/${hello.id}/pin`, { token: t });
  const thread = (await api(from.url, 'POST', `${url}/${q.id}/threads`, { token: ana.token, body: { name: 'Livro do mês' } })).body.channel;
  assert.ok(thread, 'thread made');
  await api(from.url, 'POST', `/api/servers/${sid}/channels/${thread.id}/messages`, { token: bia.token, body: { content: 'Dom Casmurro!' } });
  const sent = await upload(from.url, 'POST', url, bia.token, { content: 'a ata' }, [{ name: 'ata.txt', data: FILE, type: 'text/plain' }]);
  assert.equal(sent.status, 200, sent.text);
  const emoji = await uploadEmoji(from.url, t, sid, 'clube', png(64, 64), 'image/png');
  assert.equal(emoji.status, 201, emoji.text);
  await say(bia, { content: 'editada' }).then((m) => api(from.url, 'PATCH', `${url}/${m.id}`, { token: bia.token, body: { content: 'editada, sim' } }));
  const { url: hook } = (await api(from.url, 'POST', `/api/servers/${sid}/channels/${geral}/webhooks`, { token: t, body: { name: 'CI' } })).body;
  assert.equal((await fetch(`${hook}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'build 7 ok', username: 'Integração' }) })).status, 200);
  const bot = await appWithBot(from.url, w.owner, { name: 'Leitor' });
  assert.equal((await install(from.url, w.owner, bot, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
  const said = await api(from.url, 'POST', `/api/bot/servers/${sid}/channels/${geral}/messages`, { token: bot.botToken, body: { content: 'Olá, sou o Leitor.' } });
  assert.ok(said.status < 300, said.text);
  return { ...w, geral, role, cat, equipe, hello, q, thread, attachment: sent.body.message.attachments[0], emoji: emoji.body.emoji };
}

// Each UUID replaced by its place of first appearance, the export's time left out: two archives
// that say the same of the same server are then equal.
function canonical(file) {
  const ids = new Map();
  const text = lines(file).filter((l) => l.record !== 'archive').map((l) => JSON.stringify(l)).join('\n');
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!ids.has(id)) ids.set(id, `#${ids.size}`);
    return ids.get(id);
  });
}

test('a server moves to another Praça with its roles, channels, people, messages, threads, reactions, pins, files and emoji', async () => {
  const w = await richServer();
  const dir = tempDir();
  const first = path.join(dir, 'first.jsonl');
  const out = praca(from, 'export', '--server', w.sid, first);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /: 3 channels, 4 people, 7 messages, 2 files, 1 bots to install again/);
  const kinds = lines(first).map((l) => l.record);
  assert.equal(kinds[0], 'archive');
  assert.ok(kinds.filter((k) => k === 'blob').length >= 2, 'a file past a MiB goes in pieces');

  // The same person signs up on the new Praça and imports it.
  const owner = await register(to.url, w.owner.user.username);
  const r = praca(to, 'import', 'praca-archive', first, '--owner', owner.user.username, '--site-url', to.url);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /to install again: Leitor \(application /);
  assert.match(r.stdout, /imported into server [0-9a-f-]{36}: 3 channels, 7 messages written, 0 there already, 0 left out, 3 people/);
  let tree;
  for (let i = 0; i < 50 && !tree; i++) {
    const got = await api(to.url, 'GET', `/api/servers/${w.sid}`, { token: owner.token });
    if (got.status === 200) tree = got.body; else await new Promise((ok) => setTimeout(ok, 100));
  }
  assert.ok(tree, 'the live server follows the import');
  assert.equal(tree.server.id, w.sid, 'the IDs are kept');
  assert.equal(tree.server.ownerId, owner.user.id, "the archive's owner is the importing owner");
  const role = tree.roles.find((x) => x.name === 'Moderação');
  assert.equal(role.id, w.role.id);
  assert.equal(BigInt(role.permissions), BigInt(P.GERENCIAR_MENSAGENS | P.VER_CANAL));
  assert.equal(role.color, 0x3366cc);
  const equipe = tree.channels.find((c) => c.id === w.equipe.id);
  assert.equal(equipe.parentId, w.cat.id);
  assert.equal(equipe.topic, 'Só a equipe');
  assert.deepEqual(equipe.overwrites.map((o) => o.targetId).sort(), [w.sid, w.role.id].sort());

  const url = `/api/servers/${w.sid}/channels/${w.geral}/messages`;
  const ms = (await api(to.url, 'GET', `${url}?limit=100`, { token: owner.token })).body.messages;
  const before = (await api(from.url, 'GET', `${url}?limit=100`, { token: w.owner.token })).body.messages;
  assert.deepEqual(ms.map((m) => [m.id, m.content, m.createdAt, m.editedAt]), before.map((m) => [m.id, m.content, m.createdAt, m.editedAt]));
  const hooked = ms.find((m) => m.content === 'build 7 ok');
  assert.equal(hooked.webhook.name, 'Integração', "a webhook's message keeps the name it showed");
  const hello = ms.find((m) => m.id === w.hello.id);
  assert.equal(hello.pinned, true);
  assert.equal(hello.fromId, owner.user.id);
  assert.deepEqual(hello.reactions.map((x) => [x.emoji, x.count]), [['👍', 2]]);
  const q = ms.find((m) => m.id === w.q.id);
  assert.equal(q.replyToId, w.hello.id, JSON.stringify(q));
  assert.equal(q.replyTo.id, w.hello.id);
  assert.equal(q.fromId, w.members[0].user.id);
  const members = (await api(to.url, 'GET', `/api/servers/${w.sid}/members`, { token: owner.token })).body.members;
  const ana = members.find((m) => (m.user || m).id === w.members[0].user.id);
  assert.equal((ana.user || ana).username, w.members[0].user.username, 'a placeholder keeps its name where it is free');
  const threads = (await api(to.url, 'GET', `/api/servers/${w.sid}/channels/${w.geral}/threads`, { token: owner.token })).body.threads;
  assert.deepEqual(threads.map((x) => [x.id, x.name, x.originMessageId]), [[w.thread.id, 'Livro do mês', w.q.id]]);
  const moved = ms.find((m) => m.attachments.length).attachments[0];
  assert.equal(moved.url, w.attachment.url.replace(from.url, to.url), "a file's link at the new Praça's origin");
  const file = await fetch(moved.url, { headers: { authorization: `Bearer ${owner.token}` } });
  assert.equal(file.status, 200);
  assert.ok(Buffer.from(await file.arrayBuffer()).equals(FILE), 'the file, byte for byte');
  const emoji = await fetch(to.url + w.emoji.url, { headers: { authorization: `Bearer ${owner.token}` } });
  assert.equal(emoji.status, 200);

  // Run again (as after a crash): nothing twice.
  const again = praca(to, 'import', 'praca-archive', first, '--owner', owner.user.username);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /0 channels, 0 messages written, 7 there already/);

  // Exported from the new Praça, the archive says the same of the same server.
  const second = path.join(dir, 'second.jsonl');
  assert.equal(praca(to, 'export', '--server', w.sid, second).status, 0);
  const firstLines = canonical(first).split('\n'), secondLines = canonical(second).split('\n');
  const own = (l) => !/"record":"person"/.test(l) || !l.includes(`"username":"${w.owner.user.username}"`);
  const notInstalls = (l) => !/"record":"install"/.test(l);
  assert.deepEqual(secondLines.filter(own), firstLines.filter(own).filter(notInstalls), "equal but for the importing owner's own account, and the bots (installed again, not moved)");
});

test('an archive cannot take a server that is here with another owner, nor reach into another server', async () => {
  const w = await serverWithMembers(from.url, 1);
  const dir = tempDir();
  const file = path.join(dir, 'a.jsonl');
  assert.equal(praca(from, 'export', '--server', w.sid, file).status, 0);
  const stranger = await register(from.url);
  const taken = praca(from, 'import', 'praca-archive', file, '--owner', stranger.user.username);
  assert.equal(taken.status, 1);
  assert.match(taken.stderr, /has another owner/);

  // A forged archive: a message into another server's channel, a member who is someone here.
  const victim = await serverWithMembers(to.url, 1);
  const vtree = (await api(to.url, 'GET', `/api/servers/${victim.sid}`, { token: victim.owner.token })).body;
  const vchannel = vtree.channels.find((c) => c.type === 'text').id;
  const arc = lines(file);
  const server = arc.find((l) => l.record === 'server');
  const person = arc.find((l) => l.record === 'person' && l.id !== server.ownerId);
  const forged = [...arc,
    { record: 'message', id: '01900000-0000-7000-8000-00000000f00d', channelId: vchannel, serverId: server.id, authorId: person.id, type: 'text', content: 'forjada', createdAt: 1, pinned: false, mentionsEveryone: false, flags: 0, mentions: [], mentionedRoleIds: [] },
    { record: 'member', serverId: server.id, userId: victim.owner.user.id, joinedAt: 1 },
    { record: 'message', id: '01900000-0000-7000-8000-00000000f00e', channelId: arc.find((l) => l.record === 'channel').id, serverId: server.id, authorId: victim.owner.user.id, type: 'text', content: 'em nome de outro', createdAt: 2, pinned: false, mentionsEveryone: false, flags: 0, mentions: [], mentionedRoleIds: [] },
  ].map((l) => JSON.stringify(l));
  const forgedFile = path.join(dir, 'forged.jsonl');
  fs.writeFileSync(forgedFile, forged.join('\n') + '\n');
  const owner = await register(to.url);
  const r = praca(to, 'import', 'praca-archive', forgedFile, '--owner', owner.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /3 left out/);
  const victimMsgs = (await api(to.url, 'GET', `/api/servers/${victim.sid}/channels/${vchannel}/messages`, { token: victim.owner.token })).body.messages;
  assert.ok(!victimMsgs.some((m) => m.content === 'forjada'));
  const members = (await api(to.url, 'GET', `/api/servers/${server.id}/members`, { token: owner.token })).body.members;
  assert.ok(!members.some((m) => (m.user || m).id === victim.owner.user.id), 'someone here is not made a member by an archive');
});

test('an archive import killed halfway, run again, ends with every message once, in order', async () => {
  const w = await serverWithMembers(from.url, 1);
  const dir = tempDir();
  const small = path.join(dir, 'small.jsonl');
  assert.equal(praca(from, 'export', '--server', w.sid, small).status, 0);
  const arc = lines(small);
  const channel = arc.find((l) => l.record === 'channel');
  const n = 10000;
  const messages = Array.from({ length: n }, (_, i) => ({
    record: 'message', id: `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`, channelId: channel.id, threadParentId: null,
    serverId: w.sid, authorId: w.members[0].user.id, type: 'text', content: `n ${i}`, embeds: null, flags: 0, replyToId: null,
    mentions: [], mentionedRoleIds: [], mentionsEveryone: false, pinned: false, createdAt: 1700000000000 + i, editedAt: null,
    attachments: null, webhookId: null, authorName: null, authorAvatar: null,
  }));
  const big = path.join(dir, 'big.jsonl');
  fs.writeFileSync(big, [...arc, ...messages].map((l) => JSON.stringify(l)).join('\n') + '\n');
  const owner = await register(to.url);
  const args = ['import', 'praca-archive', big, '--owner', owner.user.username, '--batch', '20', ...to.storeArgs, '--files', path.join(to.dir, 'files')];
  const first = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ended = new Promise((resolve) => first.on('exit', (code, signal) => resolve({ code, signal })));
  first.stdout.on('data', (d) => {
    out += d;
    if (/^\d+ messages$/m.test(out) && first.exitCode === null) first.kill('SIGKILL');
  });
  const { signal } = await ended;
  assert.equal(signal, 'SIGKILL', `the first run was killed before it ended (it printed: ${out})`);
  const second = spawnSync(BIN, args, { encoding: 'utf8' });
  assert.equal(second.status, 0, second.stderr);
  const [, written, known] = second.stdout.match(/(\d+) messages written, (\d+) there already/).map(Number);
  assert.ok(known >= 1000, `the first run's batches were kept (${known})`);
  assert.equal(written + known, n);
  const seen = [];
  for (let before = ''; ;) {
    const r = await api(to.url, 'GET', `/api/servers/${w.sid}/channels/${channel.id}/messages?limit=100${before}`, { token: owner.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    seen.push(...r.body.messages);
    if (r.body.messages.length < 100) break;
    before = `&beforeId=${r.body.messages[0].id}`;
  }
  assert.equal(seen.length, n);
  assert.deepEqual(seen.map((m) => m.id).sort(), messages.map((m) => m.id), 'each message once, under its ID');
});

test('an archive is history, not news: no event reaches a page of the importing owner, nor a bot of theirs elsewhere', async () => {
  const w = await serverWithMembers(from.url, 1);
  const tree = (await api(from.url, 'GET', `/api/servers/${w.sid}`, { token: w.owner.token })).body;
  await api(from.url, 'POST', `/api/servers/${w.sid}/channels/${tree.channels[0].id}/messages`, { token: w.members[0].token, body: { content: 'antiga' } });
  const file = path.join(tempDir(), 'a.jsonl');
  assert.equal(praca(from, 'export', '--server', w.sid, file).status, 0);
  const owner = await register(to.url);
  const sockets = [];
  try {
    const t = await api(to.url, 'POST', '/api/gateway/ticket', { token: owner.token });
    const page = await gatewayConnect(to.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
    const app = await appWithBot(to.url, owner, { intents: ['messages.read', 'members.read'] });
    const own = await api(to.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Onde o robô está' } });
    assert.equal((await install(to.url, owner, app, own.body.server.id)).complete.status, 200);
    const bot = await gatewayConnect(to.url, { auth: { token: app.botToken } }, sockets);
    page.received.length = bot.received.length = 0;
    const r = praca(to, 'import', 'praca-archive', file, '--owner', owner.user.username);
    assert.equal(r.status, 0, r.stderr);
    for (let i = 0; i < 50 && (await api(to.url, 'GET', `/api/servers/${w.sid}`, { token: owner.token })).status !== 200; i++) await quiet(100);
    await quiet(500);
    const news = (s) => s.received.filter((e) => /MESSAGE|REACTION|PIN|THREAD|CHANNEL|SERVER|GUILD|MEMBER/.test(e.name)).map((e) => e.name);
    assert.deepEqual(news(page), []);
    assert.deepEqual(news(bot), []);
  } finally {
    for (const s of sockets) s.close();
  }
});

test('praca export and import praca-archive refuse what they cannot do, and say why', async () => {
  const dir = tempDir();
  assert.equal(praca(from, 'export').status, 2);
  assert.equal(praca(from, 'export', '--server', 'nope', path.join(dir, 'x')).status, 2);
  const none = praca(from, 'export', '--server', '00000000-0000-7000-8000-000000000000', path.join(dir, 'x'));
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no server/);
  assert.ok(!fs.existsSync(path.join(dir, 'x')) && !fs.existsSync(path.join(dir, 'x.part')), 'nothing left behind');
  const owner = await register(to.url);
  fs.writeFileSync(path.join(dir, 'not.jsonl'), '{"record":"archive","format":"slack","version":1}\n');
  const bad = praca(to, 'import', 'praca-archive', path.join(dir, 'not.jsonl'), '--owner', owner.user.username);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /not a Praça archive/);
  fs.writeFileSync(path.join(dir, 'v2.jsonl'), '{"record":"archive","format":"praca-archive","version":2}\n');
  assert.match(praca(to, 'import', 'praca-archive', path.join(dir, 'v2.jsonl'), '--owner', owner.user.username).stderr, /version 1 or before/);
});
