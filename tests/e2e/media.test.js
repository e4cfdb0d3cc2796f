// The media proxy: an image a stored message shows, fetched by praca for a person who can see
// the message, so the chat page (whose Content-Security-Policy loads nothing from elsewhere)
// shows it. Only the message's own image URLs, only images, bounded in size, time and number.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');
const { chromium } = require('playwright-core');
const { startServer, api, register, appWithBot, install, serverWithMembers } = require('./helpers');

const { P } = require('./permissions');
const SHOTS = path.join(__dirname, 'screenshots');

// A PNG of w×h pixels, a gradient, made here so the test needs no file.
function png(w, h) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type, data) => {
    const head = Buffer.alloc(8); head.writeUInt32BE(data.length); head.write(type, 4);
    const tail = Buffer.alloc(4); tail.writeUInt32BE(crc(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([head, data, tail]);
  };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const o = y * (w * 3 + 1) + 1 + x * 3;
    raw[o] = 31 + (x * 200) / w; raw[o + 1] = 111; raw[o + 2] = 92 + (y * 150) / h;
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const IMAGE = png(240, 120);
let srv, strict, site, base;

test.before(async () => {
  srv = await startServer({ args: ['--allow-private-endpoints'] });
  strict = await startServer({ single: true });
  site = http.createServer((req, res) => {
    const send = (status, type, body) => { res.writeHead(status, { 'Content-Type': type }); res.end(body); };
    if (req.url === '/a.png' || req.url === '/a.png?t=1') send(200, 'image/png', IMAGE);
    else if (req.url === '/pngx.png') send(200, 'image/pngx', IMAGE);
    else if (req.url === '/params.png') send(200, 'Image/PNG; q=1', IMAGE);
    else if (req.url === '/x.svg') send(200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    else if (req.url === '/page.html') send(200, 'text/html', '<h1>oi</h1>');
    else if (req.url === '/big.png') send(200, 'image/png', Buffer.alloc(5 * 1000 * 1000));
    else if (req.url === '/slow.png') setTimeout(() => send(200, 'image/png', IMAGE), 1500);
    else send(404, 'text/plain', 'não');
  });
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${site.address().port}`;
});

test.after(async () => {
  site.close();
  for (const s of [srv, strict]) { const r = await s.stop(); assert.equal(r.code, 0, s.stderr); }
});

// A server with a member and a bot; the bot posts what `body` says.
async function world(url, body) {
  const w = await serverWithMembers(url, 1);
  const info = await appWithBot(url, w.owner);
  assert.equal((await install(url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
  const cid = w.server.channels[0].id;
  const posted = await api(url, 'POST', `/api/bot/servers/${w.sid}/channels/${cid}/messages`, { token: info.botToken, body });
  assert.equal(posted.status, 200, posted.text);
  const mid = posted.body.message.id;
  const get = (image, token = w.members[0].token, at = url) => fetch(`${at}/api/servers/${w.sid}/channels/${cid}/messages/${mid}/media?url=${encodeURIComponent(image)}`,
    { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { ...w, info, cid, mid, get };
}

const embedWith = () => ({ content: 'veja', embeds: [{ title: 'Um link', url: `${base}/page.html`, image: { url: `${base}/a.png` }, thumbnail: { url: `${base}/x.svg` } }] });

test('an embed image comes through the proxy as it is, marked so it never runs as a page', async () => {
  const w = await world(srv.url, embedWith());
  const r = await w.get(`${base}/a.png`);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'image/png');
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(r.headers.get('content-security-policy'), "default-src 'none'; sandbox");
  assert.equal(r.headers.get('cache-control'), 'private, max-age=3600', 'kept by the browser that asked');
  assert.equal(r.headers.get('vary'), 'Cookie, Authorization', 'and only for the same sign-in');
  assert.ok(Buffer.from(await r.arrayBuffer()).equals(IMAGE));
});

test('the image type is matched exactly, its parameters aside', async () => {
  const w = await world(srv.url, { content: 'tipos', embeds: [{ image: { url: `${base}/pngx.png` }, thumbnail: { url: `${base}/params.png` } }] });
  const refused = await w.get(`${base}/pngx.png`);
  assert.equal(refused.status, 502);
  assert.equal((await refused.json()).error, 'O endereço não é de uma imagem PNG, JPEG, GIF, WebP ou AVIF');
  const ok = await w.get(`${base}/params.png`);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('content-type'), 'image/png');
});

test('only images the message shows, only image types, bounded in size; the site\'s own failure said', async () => {
  const w = await world(srv.url, embedWith());
  const error = async (r) => [r.status, (await r.json()).error];
  const refused = await w.get(`${base}/x.svg`);
  assert.equal(refused.headers.get('cache-control'), 'no-store', 'a failure is not kept');
  assert.deepEqual(await error(refused), [502, 'O endereço não é de uma imagem PNG, JPEG, GIF, WebP ou AVIF']);
  assert.deepEqual(await error(await w.get(`${base}/page.html`)), [404, 'Esta mensagem não mostra essa imagem'], "the embed's link is not an image of it");
  assert.deepEqual(await error(await w.get(`${base}/big.png`)), [404, 'Esta mensagem não mostra essa imagem']);
  assert.deepEqual(await error(await w.get('ftp://example.com/a.png')), [400, 'url: deve ser uma URL absoluta http ou https']);
  const missing = await fetch(`${srv.url}/api/servers/${w.sid}/channels/${w.cid}/messages/${w.mid}/media`, { headers: { authorization: `Bearer ${w.members[0].token}` } });
  assert.deepEqual(await error(missing), [400, 'url: obrigatório']);
  const big = await world(srv.url, { embeds: [{ image: { url: `${base}/big.png` } }, { image: { url: `${base}/gone.png` } }] });
  assert.deepEqual(await error(await big.get(`${base}/big.png`)), [502, 'A imagem não pôde ser lida: sem resposta a tempo, endereço recusado ou maior que 4 MB']);
  assert.deepEqual(await error(await big.get(`${base}/gone.png`)), [502, 'O site da imagem respondeu 404']);
});

test('Components V2: a gallery item and a section thumbnail come through too', async () => {
  const w = await world(srv.url, { flags: 32768, components: [{ type: 17, components: [
    { type: 12, items: [{ media: { url: `${base}/a.png` } }] },
    { type: 9, components: [{ type: 10, content: 'texto' }], accessory: { type: 11, media: { url: `${base}/a.png?t=1` } } },
  ] }] });
  for (const image of [`${base}/a.png`, `${base}/a.png?t=1`]) {
    const r = await w.get(image);
    assert.equal(r.status, 200, `${image}: ${r.status === 200 ? '' : (await r.json()).error}`);
  }
});

test('who may ask: people who can see the message; not strangers, bots or the anonymous', async () => {
  const w = await world(srv.url, embedWith());
  const stranger = await register(srv.url);
  assert.equal((await w.get(`${base}/a.png`, stranger.token)).status, 404);
  assert.equal((await w.get(`${base}/a.png`, w.info.botToken)).status, 403);
  assert.equal((await w.get(`${base}/a.png`, null)).status, 401);
});

test('at most 2 fetches in flight per person: the next is told to try again; another person is not held back', async () => {
  const w = await world(srv.url, { embeds: [{ image: { url: `${base}/slow.png` } }] });
  const mine = Array.from({ length: 3 }, () => w.get(`${base}/slow.png`));
  const other = w.get(`${base}/slow.png`, w.owner.token);
  const statuses = (await Promise.all(mine)).map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 503).length, 1, JSON.stringify(statuses));
  assert.equal(statuses.filter((s) => s === 200).length, 2, JSON.stringify(statuses));
  assert.equal((await other).status, 200);
});

test('a loopback or private address is refused unless the operator allows private endpoints', async () => {
  const w = await world(strict.url, embedWith());
  const r = await w.get(`${base}/a.png`, w.members[0].token, strict.url);
  assert.equal(r.status, 502);
});

test('in Chromium the embed shows the image itself, from this site only; one the proxy cannot give stays a link', async () => {
  const w = await world(srv.url, embedWith());
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
    await context.addCookies([{ name: 'session', value: w.members[0].token, url: srv.url }]);
    const page = await context.newPage();
    const outside = [];
    page.on('request', (r) => { if (!r.url().startsWith(srv.url)) outside.push(r.url()); });
    await page.goto(`${srv.url}/app`);
    await page.waitForSelector(`#m-${w.mid} .embed a.shown img`);
    assert.equal(await page.$eval(`#m-${w.mid} .embed a.shown img`, (i) => i.naturalWidth), 240);
    await page.waitForSelector(`#m-${w.mid} .embed .media a:has-text("🖼 miniatura")`); // the SVG: a link
    assert.deepEqual(outside, [], 'nothing asked of another site');
    fs.mkdirSync(SHOTS, { recursive: true });
    for (const [size, viewport] of [['390', { width: 390, height: 844 }], ['1280', { width: 1280, height: 900 }]]) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: path.join(SHOTS, `chat-media-${size}.png`), fullPage: true });
    }
  } finally {
    await browser.close();
  }
});
