// An export's files come in with their messages, as a person's upload would: found in the
// export's folder (DiscordChatExporter's --media, a Slack exporter's attachments/, Mattermost's
// data/), or fetched from their links; kept without their metadata, with a thumbnail; and a file
// that cannot be brought (gone, too large, at a private address, outside the export's folder)
// stays a line of its message's text.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { api, register, importedServer, BIN, sharedServer, tempDir } = require('./helpers');

const srv = sharedServer({}, []);
const FIXTURES = path.join(__dirname, 'fixtures');
const PNG = fs.readFileSync(path.join(FIXTURES, 'note.png'));
const JPEG = fs.readFileSync(path.join(FIXTURES, 'gps.jpg'));
// Run without blocking: the site the files are fetched from answers from this process.
function run(command, args) {
  const child = spawn(command, args);
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}
const store = () => [...srv.storeArgs, '--files', path.join(srv.dir, 'files')];
const praca = (...args) => run(BIN, [...args, ...store()]);

// A JPEG's Exif block ("Exif\0\0" …), or null.
function exifOf(jpeg) {
  for (let i = 2; i + 4 <= jpeg.length && jpeg[i] === 0xff;) {
    const len = jpeg.readUInt16BE(i + 2);
    if (jpeg[i + 1] === 0xe1 && jpeg.subarray(i + 4, i + 10).toString('latin1') === 'Exif\0\0') return jpeg.subarray(i + 4, i + 2 + len);
    if (jpeg[i + 1] === 0xda) break;
    i += 2 + len;
  }
  return null;
}

// A site the files are fetched from: /photo.jpg, /moved (a redirect to it), /big.bin (1.5 MB),
// /many/<n>.png (a picture of its own each), anything else 404.
async function site() {
  let hits = 0;
  const s = http.createServer((req, res) => {
    hits++;
    if (req.url === '/photo.jpg') { res.writeHead(200, { 'content-type': 'image/jpeg' }); res.end(JPEG); return; }
    const many = req.url.match(/^\/many\/(\d+)\.png$/);
    if (many) { res.writeHead(200, { 'content-type': 'image/png' }); res.end(Buffer.concat([PNG, Buffer.from(many[1])])); return; }
    if (req.url === '/big.bin') { res.writeHead(200); res.end(Buffer.alloc(1536 * 1024, 9)); return; }
    if (req.url === '/moved') { res.writeHead(302, { location: '/photo.jpg' }); res.end(); return; }
    res.writeHead(404);
    res.end();
  });
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${s.address().port}`, close: () => s.close(), get hits() { return hits; } };
}

async function imported(owner, name) {
  const tree = await importedServer(srv.url, owner, name);
  const history = async (channel) => {
    const cid = tree.channels.find((c) => c.name === channel).id;
    const r = await api(srv.url, 'GET', `/api/servers/${tree.server.id}/channels/${cid}/messages?limit=100`, { token: owner.token });
    assert.equal(r.status, 200);
    return r.body.messages.slice().sort((a, b) => (a.id < b.id ? -1 : 1));
  };
  return { tree, history };
}

// The placeholder named name has a picture, served as a person's is (a square WebP).
async function pictured(owner, sid, name) {
  const members = (await api(srv.url, 'GET', `/api/servers/${sid}/members?limit=100`, { token: owner.token })).body.members;
  const who = members.find((x) => x.user.displayName === name);
  assert.match(who.user.avatarUrl || '', /^\/api\/users\/.+\/avatar\//, `${name} has a picture`);
  const got = await download(who.user.avatarUrl, owner.token);
  assert.equal(got.status, 200);
  assert.equal(got.type, 'image/webp');
  assert.equal(got.data.subarray(8, 12).toString(), 'WEBP');
}

async function download(url, token) {
  // Without --site-url an import links its files by path, on the server's own origin.
  const res = await fetch(new URL(url, srv.url), { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), data: Buffer.from(await res.arrayBuffer()) };
}

// A DiscordChatExporter file of one channel whose messages each name the given attachments.
function discordExport(dir, attachments, avatarUrl) {
  const author = { id: '880000000000000101', name: 'alice', nickname: 'Alice', isBot: false, roles: [], ...(avatarUrl ? { avatarUrl } : {}) };
  const messages = attachments.map((a, i) => ({
    id: String(1107002235289600000n + BigInt(i) * 4194304000n), type: 'Default',
    timestamp: new Date(1684000000000 + i * 1000).toISOString(), timestampEdited: null,
    isPinned: false, content: `m ${i}`, author, attachments: a, reactions: [],
  }));
  const file = path.join(dir, 'Clube - fotos [880000000000000012].json');
  fs.writeFileSync(file, JSON.stringify({
    guild: { id: '880000000000000001', name: 'Clube' },
    channel: { id: '880000000000000012', type: 'GuildTextChat', categoryId: null, category: null, name: 'fotos', topic: null },
    messages, messageCount: messages.length,
  }));
  return file;
}

test('a Discord export: files beside it and at their links come in as uploads; the rest stay links', async () => {
  const owner = await register(srv.url);
  const web = await site();
  const dir = tempDir('praca-import-files-');
  fs.mkdirSync(path.join(dir, 'fotos_Files'));
  fs.writeFileSync(path.join(dir, 'fotos_Files', 'nota.png'), PNG);
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'not for the export');
  const file = discordExport(dir, [
    [{ url: 'fotos_Files/nota.png', fileName: 'nota.png' }, { url: `${web.url}/moved`, fileName: 'foto.jpg' }],
    [{ url: `${web.url}/gone.png`, fileName: 'gone.png' }],
    [{ url: '../secret.txt', fileName: 'secret.txt' }, { url: 'fotos_Files/missing.png', fileName: 'missing.png' }],
  ]);
  try {
    const r = await praca('import', 'discord', file, '--server', 'Fotos', '--owner', owner.user.username, '--allow-private-endpoints');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /3 messages written.*2 files brought, 3 left as links/);
    const { history } = await imported(owner, 'Fotos');
    const [both, gone, outside] = await history('fotos');
    assert.equal(both.content, 'm 0', 'a file brought is no link in the text');
    assert.deepEqual(both.attachments.map((a) => [a.filename, a.contentType]), [['nota.png', 'image/png'], ['foto.jpg', 'image/jpeg']]);
    assert.deepEqual([both.attachments[0].width, both.attachments[0].height], [64, 48], 'an image measured');
    assert.ok(both.attachments[1].width > 0 && both.attachments[1].height > 0);
    for (const a of both.attachments) assert.match(a.thumbnailUrl, /\?thumbnail=1$/);
    const png = await download(both.attachments[0].url, owner.token);
    assert.equal(png.status, 200);
    assert.equal(png.type, 'image/png');
    assert.equal(png.data.subarray(0, 8).toString('hex'), PNG.subarray(0, 8).toString('hex'));
    const jpeg = await download(both.attachments[1].url, owner.token);
    assert.equal(jpeg.status, 200);
    assert.ok(JPEG.includes('PracaCam') && exifOf(JPEG).length > 32, 'the fixture has its tags and GPS');
    assert.ok(!jpeg.data.includes('PracaCam'), "a fetched photo's tags are taken out, as an upload's");
    assert.deepEqual(exifOf(jpeg.data), Buffer.from('457869660000' + '4d4d002a00000008' + '0001' + '011200030000000100060000' + '00000000', 'hex'), 'the orientation alone is kept');
    assert.equal(gone.content, `m 1\n${web.url}/gone.png`, 'a link that answers 404 stays a link');
    assert.deepEqual(gone.attachments, []);
    assert.equal(outside.content, 'm 2\n../secret.txt\nfotos_Files/missing.png', "nothing outside the export's folder is read; a missing file stays its path");

    // Without the operator's leave, a private address is not fetched; nor anything with --no-fetch.
    const closed = discordExport(tempDir('praca-import-files-'), [[{ url: `${web.url}/photo.jpg`, fileName: 'foto.jpg' }]]);
    const refused = await praca('import', 'discord', closed, '--server', 'Fechado', '--owner', owner.user.username);
    assert.equal(refused.status, 0, refused.stderr);
    assert.match(refused.stdout, /0 files brought, 1 left as links/);
    const off = await praca('import', 'discord', closed, '--server', 'Sem busca', '--owner', owner.user.username, '--allow-private-endpoints', '--no-fetch');
    assert.match(off.stdout, /0 files brought, 1 left as links/);
    assert.deepEqual((await (await imported(owner, 'Fechado')).history('fotos'))[0].attachments, []);

    // A file past --file-max-mb stays a link, from the folder as from a link.
    const heavy = tempDir('praca-import-files-');
    fs.writeFileSync(path.join(heavy, 'grande.bin'), Buffer.alloc(1536 * 1024, 7));
    const large = discordExport(heavy, [[{ url: 'grande.bin', fileName: 'grande.bin' }, { url: `${web.url}/photo.jpg`, fileName: 'foto.jpg' },
      { url: `${web.url}/big.bin`, fileName: 'big.bin' }]]);
    const bounded = await praca('import', 'discord', large, '--server', 'Pesado', '--owner', owner.user.username, '--allow-private-endpoints', '--file-max-mb', '1');
    assert.equal(bounded.status, 0, bounded.stderr);
    assert.match(bounded.stdout, /1 files brought, 2 left as links/);
    const [weighed] = await (await imported(owner, 'Pesado')).history('fotos');
    assert.deepEqual(weighed.attachments.map((a) => a.filename), ['foto.jpg']);
    assert.equal(weighed.content, `m 0\ngrande.bin\n${web.url}/big.bin`);

    // Run again: nothing twice, the files included, and nothing fetched again.
    const hits = web.hits;
    const again = await praca('import', 'discord', file, '--server', 'Fotos', '--owner', owner.user.username, '--allow-private-endpoints');
    assert.match(again.stdout, /0 messages written, 3 there already/);
    assert.equal((await history('fotos'))[0].attachments.length, 2);
    assert.equal(web.hits, hits, 'the files of messages already written are not fetched again');
  } finally {
    web.close();
  }
});

test('a batch that names more links than the process may hold descriptors fetches them all', async () => {
  const owner = await register(srv.url);
  const web = await site();
  const dir = tempDir('praca-import-many-');
  const messages = Array.from({ length: 6 }, (_, i) => Array.from({ length: 20 }, (__, k) => ({ url: `${web.url}/many/${i * 20 + k}.png`, fileName: `f${i * 20 + k}.png` })));
  const file = discordExport(dir, messages);
  try {
    // 120 links in one batch, 64 descriptors: a link's file is opened only while it is fetched.
    const r = await run('sh', ['-c', 'ulimit -n 64 && exec "$0" "$@"', BIN, 'import', 'discord', file, '--server', 'Muitos', '--owner', owner.user.username, '--allow-private-endpoints', ...store()]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /6 messages written.*120 files brought, 0 left as links/);
  } finally {
    web.close();
  }
});

test("a Slack export's files under <channel>/attachments, and Mattermost's under data/, come in", async () => {
  const owner = await register(srv.url);
  const slack = tempDir('praca-import-slack-files-');
  fs.cpSync(path.join(FIXTURES, 'slack'), slack, { recursive: true });
  fs.mkdirSync(path.join(slack, 'geral', 'attachments'));
  fs.writeFileSync(path.join(slack, 'geral', 'attachments', 'F1-capa.png'), PNG);
  const web = await site();
  const users = JSON.parse(fs.readFileSync(path.join(slack, 'users.json'), 'utf8'));
  users[0].profile.image_192 = `${web.url}/photo.jpg`;
  fs.writeFileSync(path.join(slack, 'users.json'), JSON.stringify(users));
  const s = await praca('import', 'slack', slack, '--server', 'Slack com arquivos', '--owner', owner.user.username, '--allow-private-endpoints');
  web.close();
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stdout, /1 files brought, 0 left as links/);
  const slackServer = await imported(owner, 'Slack com arquivos');
  const cover = (await slackServer.history('geral'))[2];
  await pictured(owner, slackServer.tree.server.id, users[0].profile.display_name || users[0].profile.real_name);
  assert.equal(cover.content, 'A capa:');
  assert.deepEqual(cover.attachments.map((a) => [a.filename, a.contentType]), [['capa.png', 'image/png']]);
  assert.equal((await download(cover.attachments[0].url, owner.token)).status, 200);

  const mm = tempDir('praca-import-mm-files-');
  const lines = fs.readFileSync(path.join(FIXTURES, 'mattermost', 'export.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const alice = lines.find((l) => l.type === 'user' && l.user.username === 'alice');
  alice.user.profile_image = 'data/alice.jpg';
  fs.writeFileSync(path.join(mm, 'export.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  fs.mkdirSync(path.join(mm, 'data'));
  fs.writeFileSync(path.join(mm, 'data', 'alice.jpg'), JPEG);
  fs.writeFileSync(path.join(mm, 'data', 'capa.png'), PNG);
  const m = await praca('import', 'mattermost', path.join(mm, 'export.jsonl'), '--server', 'MM com arquivos', '--owner', owner.user.username, '--team', 'clube');
  assert.equal(m.status, 0, m.stderr);
  assert.match(m.stdout, /1 files brought, 0 left as links/);
  const mmServer = await imported(owner, 'MM com arquivos');
  const post = (await mmServer.history('Town Square'))[2];
  await pictured(owner, mmServer.tree.server.id, alice.user.nickname || [alice.user.first_name, alice.user.last_name].filter(Boolean).join(' ') || 'alice');
  assert.equal(post.content, 'A capa:');
  assert.deepEqual(post.attachments.map((a) => a.filename), ['capa.png']);
});

// The folder zipped, as a person who ran DiscordChatExporter with --media hands it over.
function zipFolder(dir, zip, under) {
  const { spawnSync } = require('node:child_process');
  const made = spawnSync('python3', ['-c', `
import zipfile, os, sys
src, out, under = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk(src):
        for f in files:
            p = os.path.join(root, f)
            z.write(p, os.path.join(under, os.path.relpath(p, src)))
`, dir, zip, under], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
}

test("a Discord export's folder zipped, with its --media files, imports with them", async () => {
  const owner = await register(srv.url);
  const dir = tempDir('praca-import-dzip-');
  fs.mkdirSync(path.join(dir, 'fotos_Files'));
  fs.writeFileSync(path.join(dir, 'fotos_Files', 'nota.png'), PNG);
  fs.writeFileSync(path.join(dir, 'fotos_Files', 'alice.jpg'), JPEG);
  discordExport(dir, [[{ url: 'fotos_Files/nota.png', fileName: 'nota.png' }]], 'fotos_Files/alice.jpg');
  const zip = path.join(tempDir('praca-import-dzip-'), 'clube.zip');
  zipFolder(dir, zip, 'Clube export');
  const r = await praca('import', 'discord', zip, '--server', 'Clube zip', '--owner', owner.user.username);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /1 messages written.*1 files brought, 0 left as links/);
  const { tree, history } = await imported(owner, 'Clube zip');
  const [m] = await history('fotos');
  assert.equal(m.content, 'm 0');
  assert.deepEqual(m.attachments.map((a) => [a.filename, a.width, a.height]), [['nota.png', 64, 48]]);
  await pictured(owner, tree.server.id, 'Alice');
});
