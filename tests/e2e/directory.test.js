// The server directory: discoverable servers listed in a documented order (most online, then
// most members, then the oldest), searched by words with case and accents folded, filtered by a
// tag; a server's preview before joining (rules, public channels and their messages, read only);
// its icon as an image of its own; and joining from the directory, which a bot with
// members.read hears as GUILD_MEMBER_ADD (the seed's "discovery").
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, startServer, api, register, appWithBot, install, gatewayConnect, nextEvent, eventually } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ args: ['--directory-refresh-seconds', '0'] }, sockets);
// A 1×1 PNG, and a GIF's bytes under a PNG's name.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64');

async function discoverable(owner, name, extra = {}) {
  const made = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name } });
  assert.equal(made.status, 201, made.text);
  const sid = made.body.server.id;
  const set = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { discoverable: true, ...extra } });
  assert.equal(set.status, 200, set.text);
  return { sid, server: set.body.server, channel: made.body.channels[0].id };
}

async function directory(who, query = '') {
  const r = await api(srv.url, 'GET', `/api/directory${query}`, { token: who.token });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

// Each test's servers carry a word of its own, so the tests of this file do not see each other's.
let run = 0;
const word = () => `w${process.pid}x${++run}`;

test('search folds case and accents; every word must match; a tag filters; the hidden stay hidden', async () => {
  const w = word();
  const owner = await register(srv.url);
  const visitor = await register(srv.url);
  const music = await discoverable(owner, `Clube da Música ${w}`, { description: 'Rock, MPB e SAMBA de raiz', tags: ['Música', 'samba', 'música', 'xadrez'] });
  assert.deepEqual(music.server.tags, ['musica', 'samba', 'xadrez'], 'folded, kept once');
  assert.equal(music.server.description, 'Rock, MPB e SAMBA de raiz');
  const chess = await discoverable(owner, `Xadrez Brasil ${w}`, { tags: ['jogos'] });
  const hidden = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: `Segredo ${w}` } });
  const ids = (b) => b.servers.map((s) => s.id).sort();

  const all = await directory(visitor, `?q=${w}`);
  assert.deepEqual(ids(all), [music.sid, chess.sid].sort(), 'the server that is not discoverable is not listed');
  assert.equal(all.total, 2);
  assert.ok(!all.servers.some((s) => s.id === hidden.body.server.id));
  assert.deepEqual(ids(await directory(visitor, `?q=${encodeURIComponent(`MUSICA samba ${w}`)}`)), [music.sid]);
  assert.deepEqual(ids(await directory(visitor, `?q=${encodeURIComponent(`xadrez ${w}`)}`)), [music.sid, chess.sid].sort(), 'a tag is searched too');
  assert.deepEqual(ids(await directory(visitor, `?q=${encodeURIComponent(`rock jazz ${w}`)}`)), [], 'every word must be found');
  assert.deepEqual(ids(await directory(visitor, `?q=${w}&tag=jogos`)), [chess.sid]);
  assert.deepEqual(ids(await directory(visitor, `?q=${w}&tag=${encodeURIComponent('Música')}`)), [music.sid], 'the tag asked is folded too');
  const page = await directory(visitor, `?q=${w}&limit=1&offset=1`);
  assert.equal(page.servers.length, 1);
  assert.equal(page.total, 2);
  assert.ok(page.tags.some((t) => t.tag === 'musica' && t.count >= 1), 'the most used tags come with the page');

  const entry = all.servers.find((s) => s.id === music.sid);
  assert.deepEqual(Object.keys(entry).sort(), ['createdAt', 'description', 'iconUrl', 'id', 'joined', 'memberCount', 'name', 'onlineCount', 'tags'].sort());
  assert.equal(entry.joined, false);
  assert.equal(entry.iconUrl, null);
  assert.equal((await directory(owner, `?q=${w}`)).servers.find((s) => s.id === music.sid).joined, true);
});

test('the order: more people online first, then more members, then the older server', async () => {
  const w = word();
  const owner = await register(srv.url);
  const older = await discoverable(owner, `Antigo ${w}`);
  const newer = await discoverable(owner, `Novo ${w}`);
  const crowded = await discoverable(owner, `Cheio ${w}`);
  const busy = await discoverable(owner, `Movimentado ${w}`);
  for (let i = 0; i < 2; i++) {
    const p = await register(srv.url);
    assert.equal((await api(srv.url, 'POST', `/api/servers/${crowded.sid}/join`, { token: p.token })).status, 200);
  }
  // Someone online in the busy one: a person who is in no other server of this test.
  const online = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${busy.sid}/join`, { token: online.token })).status, 200);
  await gatewayConnect(srv.url, { auth: { token: online.token }, transports: ['websocket'] }, sockets);
  await eventually(async () => (await directory(owner, `?q=${w}`)).servers[0].onlineCount === 1, 5000, 'the busy server counted online');
  const listed = (await directory(owner, `?q=${w}`)).servers;
  assert.deepEqual(listed.map((s) => s.id), [busy.sid, crowded.sid, older.sid, newer.sid]);
  assert.deepEqual(listed.map((s) => s.memberCount), [2, 3, 1, 1]);
});

test('bad queries are 400; bots and strangers cannot browse', async () => {
  const who = await register(srv.url);
  for (const q of ['?limit=0', '?limit=51', '?offset=-1', '?offset=10001', `?q=${'a'.repeat(201)}`, '?tag=x', '?tag=dois%20nomes', '?limit=abc']) {
    const r = await api(srv.url, 'GET', `/api/directory${q}`, { token: who.token });
    assert.equal(r.status, 400, q);
    assert.match(r.body.error, /^(limit|offset|q|tag):/, q);
  }
  assert.equal((await api(srv.url, 'GET', '/api/directory')).status, 401);
  const info = await appWithBot(srv.url, who);
  assert.equal((await api(srv.url, 'GET', '/api/directory', { token: info.botToken })).status, 403);
});

test('description and tags are checked when set, and need GERENCIAR_SERVIDOR', async () => {
  const owner = await register(srv.url);
  const { sid } = await discoverable(owner, 'Regras');
  const bad = [
    [{ description: 'x'.repeat(301) }, /^description:/],
    [{ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, /^tags:/],
    [{ tags: ['ok', 'x'] }, /^tags:/],
    [{ tags: ['com espaço'] }, /^tags:/],
    [{ tags: 'jogos' }, /^tags:/],
    [{ tags: [7] }, /^tags:/],
  ];
  for (const [body, why] of bad) {
    const r = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, why);
  }
  const ok = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { description: '  ' + 'é'.repeat(300) + ' ', tags: [] } });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.server.description, 'é'.repeat(300), 'trimmed; 300 characters, not bytes');
  assert.deepEqual(ok.body.server.tags, []);
  const member = await register(srv.url);
  await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: member.token });
  const denied = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: member.token, body: { description: 'meu' } });
  assert.equal(denied.status, 403);
});

test('the preview: rules and public channels, their messages read only; nothing private', async () => {
  const owner = await register(srv.url);
  const visitor = await register(srv.url);
  const { sid, channel } = await discoverable(owner, 'Com prévia', { rules: '1. Respeito', description: 'Uma prévia' });
  const hidden = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'moderação' } });
  const hid = hidden.body.channel.id;
  const ow = await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${hid}/overwrites/${sid}`, { token: owner.token, body: { type: 'role', allow: 0, deny: P.VER_CANAL } });
  assert.equal(ow.status, 200, ow.text);
  const voice = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'papo', type: 'voice' } })).body.channel.id;
  for (const [cid, content] of [[channel, 'bem-vindos **todos**'], [hid, 'segredo da moderação']]) {
    const sent = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content } });
    assert.equal(sent.status, 200, sent.text);
  }

  const p = await api(srv.url, 'GET', `/api/servers/${sid}/preview`, { token: visitor.token });
  assert.equal(p.status, 200, p.text);
  assert.equal(p.body.server.rules, '1. Respeito');
  assert.equal(p.body.server.description, 'Uma prévia');
  assert.equal(p.body.server.joined, false);
  assert.equal(p.body.server.memberCount, 1);
  assert.deepEqual(p.body.channels.map((c) => c.id).sort(), [channel, voice].sort(), 'the channel @everyone cannot see is left out');
  assert.ok(!JSON.stringify(p.body).includes('moderação'));

  const msgs = await api(srv.url, 'GET', `/api/servers/${sid}/preview/channels/${channel}/messages`, { token: visitor.token });
  assert.equal(msgs.status, 200, msgs.text);
  assert.deepEqual(msgs.body.messages.map((m) => m.content), ['bem-vindos **todos**']);
  assert.deepEqual(msgs.body.authors[owner.user.id], { name: owner.user.username, isBot: false });
  for (const [cid, what] of [[hid, 'a private channel'], [voice, 'a voice channel'], ['01a1fe3b-0000-7000-8000-000000000000', 'no channel']]) {
    const r = await api(srv.url, 'GET', `/api/servers/${sid}/preview/channels/${cid}/messages`, { token: visitor.token });
    assert.equal(r.status, 404, what);
  }
  // Another server's public channel is not this one's.
  const other = await discoverable(owner, 'Outro');
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/preview/channels/${other.channel}/messages`, { token: visitor.token })).status, 404);

  // A server that is not discoverable has no preview, even for whom knows its ID.
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { discoverable: false } });
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/preview`, { token: visitor.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/preview/channels/${channel}/messages`, { token: visitor.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/preview`, { token: owner.token })).status, 404);
});

test('someone banned reads no preview and cannot join', async () => {
  const owner = await register(srv.url);
  const troll = await register(srv.url);
  const { sid, channel } = await discoverable(owner, 'Sem trolls');
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: troll.token })).status, 200);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${troll.user.id}`, { token: owner.token, body: {} })).status, 200);
  const read = await api(srv.url, 'GET', `/api/servers/${sid}/preview/channels/${channel}/messages`, { token: troll.token });
  assert.equal(read.status, 403);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: troll.token })).status, 403);
});

test('the icon: an image of its own for members and, when discoverable, for anyone signed in', async () => {
  const owner = await register(srv.url);
  const visitor = await register(srv.url);
  const { sid, server } = await discoverable(owner, 'Com ícone', { iconUrl: `data:image/png;base64,${PNG}` });
  assert.match(server.iconUrl, /^data:image\/png/, 'the server itself still carries it inline');
  const listed = (await directory(visitor, '?q=' + encodeURIComponent('Com ícone'))).servers.find((s) => s.id === sid);
  assert.match(listed.iconUrl, new RegExp(`^/api/servers/${sid}/icon\\?v=\\d+$`));
  const got = await fetch(srv.url + listed.iconUrl, { headers: { authorization: `Bearer ${visitor.token}` } });
  assert.equal(got.status, 200);
  assert.equal(got.headers.get('content-type'), 'image/png');
  assert.match(got.headers.get('content-security-policy'), /sandbox/);
  assert.deepEqual(Buffer.from(await got.arrayBuffer()), Buffer.from(PNG, 'base64'));
  const again = await fetch(srv.url + listed.iconUrl, { headers: { authorization: `Bearer ${visitor.token}`, 'if-none-match': got.headers.get('etag') } });
  assert.equal(again.status, 304);

  // Changed: a new version in the link.
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { iconUrl: `data:image/png;base64,${PNG}` } });
  const relisted = (await directory(visitor, '?q=' + encodeURIComponent('Com ícone'))).servers.find((s) => s.id === sid);
  assert.notEqual(relisted.iconUrl, listed.iconUrl);

  // Not discoverable: members only.
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { discoverable: false } });
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/icon`, { token: visitor.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/icon`, { token: owner.token })).status, 200);
  // What is not a picture a browser may show in place, or bytes that are not what they say: none.
  for (const icon of ['data:image/svg+xml;base64,' + Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'), `data:image/png;base64,${GIF}`, 'data:image/png,notbase64']) {
    await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { iconUrl: icon } });
    assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/icon`, { token: owner.token })).status, 404, icon.slice(0, 30));
  }
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { iconUrl: null } });
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/icon`, { token: owner.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', '/api/servers/nao-e-id/icon', { token: owner.token })).status, 404);
});

test('joining from the directory: the bot hears GUILD_MEMBER_ADD and the count follows', async () => {
  const w = word();
  const owner = await register(srv.url);
  const { sid } = await discoverable(owner, `Com bot ${w}`);
  const info = await appWithBot(srv.url, owner, { intents: ['members.read'] });
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken }, transports: ['websocket'] }, sockets);
  const before = (await directory(owner, `?q=${w}`)).servers[0].memberCount;
  const ana = await register(srv.url);
  const found = (await directory(ana, `?q=${w}`)).servers;
  assert.deepEqual(found.map((s) => s.id), [sid]);
  const added = nextEvent(bot, 'GUILD_MEMBER_ADD');
  const joined = await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: ana.token });
  assert.equal(joined.status, 200, joined.text);
  const event = await added;
  assert.deepEqual([event.serverId, event.userId], [sid, ana.user.id]);
  const after = (await directory(ana, `?q=${w}`)).servers[0];
  assert.equal(after.memberCount, before + 1);
  assert.equal(after.joined, true);
});

test('with the default refresh, a server made discoverable here is listed within a second or two', async () => {
  const own = await startServer({ single: true });
  try {
    const owner = await register(own.url);
    const w = word();
    const warm = await api(own.url, 'GET', `/api/directory?q=${w}`, { token: owner.token });
    assert.equal(warm.body.total, 0);
    const made = await api(own.url, 'POST', '/api/servers', { token: owner.token, body: { name: `Recente ${w}` } });
    await api(own.url, 'PATCH', `/api/servers/${made.body.server.id}`, { token: owner.token, body: { discoverable: true } });
    // Its preview reads the listing again at once when the server is not in it yet.
    const p = await api(own.url, 'GET', `/api/servers/${made.body.server.id}/preview`, { token: owner.token });
    assert.ok([200, 404].includes(p.status));
    await eventually(async () => (await api(own.url, 'GET', `/api/directory?q=${w}`, { token: owner.token })).body.total === 1, 5000, 'listed');
  } finally {
    const r = await own.stop();
    assert.equal(r.code, 0, own.stderr);
  }
});
