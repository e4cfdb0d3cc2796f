// The page as an app shell: at every width from 320 to 1920 px, as a server's owner (who sees
// every action) in a channel of 200 messages with the longest names, the document never scrolls
// and is never wider than the window; the composer is on screen; only the messages scroll. Each
// width's screenshot, light and dark, lands in tests/e2e/screenshots/shell-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startServer, api, register, launchChromium } = require('./helpers');

const SHOTS = path.join(__dirname, 'screenshots');
const WIDTHS = [[320, 640], [390, 844], [768, 1024], [1280, 800], [1920, 1080]];
const LONG = 'Um-nome-de-servidor-muito-comprido-que-nao-cabe-em-lugar-nenhum'.padEnd(100, 'x');
let srv;
let browser;
let world;

test.before(async () => {
  srv = await startServer({ args: ['--rate-limit-scale', '100'] });
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
  const owner = await register(srv.url, 'u'.repeat(32));
  const friend = await register(srv.url);
  const created = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: LONG } });
  const sid = created.body.server.id;
  const cid = created.body.channels[0].id;
  await api(srv.url, 'PATCH', `/api/servers/${sid}/channels/${cid}`, { token: owner.token, body: { name: 'c'.repeat(100), topic: 't'.repeat(500) } });
  const invite = await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} });
  await api(srv.url, 'POST', `/api/invites/${invite.body.code}/join`, { token: friend.token });
  const say = (who, content) => api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: who.token, body: { content } });
  for (let i = 1; i <= 200; i += 20) {
    await Promise.all(Array.from({ length: 20 }, (_, k) => {
      const n = i + k;
      const text = n % 7 === 0 ? `https://example.com/${'caminho/'.repeat(40)}?n=${n}` : n % 5 === 0 ? 'palavra'.repeat(60) : `mensagem ${n}`;
      return say(n % 3 ? owner : friend, text);
    }));
  }
  world = { owner, sid, cid };
});

test.after(async () => {
  if (browser) await browser.close();
  const r = await srv.stop();
  assert.equal(r.code, 0, srv.stderr);
});

// What overflows: the document's size against the window's, and where the composer is.
function measure(page) {
  return page.evaluate(() => {
    const doc = document.scrollingElement;
    const composer = document.querySelector('#composer').getBoundingClientRect();
    const list = document.querySelector('#messages');
    // Whatever is drawn past the window's right edge, even where a region clips it.
    const past = [...document.querySelectorAll('body *')].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 1 && r.right > innerWidth + 0.5 && getComputedStyle(e).visibility !== 'hidden';
    }).map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
    return {
      past,
      height: doc.scrollHeight, width: doc.scrollWidth, innerHeight, innerWidth,
      composerTop: composer.top, composerBottom: composer.bottom,
      listScrolls: list.scrollHeight > list.clientHeight,
    };
  });
}

for (const [width, height] of WIDTHS) {
  test(`${width}×${height}: the document holds still; the composer is on screen; the messages scroll`, async () => {
    // A phone is a phone: touch, nothing to hover with.
    const phone = width < 640 ? { isMobile: true, hasTouch: true } : {};
    const context = await browser.newContext({ viewport: { width, height }, ...phone });
    await context.addCookies([{ name: 'session', value: world.owner.token, url: srv.url }]);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${srv.url}/app#server=${world.sid}&channel=${world.cid}`);
    await page.waitForSelector('#live.on');
    await page.waitForSelector('.message:has-text("mensagem 199")');
    await page.waitForFunction(() => !document.querySelector('#composer').hidden);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(SHOTS, `shell-${width}-${scheme}.png`) });
      const m = await measure(page);
      assert.equal(m.height, m.innerHeight, `${scheme}: the document is as tall as the window`);
      assert.equal(m.width, m.innerWidth, `${scheme}: the document is as wide as the window`);
      assert.deepEqual(m.past, [], `${scheme}: nothing is drawn past the right edge`);
      assert.ok(m.composerTop >= 0 && m.composerBottom <= m.innerHeight, `${scheme}: the composer is on screen (${m.composerTop}–${m.composerBottom} of ${m.innerHeight})`);
      assert.ok(m.listScrolls, `${scheme}: the messages scroll inside their list`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('on a wide screen the room\'s 👥 hides the people\'s column and the room widens; the choice is kept', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'session', value: world.owner.token, url: srv.url }]);
  const page = await context.newPage();
  await page.goto(`${srv.url}/app#server=${world.sid}&channel=${world.cid}`);
  await page.waitForSelector('.message:has-text("mensagem 199")');
  const roomWidth = () => page.$eval('#room', (r) => r.getBoundingClientRect().width);
  const wide = await roomWidth();
  assert.equal(await page.getAttribute('#people-open', 'aria-pressed'), 'true');
  assert.equal(await page.isVisible('.people-col'), true);
  await page.click('#people-open');
  await page.waitForSelector('.people-col', { state: 'hidden' });
  assert.ok(await roomWidth() > wide + 200, 'the room took the column\'s place');
  assert.equal(await page.getAttribute('#people-open', 'aria-pressed'), 'false');
  await page.reload();
  await page.waitForSelector('.message:has-text("mensagem 199")');
  assert.equal(await page.isVisible('.people-col'), false, 'kept across a reload');
  await page.click('#people-open');
  await page.waitForSelector('.people-col', { state: 'visible' });
  await context.close();
});

test('on a wide screen the pins and a search\'s results are a column beside the messages, one at a time, never past the edge', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'session', value: world.owner.token, url: srv.url }]);
  const page = await context.newPage();
  await page.goto(`${srv.url}/app#server=${world.sid}&channel=${world.cid}`);
  await page.waitForSelector('.message:has-text("mensagem 199")');
  const box = (sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; });
  const before = await box('#messages');
  await page.click('#pins-open');
  await page.waitForSelector('#pins:not([hidden])');
  const list = await box('#messages');
  const pins = await box('#pins');
  assert.ok(pins.left >= list.right, `the pins are beside the messages (${pins.left} ≥ ${list.right})`);
  assert.ok(list.right - list.left > 400, `the conversation keeps a readable width (${list.right - list.left} px)`);
  assert.equal(await page.isVisible('.people-col'), false, 'the people\'s column made way');
  assert.ok(pins.bottom - pins.top > 500, 'the column runs down the room');
  assert.deepEqual((await measure(page)).past, [], 'nothing past the right edge');
  await page.screenshot({ path: path.join(SHOTS, 'shell-1280-pins.png') });
  await page.fill('#search', 'mensagem');
  await page.press('#search', 'Enter');
  await page.waitForSelector('#search-panel:not([hidden]) .pin');
  assert.equal(await page.isHidden('#pins'), true, 'a search takes the pins\' place');
  assert.ok((await box('#search-panel')).left >= (await box('#messages')).right);
  await page.screenshot({ path: path.join(SHOTS, 'shell-1280-search.png') });
  await page.click('#pins-open');
  assert.equal(await page.isHidden('#search-panel'), true, 'and the pins take the search\'s');
  await page.click('#pins-open');
  await page.waitForSelector('#pins', { state: 'hidden' });
  assert.ok(Math.abs((await box('#messages')).right - before.right) < 5, 'closed, the messages are as before');
  assert.equal(await page.isVisible('.people-col'), true, 'and the people\'s column is back');
  await context.close();
});
