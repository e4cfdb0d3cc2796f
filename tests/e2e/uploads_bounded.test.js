// Uploads cannot be turned against everyone else: an image that decodes to more than its budget
// gets no thumbnail and never reaches the decoder, uploads run on a lane of their own with a
// queue bound, and an upload that stalls or trickles is cut after the body timeout whatever it
// declares, holding only the bytes it sent while it lasts.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { startServer, api, appWithBot, install, serverWithMembers, eventually, metric, upload, rawUpload, pngFile, pngPasses } = require('./helpers');
const { P } = require('./permissions');

// A PNG of width × height 8-bit gray pixels, all black; interlaced (Adam7) when asked.
function png(width, height, interlaced) {
  const raw = pngPasses(width, height, interlaced).reduce((n, [w, h]) => n + h * (1 + w), 0); // a filter byte a row
  return pngFile(width, height, { interlaced }, zlib.deflateSync(Buffer.alloc(raw), { level: 9 }));
}

async function world(base) {
  const s = await serverWithMembers(base, 1);
  const cid = s.server.channels[0].id;
  return { ...s, cid, url: `/api/servers/${s.sid}/channels/${cid}/messages` };
}

test('an interlaced PNG that decodes past the budget gets its size and no thumbnail; the decoder never sees it', async () => {
  const own = await startServer({ args: ['--metrics-listen', '127.0.0.1:0'], single: true });
  try {
    const w = await world(own.url);
    // 6,000 × 6,000 interlaced: 36 megapixels decoded whole, in a file of a few dozen kB.
    const bomb = png(6000, 6000, true);
    assert.ok(bomb.length < 200 * 1000, `${bomb.length} bytes`);
    const r = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'bomba.png', data: bomb, type: 'image/png' }]);
    assert.equal(r.status, 200, r.text);
    const a = r.body.message.attachments[0];
    assert.equal(a.contentType, 'image/png');
    assert.equal(a.width, 6000);
    assert.equal(a.height, 6000);
    assert.equal(a.thumbnailUrl, null);
    assert.equal(await metric(own, 'praca_media_thumbnails_total', 'verdict="decode_budget"'), 1);
    assert.equal(await metric(own, 'praca_media_thumbnails_total', 'verdict="ok"'), 0);
    // The same picture not interlaced is shrunk a band of rows at a time: it gets one.
    const plain = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'plano.png', data: png(6000, 6000, false), type: 'image/png' }]);
    assert.equal(plain.status, 200, plain.text);
    assert.match(plain.body.message.attachments[0].thumbnailUrl, /\?thumbnail=1$/);
    assert.equal(await metric(own, 'praca_media_thumbnails_total', 'verdict="ok"'), 1);
    // Past 100 megapixels nothing is decoded, interlaced or not.
    const huge = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'enorme.png', data: png(12000, 9000, false), type: 'image/png' }]);
    assert.equal(huge.status, 200, huge.text);
    assert.equal(huge.body.message.attachments[0].thumbnailUrl, null);
    assert.equal(await metric(own, 'praca_media_thumbnails_total', 'verdict="too_many_pixels"'), 1);
  } finally {
    await own.stop();
  }
});

test('uploads wait on a lane of their own: past its queue 503, and a bystander reads on', async () => {
  const own = await startServer({ args: ['--media-workers', '1', '--media-queue', '1', '--uploads-per-minute', '100'], single: true });
  try {
    const w = await world(own.url);
    // Each takes its one thread a while (a 64-megapixel image shrunk); sent at once, the third
    // and later find the thread busy and one already waiting.
    const slow = png(8000, 8000, false);
    const sends = Array.from({ length: 6 }, (_, i) =>
      upload(own.url, 'POST', w.url, w.owner.token, {}, [{ name: `${i}.png`, data: slow, type: 'image/png' }]));
    const read = await api(own.url, 'GET', w.url, { token: w.members[0].token });
    assert.equal(read.status, 200, 'the history is read beside them');
    const results = await Promise.all(sends);
    const busy = results.filter((r) => r.status === 503);
    assert.ok(busy.length >= 1, results.map((r) => r.status).join(' '));
    assert.match(busy[0].body.error, /envios de arquivos/);
    assert.ok(results.some((r) => r.status === 200), 'the first is served');
  } finally {
    await own.stop();
  }
});

test('an upload that declares 251 MB and pauses is cut after the body timeout, not an hour later', async () => {
  const own = await startServer({ args: ['--body-timeout-ms', '500', '--file-max-mb', '300', '--files-per-message', '1'], single: true });
  try {
    const w = await world(own.url);
    const answer = await rawUpload(own, w.url, w.members[0].token, 251 * 1000 * 1000);
    assert.match(answer, /^HTTP\/1\.1 408 /);
  } finally {
    await own.stop();
  }
});

test('an upload that trickles a byte at a time is cut once its first timeout has passed, whatever it declares', async () => {
  const own = await startServer({ args: ['--body-timeout-ms', '500', '--file-max-mb', '300', '--files-per-message', '1'], single: true });
  try {
    const w = await world(own.url);
    let timer;
    const answer = await rawUpload(own, w.url, w.members[0].token, 251 * 1000 * 1000, (sock) => {
      timer = setInterval(() => sock.write('a'), 100); // never a pause of 500 ms, far below the rate
    });
    clearInterval(timer);
    assert.match(answer, /^HTTP\/1\.1 408 /);
  } finally {
    await own.stop();
  }
});

test('idle uploads hold only what they sent: a bystander uploads while one account holds many', async () => {
  const own = await startServer({ args: ['--upload-budget-mb', '10', '--metrics-listen', '127.0.0.1:0'], single: true });
  try {
    const w = await world(own.url);
    const held = [];
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(rawUpload(own, w.url, w.members[0].token, 9 * 1000 * 1000, (sock) => held.push(sock)));
    }
    await eventually(async () => held.length === 5 && (await metric(own, 'praca_http_spool_bytes')) > 0, 5000, 'the five uploads under way');
    assert.ok(await metric(own, 'praca_http_spool_bytes') < 10 * 1000, 'a few bytes each, not 9 MB');
    const s = await serverWithMembers(own.url, 0);
    const cid = s.server.channels[0].id;
    const bystander = await upload(own.url, 'POST', `/api/servers/${s.sid}/channels/${cid}/messages`, s.owner.token, {}, [{ name: 'b.bin', data: Buffer.alloc(3 * 1000 * 1000, 7) }]);
    assert.equal(bystander.status, 200, bystander.text);
    // An upload that declares more than is free now is refused at once.
    const tooBig = await upload(own.url, 'POST', `/api/servers/${s.sid}/channels/${cid}/messages`, s.owner.token, {}, [{ name: 'c.bin', data: Buffer.alloc(11 * 1000 * 1000, 8) }]);
    assert.equal(tooBig.status, 503);
    for (const sock of held) sock.destroy();
    await Promise.all(answers);
    await eventually(async () => (await metric(own, 'praca_http_spool_bytes')) === 0, 5000, 'the budget given back');
  } finally {
    await own.stop();
  }
});

test('a bot uploads on the same lane', async () => {
  const own = await startServer({ single: true });
  try {
    const w = await world(own.url);
    const info = await appWithBot(own.url, w.owner);
    assert.equal((await install(own.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
    const r = await upload(own.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.cid}/messages`, info.botToken, { content: 'foto' },
      [{ name: 'p.png', data: png(640, 480, true), type: 'image/png' }]);
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.message.attachments[0].thumbnailUrl, /\?thumbnail=1$/, 'a small interlaced image is fine');
  } finally {
    await own.stop();
  }
});

test('a file in a channel one cannot see is not there (404); a DM of files alone is sent; names lose format characters and are cut, never refused', async () => {
  const own = await startServer({});
  try {
    const w = await world(own.url);
    const staff = (await api(own.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'equipe' } })).body.channel.id;
    await api(own.url, 'PUT', `/api/servers/${w.sid}/channels/${staff}/overwrites/${w.sid}`, { token: w.owner.token, body: { type: 'role', deny: P.VER_CANAL } });
    const long = 'n'.repeat(300) + '.txt';
    const sent = await upload(own.url, 'POST', `/api/servers/${w.sid}/channels/${staff}/messages`, w.owner.token, {},
      [{ name: 'fatura\u202Efdp.exe', data: Buffer.from('MZ') }, { name: long, data: Buffer.from('texto') }]);
    assert.equal(sent.status, 200, sent.text);
    const [exe, txt] = sent.body.message.attachments;
    assert.equal(exe.filename, 'faturafdp.exe', 'the override is gone: it reads as what it is');
    assert.equal(Buffer.byteLength(txt.filename), 100, 'cut to 100 bytes');
    const seen = await fetch(exe.url, { headers: { authorization: `Bearer ${w.members[0].token}` } });
    assert.equal(seen.status, 404, 'a member who cannot see the channel');
    assert.equal((await seen.json()).error, 'Arquivo não encontrado');
    assert.equal((await fetch(exe.url, { headers: { authorization: `Bearer ${w.owner.token}` } })).status, 200);

    const dm = await api(own.url, 'POST', '/api/users/@me/dms', { token: w.owner.token, body: { userId: w.members[0].user.id } });
    assert.equal(dm.status, 200, dm.text);
    const only = await upload(own.url, 'POST', `/api/dms/${dm.body.channel.id}/messages`, w.owner.token, {}, [{ name: 'só.txt', data: Buffer.from('arquivo') }]);
    assert.equal(only.status, 200, only.text);
    assert.equal(only.body.message.content, '');
    assert.equal(only.body.message.attachments.length, 1);
  } finally {
    await own.stop();
  }
});

test('each account has a storage quota of its own, DM files included: 413 naming it', async () => {
  const own = await startServer({ args: ['--account-quota-mb', '1'] });
  try {
    const w = await world(own.url);
    const dm = await api(own.url, 'POST', '/api/users/@me/dms', { token: w.owner.token, body: { userId: w.members[0].user.id } });
    const part = Buffer.alloc(600 * 1000, 1);
    const first = await upload(own.url, 'POST', `/api/dms/${dm.body.channel.id}/messages`, w.owner.token, {}, [{ name: 'a.bin', data: part }]);
    assert.equal(first.status, 200, first.text);
    const second = await upload(own.url, 'POST', w.url, w.owner.token, {}, [{ name: 'b.bin', data: part }]);
    assert.equal(second.status, 413);
    assert.equal(second.body.quotaExceeded, true);
    assert.match(second.body.error, /A sua cota de arquivos acabou \(1 MB\)/);
    // Another account's quota is its own.
    const theirs = await upload(own.url, 'POST', w.url, w.members[0].token, {}, [{ name: 'c.bin', data: part }]);
    assert.equal(theirs.status, 200, theirs.text);
  } finally {
    await own.stop();
  }
});

test('what an upload cut by a crash left in the spool is deleted once past the grace period', async () => {
  const args = ['--files-grace-seconds', '60', '--files-sweep-seconds', '1'];
  const own = await startServer({ args, single: true });
  let again;
  try {
    const w = await world(own.url);
    const spool = path.join(own.dir, 'files', 'spool');
    rawUpload(own, w.url, w.members[0].token, 1000 * 1000, (sock) => sock.write(Buffer.alloc(40 * 1000, 1)));
    await eventually(() => fs.readdirSync(spool).length === 1, 5000, 'the partial file in the spool');
    own.proc.kill('SIGKILL');
    await new Promise((r) => (own.proc.exitCode !== null || own.proc.signalCode !== null ? r() : own.proc.once('exit', r)));
    assert.equal(fs.readdirSync(spool).length, 1, 'left behind');
    // Left two minutes ago, past the grace (the files' own times are what the sweep reads).
    const left = path.join(spool, fs.readdirSync(spool)[0]);
    const before = new Date(Date.now() - 120 * 1000);
    fs.utimesSync(left, before, before);
    again = await startServer({ args, dir: own.dir, single: true });
    await eventually(() => fs.readdirSync(spool).length === 0, 10000, 'swept');
    await eventually(() => /files of uploads cut short deleted from the spool/.test(again.stderr + again.stdout), 5000, 'the sweep logged');
  } finally {
    if (again) await again.stop();
    else await own.stop().catch(() => {});
  }
});
