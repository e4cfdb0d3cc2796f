// Attachments: multipart sends and edits of bots and people, attachment:// in embeds, who may
// download, metadata stripped, Range, downloads of what a browser would run, limits, deletion.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startServer, api, register, appWithBot, install, serverWithMembers, sharedServer, acquaint, eventually, upload, rawUpload, POSTGRES } = require('./helpers');
const { P } = require('./permissions');

const BOT_BITS = P.VER_CANAL | P.ENVIAR_MENSAGENS;
const JPEG = fs.readFileSync(path.join(__dirname, 'fixtures', 'gps.jpg'));
const PNG = fs.readFileSync(path.join(__dirname, 'fixtures', 'note.png'));
const srv = sharedServer({});

async function world(base = srv.url) {
  const s = await serverWithMembers(base, 1);
  const info = await appWithBot(base, s.owner, { intents: ['messages.read'] });
  const { complete } = await install(base, s.owner, info, s.sid, { permissions: BOT_BITS });
  assert.equal(complete.status, 200);
  const cid = s.server.channels[0].id;
  return { ...s, info, cid, botUrl: `/api/bot/servers/${s.sid}/channels/${cid}/messages`, url: `/api/servers/${s.sid}/channels/${cid}/messages` };
}

async function download(url, token, headers = {}) {
  const res = await fetch(url, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

// The Exif block of a JPEG ("Exif\0\0" …), or null.
function exifOf(jpeg) {
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff) {
    const m = jpeg[i + 1];
    const len = jpeg.readUInt16BE(i + 2);
    if (m === 0xe1 && jpeg.subarray(i + 4, i + 10).toString('latin1') === 'Exif\0\0') return jpeg.subarray(i + 4, i + 2 + len);
    if (m === 0xda) break;
    i += 2 + len;
  }
  return null;
}

test('a bot uploads two files with an embed showing one through attachment://', async () => {
  const w = await world();
  const r = await upload(srv.url, 'POST', w.botUrl, w.info.botToken,
    { content: 'relatório', embeds: [{ title: 'Foto', image: { url: 'attachment://gps.jpg' } }] },
    [{ name: 'gps.jpg', data: JPEG, type: 'image/jpeg' }, { name: '../../etc/relatório\u0007.txt', data: Buffer.from('linha 1\nlinha 2\n'), type: 'image/png' }]);
  assert.equal(r.status, 200, r.text);
  const m = r.body.message;
  assert.equal(m.content, 'relatório');
  assert.equal(m.attachments.length, 2);
  const [photo, text] = m.attachments;
  assert.equal(photo.filename, 'gps.jpg');
  assert.equal(photo.contentType, 'image/jpeg');
  assert.equal(photo.width, 320);
  assert.equal(photo.height, 240);
  assert.match(photo.thumbnailUrl, /\?thumbnail=1$/);
  assert.equal(m.embeds[0].image.url, photo.url, 'attachment:// resolves to the file');
  // The name loses its path and control characters; the type is the bytes', not the client's.
  assert.equal(text.filename, 'relatório_.txt');
  assert.equal(text.contentType, 'text/plain');
  assert.equal(text.size, 16);
  assert.equal(text.thumbnailUrl, null);
  assert.equal(text.width, undefined);

  // A member of the server downloads both; the bot too.
  const t = await download(text.url, w.members[0].token);
  assert.equal(t.status, 200);
  assert.equal(t.data.toString(), 'linha 1\nlinha 2\n');
  assert.equal(t.headers.get('content-type'), 'text/plain');
  assert.equal(t.headers.get('x-content-type-options'), 'nosniff');
  assert.match(t.headers.get('cache-control'), /private/);
  assert.match(t.headers.get('content-disposition'), /^inline; filename="relat_rio_.txt"; filename\*=UTF-8''relat%C3%B3rio_.txt$/);
  assert.equal((await download(photo.url, w.info.botToken)).status, 200);
  const thumb = await download(photo.thumbnailUrl, w.members[0].token);
  assert.equal(thumb.status, 200);
  assert.equal(thumb.headers.get('content-type'), 'image/webp');
  assert.equal(thumb.data.subarray(0, 4).toString(), 'RIFF');

  // Someone outside the server gets 404; nobody at all 401.
  const outsider = await register(srv.url);
  assert.equal((await download(text.url, outsider.token)).status, 404);
  assert.equal((await download(text.url)).status, 401);
  // The file's name is part of its address.
  assert.equal((await download(text.url.replace(/[^/]+$/, 'outro.txt'), w.members[0].token)).status, 404);

  // History shows the same attachments.
  const h = await api(srv.url, 'GET', w.url, { token: w.owner.token });
  assert.deepEqual(h.body.messages.find((x) => x.id === m.id).attachments, m.attachments);
});

test('JPEG and PNG are stored without their metadata; the orientation stays', async () => {
  const w = await world();
  assert.ok(JPEG.includes('Segredo da Praca') && JPEG.includes('PracaCam'), 'the fixture carries metadata');
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, { content: 'fotos' },
    [{ name: 'gps.jpg', data: JPEG }, { name: 'note.png', data: PNG }]);
  assert.equal(r.status, 200, r.text);
  const [photo, png] = r.body.message.attachments;
  const jpeg = (await download(photo.url, w.owner.token)).data;
  assert.equal(jpeg.readUInt16BE(0), 0xffd8);
  assert.ok(!jpeg.includes('Segredo da Praca') && !jpeg.includes('PracaCam'), 'text tags gone');
  const exif = exifOf(jpeg);
  assert.ok(exif, 'an Exif block with the orientation alone');
  // "Exif\0\0", a big-endian TIFF header, one entry (Orientation = 6), no next IFD.
  assert.deepEqual(exif, Buffer.from('457869660000' + '4d4d002a00000008' + '0001' + '011200030000000100060000' + '00000000', 'hex'));
  const original = exifOf(JPEG);
  assert.ok(original.includes(Buffer.from([0x25, 0x88])) || original.includes(Buffer.from([0x88, 0x25])), 'the fixture had a GPS IFD');
  assert.ok(photo.size < JPEG.length);
  const stored = (await download(png.url, w.owner.token)).data;
  assert.deepEqual(stored.subarray(0, 8), PNG.subarray(0, 8));
  assert.ok(PNG.includes('segredo-png') && !stored.includes('segredo-png'));
  assert.equal(stored.subarray(stored.length - 8, stored.length - 4).toString(), 'IEND');
  assert.equal(png.width, 64);
});

// An MP4's headers: ftyp, then moov → trak → tkhd (version 0) with 1280×720 in 16.16.
function mp4(width, height) {
  const box = (type, ...parts) => { const body = Buffer.concat(parts); const head = Buffer.alloc(8); head.writeUInt32BE(8 + body.length); head.write(type, 4, 'latin1'); return Buffer.concat([head, body]); };
  const dims = Buffer.alloc(8);
  dims.writeUInt32BE(width * 65536, 0);
  dims.writeUInt32BE(height * 65536, 4);
  const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1'));
  return Buffer.concat([ftyp, box('moov', box('trak', box('tkhd', Buffer.alloc(76), dims))), box('mdat', Buffer.alloc(64))]);
}

test('WebP, GIF, HEIC, AVIF and TIFF keep no metadata: WebP and GIF emptied in place, the others written again upright', async () => {
  const w = await world();
  const fixture = (name) => fs.readFileSync(path.join(__dirname, 'fixtures', name));
  const webp = fixture('gps.webp');
  const heic = fixture('gps.heic');
  const avif = fixture('gps.avif');
  const tiff = fixture('orientation.tif');
  for (const f of [webp, heic, avif]) assert.ok(f.includes('PracaCam') && f.includes('Segredo da Praca'), 'the fixture carries metadata');
  // A 1×1 GIF with a comment and an XMP block beside its loop count.
  const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]),
    Buffer.from([0x21, 0xff, 11]), Buffer.from('NETSCAPE2.0'), Buffer.from([3, 1, 0, 0, 0]),
    Buffer.from([0x21, 0xfe, 16]), Buffer.from('Segredo da Praca'), Buffer.from([0]),
    Buffer.from([0x21, 0xff, 11]), Buffer.from('XMP DataXMP'), Buffer.from([8]), Buffer.from('PracaCam'), Buffer.from([0]),
    Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b])]);
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, { content: 'fotos do telefone' },
    [{ name: 'a.webp', data: webp }, { name: 'b.gif', data: gif }, { name: 'IMG_0001.HEIC', data: heic }, { name: 'c.avif', data: avif }, { name: 'scan.tiff', data: tiff }]);
  assert.equal(r.status, 200, r.text);
  const [a, b, c, d, e] = r.body.message.attachments;
  const bytes = async (x) => (await download(x.url, w.owner.token)).data;
  for (const x of [a, b, c, d, e]) {
    const stored = await bytes(x);
    assert.ok(!stored.includes('PracaCam') && !stored.includes('Segredo da Praca') && !stored.includes('Exif\0\0'), `${x.filename}: no metadata`);
  }
  assert.equal(a.contentType, 'image/webp');
  assert.equal((await bytes(a)).length, webp.length, 'WebP emptied in place');
  assert.equal(b.contentType, 'image/gif');
  assert.ok((await bytes(b)).includes('NETSCAPE2.0'), 'the loop count stays');
  assert.deepEqual([c.contentType, c.filename], ['image/jpeg', 'IMG_0001.jpg'], 'HEIC written again as a JPEG a browser shows');
  assert.deepEqual([d.contentType, d.filename], ['image/jpeg', 'c.jpg']);
  assert.deepEqual([e.contentType, e.filename, e.width, e.height], ['image/jpeg', 'scan.jpg', 24, 32], 'turned upright by its orientation');
  for (const x of [a, c, d, e]) assert.match(x.thumbnailUrl, /\?thumbnail=1$/);
});

test('a HEIC too large to decode within the budget is refused from its header, not stored with its metadata; a cut one is malformed', async () => {
  const w = await world();
  const big = fs.readFileSync(path.join(__dirname, 'fixtures', 'black-36mp.heic')); // 6000 × 6000 in 9 kB
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'x.heic', data: big }]);
  assert.equal(r.status, 400);
  assert.equal(r.body.error, 'files[0]: imagem grande demais para tirar os metadados (máximo 32 megapixels)');
  const cut = await upload(srv.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'y.heic', data: big.subarray(0, 40) }]);
  assert.equal(cut.status, 400);
  assert.equal(cut.body.error, 'files[0]: imagem malformada');
});

test('a video gets its width and height from its headers and plays in place, by ranges', async () => {
  const w = await world();
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'clip.mp4', data: mp4(1280, 720), type: 'application/octet-stream' }]);
  assert.equal(r.status, 200, r.text);
  const [clip] = r.body.message.attachments;
  assert.equal(clip.contentType, 'video/mp4');
  assert.deepEqual([clip.width, clip.height], [1280, 720]);
  assert.equal(clip.thumbnailUrl, null);
  const d = await download(clip.url, w.owner.token, { range: 'bytes=0-7' });
  assert.equal(d.status, 206);
  assert.match(d.headers.get('content-disposition'), /^inline; /);
});

test('HTML, SVG and other runnable types are downloads with a sandbox policy', async () => {
  const w = await world();
  const html = '<!doctype html><html><body><script>alert(1)</script></body></html>';
  const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, {},
    [{ name: 'page.html', data: Buffer.from(html), type: 'text/plain' }, { name: 'x.svg', data: Buffer.from(svg), type: 'image/png' }]);
  assert.equal(r.status, 200, r.text);
  for (const a of r.body.message.attachments) {
    const d = await download(a.url, w.owner.token);
    assert.equal(d.status, 200);
    assert.match(d.headers.get('content-disposition'), /^attachment; /, a.filename);
    assert.match(d.headers.get('content-security-policy'), /sandbox/);
    assert.equal(d.headers.get('x-content-type-options'), 'nosniff');
    assert.match(a.contentType, /html|svg/);
  }
});

test('Range requests return the bytes asked for; ETag answers 304', async () => {
  const w = await world();
  const data = Buffer.from('0123456789abcdefghij');
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'd.bin', data }]);
  assert.equal(r.status, 200, r.text);
  const url = r.body.message.attachments[0].url;
  const part = await download(url, w.owner.token, { range: 'bytes=2-5' });
  assert.equal(part.status, 206);
  assert.equal(part.data.toString(), '2345');
  assert.equal(part.headers.get('content-range'), 'bytes 2-5/20');
  const tail = await download(url, w.owner.token, { range: 'bytes=-3' });
  assert.equal(tail.data.toString(), 'hij');
  const open = await download(url, w.owner.token, { range: 'bytes=15-' });
  assert.equal(open.data.toString(), 'fghij');
  const past = await download(url, w.owner.token, { range: 'bytes=20-' });
  assert.equal(past.status, 416);
  assert.equal(past.headers.get('content-range'), 'bytes */20');
  const whole = await download(url, w.owner.token);
  const again = await download(url, w.owner.token, { 'if-none-match': whole.headers.get('etag') });
  assert.equal(again.status, 304);
  assert.equal(again.data.length, 0);
});

test('a bot edit keeps attachments by ID, drops the others and adds new files', async () => {
  const w = await world();
  const sent = await upload(srv.url, 'POST', w.botUrl, w.info.botToken, { content: 'v1' },
    [{ name: 'a.txt', data: Buffer.from('a') }, { name: 'b.txt', data: Buffer.from('b') }]);
  assert.equal(sent.status, 200, sent.text);
  const [a, b] = sent.body.message.attachments;
  const mid = sent.body.message.id;
  // Without `attachments` an edit keeps them all.
  const plain = await api(srv.url, 'PATCH', `${w.botUrl}/${mid}`, { token: w.info.botToken, body: { content: 'v2' } });
  assert.equal(plain.status, 200, plain.text);
  assert.deepEqual(plain.body.message.attachments.map((x) => x.id), [a.id, b.id]);
  const edited = await upload(srv.url, 'PATCH', `${w.botUrl}/${mid}`, w.info.botToken,
    { content: 'v3', attachments: [{ id: b.id }] }, [{ name: 'c.txt', data: Buffer.from('c') }]);
  assert.equal(edited.status, 200, edited.text);
  const files = edited.body.message.attachments;
  assert.deepEqual(files.map((x) => x.filename), ['b.txt', 'c.txt']);
  assert.equal(files[0].id, b.id);
  assert.equal((await download(a.url, w.owner.token)).status, 404, 'the dropped one is gone');
  assert.equal((await download(files[1].url, w.owner.token)).data.toString(), 'c');
  const wrong = await upload(srv.url, 'PATCH', `${w.botUrl}/${mid}`, w.info.botToken, { attachments: [{ id: a.id }] });
  assert.equal(wrong.status, 400);
  assert.match(wrong.body.error, /^attachments\[0\]\.id: /);
});

test('attachment:// in Components V2: a media gallery and a file component point at the files sent', async () => {
  const w = await world();
  const r = await upload(srv.url, 'POST', w.botUrl, w.info.botToken,
    { flags: 32768, components: [{ type: 12, items: [{ media: { url: 'attachment://note.png' } }] }, { type: 13, file: { url: 'attachment://dados.csv' } }] },
    [{ name: 'note.png', data: PNG }, { name: 'dados.csv', data: Buffer.from('a,b\n1,2\n') }]);
  assert.equal(r.status, 200, r.text);
  const [png, csv] = r.body.message.attachments;
  assert.equal(r.body.message.components[0].items[0].media.url, png.url);
  assert.equal(r.body.message.components[1].file.url, csv.url);
});

test("a person's edit takes files out of their message, but adds none", async () => {
  const w = await world();
  const sent = await upload(srv.url, 'POST', w.url, w.members[0].token, { content: 'dois' },
    [{ name: 'a.txt', data: Buffer.from('a') }, { name: 'b.txt', data: Buffer.from('b') }]);
  assert.equal(sent.status, 200, sent.text);
  const [a, b] = sent.body.message.attachments;
  const url = `${w.url}/${sent.body.message.id}`;
  const text = await api(srv.url, 'PATCH', url, { token: w.members[0].token, body: { content: 'ainda dois' } });
  assert.deepEqual(text.body.message.attachments.map((x) => x.id), [a.id, b.id]);
  const one = await api(srv.url, 'PATCH', url, { token: w.members[0].token, body: { content: 'um', attachments: [{ id: b.id }] } });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body.message.attachments.map((x) => x.id), [b.id]);
  assert.equal((await download(a.url, w.owner.token)).status, 404);
  const added = await upload(srv.url, 'PATCH', url, w.members[0].token, { content: 'três' }, [{ name: 'c.txt', data: Buffer.from('c') }]);
  assert.equal(added.status, 400, 'a person\'s edit takes JSON only');
});

test('attachment:// naming no file sent is refused; so are eleven files', async () => {
  const w = await world();
  const r = await upload(srv.url, 'POST', w.botUrl, w.info.botToken,
    { embeds: [{ image: { url: 'attachment://nada.png' } }] }, [{ name: 'x.txt', data: Buffer.from('x') }]);
  assert.equal(r.status, 400);
  assert.match(r.body.error, /^embeds\.0\.image\.url: /);
  const json = await api(srv.url, 'POST', w.botUrl, { token: w.info.botToken, body: { embeds: [{ image: { url: 'attachment://nada.png' } }] } });
  assert.equal(json.status, 400);
  const many = Array.from({ length: 11 }, (_, i) => ({ name: `${i}.txt`, data: Buffer.from(String(i)) }));
  const tooMany = await upload(srv.url, 'POST', w.url, w.members[0].token, {}, many);
  assert.equal(tooMany.status, 413);
  assert.match(tooMany.body.error, /Arquivos demais.*10/);
  // A file alone is a message; nothing at all is not.
  const empty = await upload(srv.url, 'POST', w.url, w.members[0].token, {}, []);
  assert.equal(empty.status, 400);
});

test('a 26 MB file is refused with 413 before it is stored', async () => {
  const w = await world();
  const spool = path.join(srv.dir, 'files', 'spool');
  const big = Buffer.alloc(26 * 1000 * 1000, 7);
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, { content: 'grande' }, [{ name: 'big.bin', data: big }]);
  assert.equal(r.status, 413);
  assert.equal(r.body.error, 'Arquivo grande demais (máximo 25 MB)');
  await eventually(() => fs.readdirSync(spool).filter((f) => f.startsWith('upload-')).length === 0, 10000, 'the partial file is deleted');
  const h = await api(srv.url, 'GET', w.url, { token: w.owner.token });
  assert.ok(!h.body.messages.some((m) => m.content === 'grande'));
});

test('DM files: the two people download them, nobody else', async () => {
  const a = await register(srv.url);
  const b = await register(srv.url);
  const c = await register(srv.url);
  await acquaint(srv.url, a, b);
  const dm = await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } });
  assert.equal(dm.status, 200, dm.text);
  const cid = dm.body.channel.id;
  const r = await upload(srv.url, 'POST', `/api/dms/${cid}/messages`, a.token, { content: 'segue' }, [{ name: 'n.txt', data: Buffer.from('oi') }]);
  assert.equal(r.status, 200, r.text);
  const url = r.body.message.attachments[0].url;
  assert.equal((await download(url, b.token)).data.toString(), 'oi');
  assert.equal((await download(url, c.token)).status, 404);
});

test('every node serves the same file', async () => {
  const w = await world();
  const r = await upload(srv.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'n.txt', data: Buffer.from('em todos') }]);
  assert.equal(r.status, 200, r.text);
  const u = new URL(r.body.message.attachments[0].url);
  for (const node of srv.nodes || [srv]) {
    const d = await download(node.url + u.pathname, w.owner.token);
    assert.equal(d.status, 200);
    assert.equal(d.data.toString(), 'em todos');
  }
});

test('a deleted message takes its files; the sweep deletes their bytes and those of an orphan upload', async () => {
  // The grace is a minute at least (a stored file waits for its message): the clock is moved past it.
  const own = await startServer({ args: ['--files-sweep-seconds', '1', '--files-grace-seconds', '60', '--test-clock'], single: true });
  const pastGrace = () => api(own.url, 'POST', '/api/test/clock', { body: { advanceMs: 61 * 1000 } });
  try {
    const w = await world(own.url);
    const r = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'x.txt', data: Buffer.from('apagar') }]);
    assert.equal(r.status, 200, r.text);
    const url = r.body.message.attachments[0].url;
    const got = await download(url, w.owner.token);
    const hash = JSON.parse(got.headers.get('etag'));
    const kind = POSTGRES ? 'cache' : 'blobs';
    const where = path.join(own.dir, 'files', kind, hash.slice(0, 2), hash);
    assert.ok(fs.existsSync(where), 'stored (or cached) under its hash');
    const del = await api(own.url, 'DELETE', `${w.url}/${r.body.message.id}`, { token: w.members[0].token });
    assert.equal(del.status, 200, del.text);
    assert.equal((await download(url, w.owner.token)).status, 404);
    await pastGrace();
    await eventually(() => !fs.existsSync(where), 10000, 'the bytes are deleted');
    // A file stored for a message that was then refused belongs to nothing: collected too.
    const orphan = Buffer.from(`órfão ${Date.now()}`);
    const refused = await upload(own.url, 'POST', w.botUrl, w.info.botToken,
      { embeds: [{ image: { url: 'attachment://outro.png' } }] }, [{ name: 'o.txt', data: orphan }]);
    assert.equal(refused.status, 400);
    await pastGrace();
    if (!POSTGRES) {
      const sha = require('node:crypto').createHash('sha256').update(orphan).digest('hex');
      const left = path.join(own.dir, 'files', 'blobs', sha.slice(0, 2), sha);
      await eventually(() => !fs.existsSync(left), 10000, 'the orphan is deleted');
    }
  } finally {
    await own.stop();
  }
});

test('the server quota refuses with a clear error; uploads per account have a limit', async () => {
  const own = await startServer({ args: ['--server-quota-mb', '1', '--uploads-per-minute', '3'] });
  try {
    const w = await world(own.url);
    const part = Buffer.alloc(600 * 1000, 1);
    const first = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'a.bin', data: part }]);
    assert.equal(first.status, 200, first.text);
    const second = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'b.bin', data: part }]);
    assert.equal(second.status, 413);
    assert.equal(second.body.quotaExceeded, true);
    assert.match(second.body.error, /cota de arquivos deste servidor/);
    const third = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'c.bin', data: Buffer.alloc(1000, 2) }]);
    assert.equal(third.status, 200, third.text);
    const fourth = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'd.bin', data: Buffer.alloc(1000, 3) }]);
    assert.equal(fourth.status, 429);
    assert.ok(fourth.body.retryAfterMs > 0);
    // Text goes on: the limit is the files'.
    assert.equal((await api(own.url, 'POST', w.url, { token: w.members[0].token, body: { content: 'ainda falo' } })).status, 200);
  } finally {
    await own.stop();
  }
});

test('a stalled upload is cut and leaves no file', async () => {
  const own = await startServer({ args: ['--body-timeout-ms', '500'], single: true });
  try {
    const w = await world(own.url);
    const spool = path.join(own.dir, 'files', 'spool');
    const closed = await rawUpload(own, w.url, w.members[0].token, 100 * 1000,
      (sock) => sock.write(Buffer.alloc(40 * 1000, 1))); // then nothing more
    assert.match(closed, /^HTTP\/1\.1 408 /);
    await eventually(() => fs.readdirSync(spool).length === 0, 10000, 'the partial file is deleted');
  } finally {
    await own.stop();
  }
});

test('uploads arriving at once have a budget: past it 503 before the body is read', async () => {
  const own = await startServer({ args: ['--upload-budget-mb', '2'] });
  try {
    const w = await world(own.url);
    const big = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'b.bin', data: Buffer.alloc(3 * 1000 * 1000, 3) }]);
    assert.equal(big.status, 503);
    const fits = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'a.bin', data: Buffer.alloc(1000 * 1000, 4) }]);
    assert.equal(fits.status, 200, fits.text);
  } finally {
    await own.stop();
  }
});

test('the first upload after a restart: its credential is looked up before the body is read, small or large', async () => {
  const own = await startServer({ single: true });
  try {
    const w = await world(own.url);
    await own.stop();
    const again = await startServer({ dir: own.dir, single: true }); // the session is in the database only
    try {
      const small = await upload(again.url, 'POST', w.url, w.members[0].token, { content: 'pequeno' }, [{ name: 's.txt', data: Buffer.from('s') }]);
      assert.equal(small.status, 200, small.text);
      const large = await upload(again.url, 'POST', w.url, w.owner.token, { content: 'grande' }, [{ name: 'l.bin', data: Buffer.alloc(3 * 1000 * 1000, 5) }]);
      assert.equal(large.status, 200, large.text);
      assert.equal(large.body.message.attachments[0].size, 3 * 1000 * 1000);
      // A credential that turns out unknown sends nothing: 413 for its small limit, not a file.
      const unknown = await upload(again.url, 'POST', w.url, 'inventado', {}, [{ name: 'x.bin', data: Buffer.alloc(2 * 1000 * 1000, 6) }]);
      assert.equal(unknown.status, 413);
      assert.equal(fs.readdirSync(path.join(again.dir, 'files', 'spool')).length, 0);
    } finally { await again.stop(); }
  } catch (e) {
    await own.stop().catch(() => {});
    throw e;
  }
});
