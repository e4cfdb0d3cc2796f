// Link previews in the page: a link sent from the composer gets its card (site, title as the
// link, description, picture through the proxy) a moment later, in the sender's page and
// another's (also when they come before the sender's own send is answered: a cached link); the author's ✕ removes it from both; a server's setting turns previews off.
// Screenshots in tests/e2e/screenshots/previews-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, shoot, openSettings } = require('./browser');
const { png } = require('./gif');

const srv = sharedServer({ args: ['--rate-limit-scale', '100', '--allow-private-endpoints'] });
const browser = sharedBrowser();

let site;
test.before(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/capa.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png(64, 32, 90));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head>
<meta property="og:title" content="Festival de inverno começa na sexta">
<meta property="og:description" content="Programação completa, horários e como chegar: tudo o que você precisa saber antes de ir.">
<meta property="og:site_name" content="Jornal da Praça"><meta property="og:image" content="/capa.png"></head></html>`);
  });
  await new Promise((ok) => site.listen(0, '127.0.0.1', ok));
});
test.after(() => site.close());

test('a link gets its card in both pages; its author removes it; a server turns previews off', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cid = w.server.channels[0].id;
  const url = `http://127.0.0.1:${site.address().port}/festival`;
  const at = `#server=${w.sid}&channel=${cid}`;
  const mine = await openApp(browser, srv.url, ana, undefined, at);
  const other = await openApp(browser, srv.url, w.owner, undefined, at);
  await mine.waitForSelector('#composer:not([hidden])');
  await mine.fill('#text', `Vamos? ${url}`);
  await mine.press('#text', 'Enter');
  for (const page of [mine, other]) {
    await page.waitForSelector('.message .link-preview .link-preview-title:text-is("Festival de inverno começa na sexta")', { timeout: 20000 });
    await page.waitForFunction(() => document.querySelector('.link-preview-image')?.naturalWidth === 64, null, { timeout: 20000 });
  }
  assert.equal(await other.getAttribute('.link-preview-title', 'href'), url);
  assert.equal(await other.textContent('.link-preview-site'), 'Jornal da Praça');
  assert.equal(await other.locator('.link-previews-remove').count(), 0, 'only its author removes it');
  await shoot(other, 'previews');
  await mine.hover('.message:has(.link-preview)');
  await mine.click('.link-previews-remove');
  for (const page of [mine, other]) await page.waitForSelector('.link-preview', { state: 'detached' });
  // The same link again: its preview is cached, so it comes at once, before the send's answer.
  await mine.fill('#text', `De novo: ${url}`);
  await mine.press('#text', 'Enter');
  for (const page of [mine, other]) await page.waitForSelector('.message:has-text("De novo") .link-preview-title', { timeout: 20000 });

  await openSettings(other, 'Servidor');
  assert.equal(await other.isChecked('#link-previews'), true);
  await other.uncheck('#link-previews');
  await other.click('#server-form button[type=submit]');
  await other.waitForSelector('#server-done:not([hidden])');
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}`, { token: w.owner.token })).body.server.linkPreviews, false);
  assert.deepEqual(mine.problems, []);
  assert.deepEqual(other.problems, []);
  await mine.context().close();
  await other.context().close();
});
