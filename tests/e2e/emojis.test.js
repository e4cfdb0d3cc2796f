// A server's own emoji (the seed's customEmojiId made real): uploaded as PNG, GIF or WebP by whoever
// holds GERENCIAR_SERVIDOR, fitted within 128 × 128 and written again as WebP (animated kept),
// 100 per server at most; listed for members and bots; renamed and deleted, a deleted one's
// reactions staying and shown by name; and a reaction by customEmojiId accepted only for an
// emoji of that server or of a server the reacting one is in.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { sharedServer, startServer, api, register, serverWithMembers, appWithBot, install, gatewayConnect, nextEvent, eventually } = require('./helpers');
const { gif, png, webpInfo, uploadEmoji } = require('./gif');
const { P } = require('./permissions');

const POSTGRES = Boolean(process.env.PRACA_TEST_POSTGRES);
const sockets = [];
const srv = sharedServer({ args: ['--uploads-per-minute', '1000', '--rate-limit-scale', '100'] }, sockets);
const ANIMATED = gif(200, 200, [[255, 0, 0], [0, 255, 0], [0, 0, 255]]);

async function image(url, token) {
  const res = await fetch(srv.url + url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), bytes: Buffer.from(await res.arrayBuffer()) };
}

test('an upload is fitted within 128 × 128 and written again as WebP; an animation stays one', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const still = await uploadEmoji(srv.url, w.owner.token, w.sid, 'Cinza_Claro', png(300, 150), 'image/png');
  assert.equal(still.status, 201, still.text);
  const e = still.body.emoji;
  assert.deepEqual(Object.keys(e).sort(), ['animated', 'id', 'name', 'serverId', 'url']);
  assert.equal(e.name, 'cinza_claro', 'folded to lower case');
  assert.equal(e.animated, false);
  assert.equal(e.url, `/api/emojis/${e.id}/image`);
  const got = await image(e.url, w.members[0].token);
  assert.equal(got.status, 200);
  assert.equal(got.type, 'image/webp');
  assert.match(got.cache, /immutable/);
  assert.deepEqual(webpInfo(got.bytes), { width: 128, height: 64, animated: false });

  const moving = await uploadEmoji(srv.url, w.owner.token, w.sid, 'festa', ANIMATED);
  assert.equal(moving.status, 201, moving.text);
  assert.equal(moving.body.emoji.animated, true);
  const frames = await image(moving.body.emoji.url, w.owner.token);
  assert.deepEqual(webpInfo(frames.bytes), { width: 128, height: 128, animated: true });

  const small = await uploadEmoji(srv.url, w.owner.token, w.sid, 'pequeno', gif(32, 32, [[1, 2, 3]]));
  assert.equal(small.body.emoji.animated, false, 'one frame is no animation');
  assert.deepEqual(webpInfo((await image(small.body.emoji.url, w.owner.token)).bytes), { width: 32, height: 32, animated: false }, 'not made larger');

  const listed = await api(srv.url, 'GET', `/api/servers/${w.sid}/emojis`, { token: w.members[0].token });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.emojis.map((x) => x.name), ['cinza_claro', 'festa', 'pequeno'], 'oldest first');
  assert.deepEqual(Object.keys(listed.body.emojis[0]).sort(), ['animated', 'createdAt', 'createdBy', 'id', 'name', 'url']);
});

test('bad names, files and callers are refused', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const send = (token, name, data = png(16, 16), type = 'image/png') => uploadEmoji(srv.url, token, w.sid, name, data, type);
  for (const name of ['a', 'x'.repeat(33), 'com espaço', 'ação', 'traço-não', '']) {
    const r = await send(w.owner.token, name);
    assert.equal(r.status, 400, name);
    assert.match(r.body.error, /^name:/, name);
  }
  assert.equal((await send(w.owner.token, 'ok')).status, 201);
  const twice = await send(w.owner.token, 'OK');
  assert.equal(twice.status, 409, 'a name is the server\'s once');
  assert.equal(twice.body.error, 'name: já existe um emoji com esse nome');
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]);
  for (const [data, type, why] of [[Buffer.from('não é imagem'), 'text/plain', 'text'], [jpeg, 'image/jpeg', 'a JPEG'], [Buffer.from('GIF89a\x10\x00\x10\x00', 'latin1'), 'image/gif', 'a cut GIF']]) {
    const r = await send(w.owner.token, 'ruim', data, type);
    assert.equal(r.status, 400, why);
    assert.match(r.body.error, /^image:/, why);
  }
  const none = await (require('./helpers').upload)(srv.url, 'POST', `/api/servers/${w.sid}/emojis`, w.owner.token, { name: 'vazio' }, []);
  assert.equal(none.status, 400);
  assert.equal((await send(w.members[0].token, 'meu')).status, 403, 'GERENCIAR_SERVIDOR');
  const stranger = await register(srv.url);
  assert.equal((await send(stranger.token, 'meu')).status, 404);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/emojis`, { token: stranger.token })).status, 404);
});

test('a server holds 100 emoji at most: the 101st is refused', async () => {
  const w = await serverWithMembers(srv.url, 0);
  const data = png(8, 8);
  for (let i = 0; i < 100; i++) {
    const r = await uploadEmoji(srv.url, w.owner.token, w.sid, `e${i}`, data, 'image/png');
    assert.equal(r.status, 201, `${i}: ${r.text}`);
  }
  const over = await uploadEmoji(srv.url, w.owner.token, w.sid, 'e100', data, 'image/png');
  assert.equal(over.status, 400);
  assert.equal(over.body.error, 'O servidor já tem 100 emoji, o máximo');
  const first = (await api(srv.url, 'GET', `/api/servers/${w.sid}/emojis`, { token: w.owner.token })).body.emojis[0];
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/emojis/${first.id}`, { token: w.owner.token })).status, 200);
  assert.equal((await uploadEmoji(srv.url, w.owner.token, w.sid, 'e100', data, 'image/png')).status, 201, 'a deleted one frees its place');
});

test('a bot reacts with its server\'s emoji; another server\'s is 400 unless the reacting one is in it', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, w.owner);
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS | P.ADICIONAR_REACOES });
  const mine = (await uploadEmoji(srv.url, w.owner.token, w.sid, 'festa', ANIMATED)).body.emoji;
  const other = await serverWithMembers(srv.url, 0);
  const theirs = (await uploadEmoji(srv.url, other.owner.token, other.sid, 'deles', png(16, 16), 'image/png')).body.emoji;
  const cid = w.server.channels[0].id;
  const sent = await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${cid}/messages`, { token: info.botToken, body: { content: 'reajam' } });
  const react = (token, body) => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/messages/${sent.body.message.id}/react`, { token, body });

  const bot = await react(info.botToken, { customEmojiId: mine.id });
  assert.equal(bot.status, 200, bot.text);
  assert.deepEqual(bot.body.reactions, [{ emoji: null, customEmojiId: mine.id, count: 1, userIds: [info.app.botUserId] }]);
  for (const [id, why] of [[theirs.id, 'another server\'s'], ['01a1fe3b-0000-7000-8000-000000000000', 'no emoji'], ['festa', 'a name is no ID']]) {
    const r = await react(info.botToken, { customEmojiId: id });
    assert.equal(r.status, 400, why);
    assert.equal(r.body.error, 'customEmojiId: não é um emoji deste servidor nem de um servidor seu');
  }
  // A person in both servers may bring the other's emoji.
  const ana = w.members[0];
  assert.equal((await react(ana.token, { customEmojiId: theirs.id })).status, 400);
  await api(srv.url, 'POST', `/api/invites/${other.code}/join`, { token: ana.token });
  const brought = await react(ana.token, { customEmojiId: theirs.id });
  assert.equal(brought.status, 200, brought.text);
  assert.equal(brought.body.reactions.length, 2);

  // Deleted: its reactions stay, shown by name; who reacted may take theirs back; nobody adds it.
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/emojis/${mine.id}`, { token: w.owner.token })).status, 200);
  const meta = await api(srv.url, 'GET', `/api/emojis/${mine.id}`, { token: ana.token });
  assert.deepEqual(meta.body.emoji, { id: mine.id, name: 'festa', animated: true, serverId: w.sid, url: null });
  assert.equal((await image(mine.url, ana.token)).status, 404, 'its picture is gone');
  const history = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: ana.token });
  assert.equal(history.body.messages.at(-1).reactions.find((r) => r.customEmojiId === mine.id).count, 1, 'still counted');
  assert.equal((await react(ana.token, { customEmojiId: mine.id })).status, 400, 'nobody adds a deleted one');
  const back = await react(info.botToken, { customEmojiId: mine.id });
  assert.equal(back.status, 200, 'the bot takes its own back');
  assert.ok(!back.body.reactions.some((r) => r.customEmojiId === mine.id));
});

test('in a conversation, an emoji of a server the person is in', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const e = (await uploadEmoji(srv.url, w.owner.token, w.sid, 'oi', png(16, 16), 'image/png')).body.emoji;
  const [ana, bia] = [w.owner, w.members[0]];
  const dm = await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: bia.user.id } });
  assert.equal(dm.status, 200, dm.text);
  const cid = dm.body.channel.id;
  const m = await api(srv.url, 'POST', `/api/dms/${cid}/messages`, { token: ana.token, body: { content: 'oi' } });
  const url = `/api/dms/${cid}/messages/${m.body.message.id}/react`;
  assert.equal((await api(srv.url, 'POST', url, { token: bia.token, body: { customEmojiId: e.id } })).status, 200);
  const other = await serverWithMembers(srv.url, 0);
  const foreign = (await uploadEmoji(srv.url, other.owner.token, other.sid, 'fora', png(16, 16), 'image/png')).body.emoji;
  assert.equal((await api(srv.url, 'POST', url, { token: bia.token, body: { customEmojiId: foreign.id } })).status, 400);
});

test('renaming and deleting: GERENCIAR_SERVIDOR, audited, and the server\'s pages told', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const a = (await uploadEmoji(srv.url, w.owner.token, w.sid, 'velho', png(16, 16), 'image/png')).body.emoji;
  await uploadEmoji(srv.url, w.owner.token, w.sid, 'outro', png(16, 16), 'image/png');
  const page = await gatewayConnect(srv.url, { auth: { token: w.members[0].token }, transports: ['websocket'] }, sockets);
  const told = nextEvent(page, 'SERVER_UPDATE');
  const renamed = await api(srv.url, 'PATCH', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.owner.token, body: { name: 'Novo' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.emoji.name, 'novo');
  assert.deepEqual(await told, { serverId: w.sid, changed: 'emojis' });
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.owner.token, body: { name: 'outro' } })).status, 409);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.owner.token, body: { name: 'x' } })).status, 400);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.members[0].token, body: { name: 'meu' } })).status, 403);
  const elsewhere = await serverWithMembers(srv.url, 0);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${elsewhere.sid}/emojis/${a.id}`, { token: elsewhere.owner.token, body: { name: 'roubado' } })).status, 404, 'another server\'s emoji is not there');
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.members[0].token })).status, 403);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.owner.token })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.owner.token })).status, 404, 'once');
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}/emojis/${a.id}`, { token: w.owner.token, body: { name: 'volta' } })).status, 404);
  const log = (await api(srv.url, 'GET', `/api/servers/${w.sid}/audit-log`, { token: w.owner.token })).body;
  const actions = log.entries.map((x) => x.action);
  for (const action of ['emoji.create', 'emoji.update', 'emoji.delete']) assert.ok(actions.includes(action), action);
  assert.equal((await api(srv.url, 'GET', '/api/emojis/01a1fe3b-0000-7000-8000-000000000000', { token: w.owner.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', '/api/emojis/nao-e-id/image', { token: w.owner.token })).status, 404);
});

test('the files\' sweep keeps an emoji\'s picture', async () => {
  // The grace is a minute at least: the clock is moved past it, and a deleted emoji's picture
  // going shows that a sweep ran after.
  const own = await startServer({ single: true, args: ['--files-sweep-seconds', '1', '--files-grace-seconds', '60', '--test-clock'] });
  try {
    const w = await serverWithMembers(own.url, 0);
    const e = (await uploadEmoji(own.url, w.owner.token, w.sid, 'fica', png(20, 20, 7), 'image/png')).body.emoji;
    const gone = (await uploadEmoji(own.url, w.owner.token, w.sid, 'vai', png(20, 20, 9), 'image/png')).body.emoji;
    const read = await fetch(own.url + gone.url, { headers: { authorization: `Bearer ${w.owner.token}` } });
    assert.equal(read.status, 200);
    const hash = JSON.parse(read.headers.get('etag'));
    const where = path.join(own.dir, 'files', POSTGRES ? 'cache' : 'blobs', hash.slice(0, 2), hash);
    assert.ok(fs.existsSync(where), where);
    assert.equal((await api(own.url, 'DELETE', `/api/servers/${w.sid}/emojis/${gone.id}`, { token: w.owner.token })).status, 200);
    await api(own.url, 'POST', '/api/test/clock', { body: { advanceMs: 61 * 1000 } });
    await eventually(() => !fs.existsSync(where), 10000, 'the deleted emoji\'s picture swept');
    const res = await fetch(own.url + e.url, { headers: { authorization: `Bearer ${w.owner.token}` } });
    assert.equal(res.status, 200, 'kept while the emoji is');
  } finally {
    const r = await own.stop();
    assert.equal(r.code, 0, own.stderr);
  }
});
