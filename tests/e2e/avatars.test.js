// A person's picture and profile card: an image uploaded becomes two square WebP copies with no
// metadata left, shown to whoever is signed in through a URL that changes with the picture; the
// profile (name, picture, about, colour) is read by those who share a server or a conversation.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { api, register, acquaint, appWithBot, gatewayConnect, nextEvent, sharedServer } = require('./helpers');

const sockets = [];
const srv = sharedServer({ args: ['--rate-limit-scale', '100'] }, sockets);
const JPEG = fs.readFileSync(path.join(__dirname, 'fixtures', 'gps.jpg'));
const PNG = fs.readFileSync(path.join(__dirname, 'fixtures', 'note.png'));

async function putAvatar(who, files, field = 'avatar') {
  const form = new FormData();
  for (const f of files) form.append(field, new Blob([f.data], { type: f.type || 'image/jpeg' }), f.name || 'foto.jpg');
  const res = await fetch(`${srv.url}/api/users/@me/avatar`, { method: 'PUT', headers: { authorization: `Bearer ${who.token}` }, body: form });
  const text = await res.text();
  let body = null;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body, text };
}

async function get(url, token) {
  const res = await fetch(srv.url + url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

// A WebP's canvas (VP8, VP8L or VP8X), as the bytes say.
function webpSize(b) {
  assert.equal(b.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.equal(b.subarray(8, 12).toString('latin1'), 'WEBP');
  const kind = b.subarray(12, 16).toString('latin1');
  if (kind === 'VP8 ') return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
  if (kind === 'VP8L') { const v = b.readUInt32LE(21); return [(v & 0x3fff) + 1, ((v >> 14) & 0x3fff) + 1]; }
  return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
}

test('a photo becomes a square picture at two sizes, without its GPS position, seen through a URL of its own', async () => {
  const ana = await register(srv.url);
  const bia = await register(srv.url);
  const sid = await acquaint(srv.url, ana, bia);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).body.user.avatarUrl, null);
  assert.ok(JPEG.includes(Buffer.from('Exif')), 'the fixture carries Exif, GPS position included');
  const r = await putAvatar(ana, [{ data: JPEG }]);
  assert.equal(r.status, 200, r.text);
  const url = r.body.user.avatarUrl;
  assert.match(url, new RegExp(`^/api/users/${ana.user.id}/avatar/[0-9a-f]{16}$`));
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).body.user.avatarUrl, url);

  // Bia sees it, at 256 and at 64 pixels, square, with nothing of the photo's metadata.
  const large = await get(url, bia.token);
  assert.equal(large.status, 200);
  assert.equal(large.headers.get('content-type'), 'image/webp');
  assert.equal(large.headers.get('x-content-type-options'), 'nosniff');
  assert.match(large.headers.get('cache-control'), /immutable/);
  assert.deepEqual(webpSize(large.data), [256, 256]);
  // Nothing of the photo's Exif: no description, no camera, no GPS block (tag 0x8825).
  for (const marker of ['Segredo da Praca', 'PracaCam']) assert.ok(JPEG.includes(Buffer.from(marker)) && !large.data.includes(Buffer.from(marker)), marker);
  assert.ok(JPEG.includes(Buffer.from([0x25, 0x88])), 'the photo has a GPS block');
  assert.ok(!large.data.includes(Buffer.from([0x25, 0x88])), 'the picture has none');
  const small = await get(`${url}?size=64`, bia.token);
  assert.deepEqual(webpSize(small.data), [64, 64]);
  assert.equal((await get(`${url}?size=65`, bia.token)).status, 400);
  assert.equal((await get(url)).status, 401, 'nobody signed in sees none');
  assert.equal((await get(url.replace(/[0-9a-f]{16}$/, '0'.repeat(16)), bia.token)).status, 404);
  assert.equal((await get(url.replace(/[0-9a-f]{16}$/, 'x'), bia.token)).status, 404);

  // In the members Bia reads and in her conversations.
  const members = (await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: bia.token })).body.members;
  assert.equal(members.find((m) => m.userId === ana.user.id).user.avatarUrl, url);
  assert.equal(members.find((m) => m.userId === bia.user.id).user.avatarUrl, null);
  await api(srv.url, 'POST', '/api/users/@me/dms', { token: bia.token, body: { userId: ana.user.id } });
  const dms = (await api(srv.url, 'GET', '/api/users/@me/dms', { token: bia.token })).body.dms;
  assert.equal(dms.find((d) => d.userId === ana.user.id).avatarUrl, url);

  // A new picture is a new URL; the old one is gone. Taken away, none.
  const again = await putAvatar(ana, [{ data: PNG, type: 'image/png', name: 'nota.png' }]);
  assert.equal(again.status, 200, again.text);
  assert.notEqual(again.body.user.avatarUrl, url);
  assert.equal((await get(url, bia.token)).status, 404);
  assert.equal((await get(again.body.user.avatarUrl, bia.token)).status, 200);
  const gone = await api(srv.url, 'DELETE', '/api/users/@me/avatar', { token: ana.token });
  assert.equal(gone.status, 200);
  assert.equal(gone.body.user.avatarUrl, null);
  assert.equal((await get(again.body.user.avatarUrl, bia.token)).status, 404);
});

test('what is not one image is refused, and only a person has a picture', async () => {
  const ana = await register(srv.url);
  const refused = async (r, error) => assert.deepEqual([r.status, r.body && r.body.error], [400, error], r.text);
  await refused(await putAvatar(ana, [{ data: Buffer.from('não sou uma imagem\n'), type: 'image/png' }]), 'avatar: deve ser uma imagem PNG, JPEG, GIF ou WebP');
  await refused(await putAvatar(ana, [{ data: JPEG }, { data: JPEG }]), 'avatar: envie uma imagem, um arquivo em multipart/form-data');
  await refused(await putAvatar(ana, []), 'avatar: envie uma imagem, um arquivo em multipart/form-data');
  await refused(await putAvatar(ana, [{ data: JPEG.subarray(0, 200) }]), 'avatar: imagem malformada');
  const json = await api(srv.url, 'PUT', '/api/users/@me/avatar', { token: ana.token, body: { url: 'https://example.com/a.png' } });
  assert.equal(json.status, 400);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).body.user.avatarUrl, null, 'nothing was set');
  const info = await appWithBot(srv.url, ana);
  assert.equal((await putAvatar({ token: info.botToken }, [{ data: JPEG }])).status, 403);
});

test('a profile card is read by the people who share a server or a conversation, and by nobody else', async () => {
  const ana = await register(srv.url);
  const bia = await register(srv.url);
  const stranger = await register(srv.url);
  const sid = await acquaint(srv.url, ana, bia);
  await api(srv.url, 'PATCH', '/api/users/@me', { token: ana.token, body: { displayName: 'Ana Luz', about: 'Fotografia e plantas.', bannerColor: 0x336699 } });
  const card = await api(srv.url, 'GET', `/api/users/${ana.user.id}/profile`, { token: bia.token });
  assert.equal(card.status, 200, card.text);
  assert.deepEqual(card.body.user, { id: ana.user.id, username: ana.user.username, displayName: 'Ana Luz', isBot: false,
                                     about: 'Fotografia e plantas.', bannerColor: 0x336699, avatarUrl: null, deleted: false, imported: false,
                                     presence: { status: 'offline', activity: null } });
  assert.equal((await api(srv.url, 'GET', `/api/users/${ana.user.id}/profile`, { token: ana.token })).status, 200, 'one reads one\'s own');
  for (const [who, uid] of [[stranger, ana.user.id], [bia, '00000000-0000-7000-8000-000000000000'], [bia, 'nada']]) {
    const r = await api(srv.url, 'GET', `/api/users/${uid}/profile`, { token: who.token });
    assert.deepEqual([r.status, r.body.error], [404, 'Pessoa não encontrada']);
  }
  // The pages of the people who share a server read their members again when the picture changes.
  const socket = await gatewayConnect(srv.url, { auth: { token: bia.token } }, sockets);
  const update = nextEvent(socket, 'SERVER_UPDATE');
  assert.equal((await putAvatar(ana, [{ data: PNG, type: 'image/png' }])).status, 200);
  assert.deepEqual(await update, { serverId: sid, changed: 'members' });
});
