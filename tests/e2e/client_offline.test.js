// The installable app: its manifest, icons and favicon; Chromium's own installability check; the
// service worker keeping the shell, so that with the server gone /app opens from it and shows
// the last room read; and a new version offered, taken, and the old one's files deleted.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, serverWithMembers, freePort, tempDir, eventually } = require('./helpers');
const pages = require('./browser');
const { shoot } = pages;

const browser = pages.sharedBrowser();

// who's /app with the service worker allowed (the other page tests block it).
async function openApp(base, who, at = '') {
  const context = await browser.newContext({ viewport: pages.DESKTOP, serviceWorkers: 'allow' });
  await context.addCookies([{ name: 'session', value: who.token, url: base }]);
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(e.message));
  await page.goto(`${base}/app${at}`);
  await page.waitForSelector('#live.on');
  return page;
}

// A PNG's width and height from its header.
const pngSize = (bytes) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

// The page is controlled by the service worker, and it has kept an answer whose URL holds each
// of `kept` (the reads a page made before the worker controlled it are kept one after another,
// so each is waited for: on a busy machine the last may still be on its way).
// The worker controls the page and has kept each read named: a path, matched whole (its query
// aside, unless the name has one), so "/api/servers" is not taken for "/api/servers/<id>".
async function workerReady(page, ...kept) {
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 20000 });
  await page.waitForFunction(async (parts) => {
    const urls = (await (await caches.open('praca-data')).keys()).map((r) => new URL(r.url));
    return parts.every((part) => {
      const [path, query] = part.split('?');
      return urls.some((u) => u.pathname === path && (query === undefined || u.search === `?${query}`));
    });
  }, kept, { timeout: 20000 });
}

test('the manifest names the app, its icons are there at their sizes, and Chromium finds it installable', async () => {
  const srv = await startServer();
  try {
    const res = await fetch(`${srv.url}/manifest.webmanifest`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/manifest+json');
    const m = await res.json();
    assert.equal(m.name, 'Praça');
    assert.equal(m.start_url, '/app');
    assert.equal(m.display, 'standalone');
    assert.match(m.theme_color, /^#[0-9a-f]{6}$/);
    const want = [['192x192', 'any'], ['512x512', 'any'], ['512x512', 'maskable']];
    for (const [sizes, purpose] of want) {
      const icon = m.icons.find((i) => i.sizes === sizes && i.purpose === purpose && i.type === 'image/png');
      assert.ok(icon, `${sizes} ${purpose}`);
      const png = await fetch(`${srv.url}${icon.src}`);
      assert.equal(png.headers.get('content-type'), 'image/png');
      const [w, h] = sizes.split('x').map(Number);
      assert.deepEqual(pngSize(Buffer.from(await png.arrayBuffer())), { width: w, height: h });
    }
    const favicon = await fetch(`${srv.url}/favicon.ico`);
    assert.equal(favicon.status, 200);
    assert.equal(favicon.headers.get('content-type'), 'image/png');
    // The worker is served at the root only: its template is not a static file.
    assert.equal((await fetch(`${srv.url}/static/sw.js`)).status, 404);
    const csp = (await fetch(`${srv.url}/app`)).headers.get('content-security-policy');
    assert.match(csp, /worker-src 'self'/);
    assert.match(csp, /manifest-src 'self'/);

    const { owner } = await serverWithMembers(srv.url, 0);
    const page = await openApp(srv.url, owner);
    await workerReady(page);
    const cdp = await page.context().newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, []);
    assert.equal(manifest.url, `${srv.url}/manifest.webmanifest`);
    // Chromium's own check: nothing stands in the way but the test's private profile.
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'), [], 'Chromium would offer to install it');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await srv.stop();
  }
});

test('with the server gone, /app opens from the service worker and shows the last room read', async () => {
  const srv = await startServer();
  let page;
  try {
    const { owner, sid, server } = await serverWithMembers(srv.url, 0);
    const cid = server.channels[0].id;
    const sent = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content: 'lido antes de ficar sem rede' } });
    assert.equal(sent.status, 200, sent.text);
    page = await openApp(srv.url, owner, `#server=${sid}&channel=${cid}`);
    await page.waitForSelector('.message:has-text("lido antes de ficar sem rede")');
    // Once the worker controls the page, a visit's reads go through it and are kept as they
    // are answered (the first visit's reach it afterwards, by message).
    await workerReady(page);
    await page.reload();
    await page.waitForSelector('#live.on');
    await page.waitForSelector('.message:has-text("lido antes de ficar sem rede")');
    // Everything the room needs to open again: who I am, my servers, this one, its people and
    // commands, my conversations, marks and blocks, and the room's messages.
    await workerReady(page, '/api/users/@me', '/api/servers', `/api/servers/${sid}?threads=1`, `/api/servers/${sid}/members`,
      `/api/servers/${sid}/commands`, '/api/users/@me/dms', '/api/users/@me/unread', '/api/users/@me/blocks', `/api/servers/${sid}/channels/${cid}/messages`);
  } finally {
    await srv.stop();
  }
  // The port stays taken, refusing every connection: a server of another test file started
  // meanwhile on the port just freed would otherwise answer the reload (and its 401 would make
  // the page forget what it kept).
  const port = Number(new URL(srv.url).port);
  const gone = require('node:net').createServer((socket) => socket.destroy());
  await new Promise((ok, fail) => gone.once('error', fail).listen(port, '127.0.0.1', ok));
  const seen = [];
  page.on('console', (m) => seen.push(`${m.type()}: ${m.text()}`));
  page.on('response', (r) => { if (!r.url().includes('/static/')) seen.push(`${r.status()} ${r.url()}${r.fromServiceWorker() ? ' (worker)' : ''}`); });
  page.on('requestfailed', (r) => seen.push(`failed ${r.url()}: ${r.failure()?.errorText}`));
  try {
    await page.reload();
    await page.waitForSelector('.message:has-text("lido antes de ficar sem rede")', { timeout: 20000 }).catch(async (e) => {
      // What the page did instead, for whoever reads the failure.
      const where = await page.evaluate(() => `${location.href} ${document.body.innerText.slice(0, 300)}`).catch(() => '?');
      throw new Error(`${e.message}\nat ${where}\nproblems: ${page.problems.join(' | ')}\n${seen.slice(-40).join('\n')}`);
    });
    assert.equal(await page.$eval('#live', (e) => e.classList.contains('on')), false, 'the page says it is not live');
    await shoot(page, 'client-offline');
    await page.context().close();
  } finally {
    await new Promise((ok) => gone.close(ok));
  }
});

test('a new version installs beside the old, is offered, and once taken the old one\'s files are gone', async () => {
  const dir = tempDir();
  const port = await freePort();
  const serve = (version) => startServer({ single: true, dir, args: ['--port', String(port), '--test-web-version', version] });
  let srv = await serve('versao-1');
  let page;
  try {
    const { owner } = await serverWithMembers(srv.url, 0);
    page = await openApp(srv.url, owner);
    await workerReady(page);
    const shells = () => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('praca-shell-')).sort());
    assert.deepEqual(await shells(), ['praca-shell-versao-1']);
    await srv.stop();
    srv = await serve('versao-2');
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await page.waitForSelector('#update-ready:has-text("Uma nova versão do Praça está pronta")', { timeout: 20000 });
    await shoot(page, 'client-update-ready');
    await Promise.all([page.waitForEvent('load'), page.click('#update-ready button')]);
    await page.waitForSelector('#live.on');
    await eventually(async () => JSON.stringify(await shells()) === JSON.stringify(['praca-shell-versao-2']), 10000, 'only the new version kept');
    await page.context().close();
  } finally {
    await srv.stop();
  }
});
