// The directory's page (/explorar) as a person uses it: reached from the app's "＋", cards in the
// directory's order, a search and a tag that the address keeps, a server's preview with its
// public channel's messages, joining, which opens the server in the app; and an owner listing a
// server from its settings. Screenshots at 390 and 1280 px, light and dark, in
// tests/e2e/screenshots/directory-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, register } = require('./helpers');
const path = require('node:path');
const { sharedBrowser, openApp, shoot, openSettings, SHOTS, PHONE, DESKTOP } = require('./browser');

const srv = sharedServer({ args: ['--directory-refresh-seconds', '0'] });
const browser = sharedBrowser();
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// The directory the tests browse, made once by the first test that needs it.
let made;
const setup = () => (made ??= build());
async function build() {
  const owner = await register(srv.url);
  const servers = [];
  const listing = [
    ['Clube da Música Brasileira', 'Samba, choro, MPB e tudo o que toca no rádio da vó. Indicações toda sexta.', ['musica', 'samba', 'mpb']],
    ['Xadrez às Quintas', 'Partidas relâmpago, análise de aberturas e um torneio por mês.', ['jogos', 'xadrez']],
    ['Estudos de Cálculo', 'Listas resolvidas, dúvidas e grupos de estudo para as provas.', ['estudos', 'matematica']],
    ['Jardinagem Urbana', '', ['plantas']],
  ];
  for (const [name, description, tags] of listing) {
    const s = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name } });
    const body = { discoverable: true, description, tags, rules: '1. Respeito acima de tudo.\n2. Sem spam.' };
    if (servers.length === 0) body.iconUrl = `data:image/png;base64,${PNG}`;
    await api(srv.url, 'PATCH', `/api/servers/${s.body.server.id}`, { token: owner.token, body });
    servers.push({ sid: s.body.server.id, cid: s.body.channels[0].id, name });
  }
  for (const content of ['Bem-vindos! Apresentem-se aqui 🎶', 'Hoje tem **roda de samba** às 20h.', 'Alguém indica um disco do Cartola?']) {
    await api(srv.url, 'POST', `/api/servers/${servers[0].sid}/channels/${servers[0].cid}/messages`, { token: owner.token, body: { content } });
  }
  // Some members, so the counts read as a community's.
  for (let i = 0; i < 3; i++) {
    const p = await register(srv.url);
    await api(srv.url, 'POST', `/api/servers/${servers[0].sid}/join`, { token: p.token });
  }
  return { owner, made: servers, visitor: await register(srv.url) };
}

async function openDirectory(who, viewport = DESKTOP, query = '') {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'session', value: who.token, url: srv.url }]);
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) page.problems.push(m.text()); });
  await page.goto(`${srv.url}/explorar${query}`);
  await page.waitForSelector('.directory-card');
  return page;
}

test('the app\'s ＋ leads to the directory', async () => {
  const world = await setup();
  const page = await openApp(browser, srv.url, world.visitor);
  await page.click('#add-server-open');
  await page.waitForSelector('#explore-open', { state: 'visible' });
  await page.screenshot({ path: path.join(SHOTS, 'directory-add-menu-1280.png') });
  await page.click('#explore-open');
  await page.waitForURL(/\/explorar$/);
  await page.waitForSelector('.directory-card');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('cards in order, a search and a tag kept in the address, a preview, then joining', async () => {
  const world = await setup();
  const page = await openDirectory(world.visitor);
  const names = await page.locator('.directory-card h2').allTextContents();
  assert.equal(names[0], 'Clube da Música Brasileira', 'the one with most members first');
  assert.equal(names.length, 4);
  assert.match(await page.textContent('#count'), /4 servidores/);
  assert.match(await page.getAttribute('.directory-card img.directory-icon', 'src'), new RegExp(`^/api/servers/${world.made[0].sid}/icon\\?v=\\d+$`));
  await page.waitForFunction(() => { // the icon loads (it may still be on its way)
    const img = document.querySelector('.directory-card img.directory-icon');
    return img && img.complete && img.naturalWidth === 1;
  });
  await shoot(page, 'directory');

  await page.fill('#q', 'calculo');
  await page.press('#q', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.directory-card').length === 1);
  assert.equal(await page.textContent('.directory-card h2'), 'Estudos de Cálculo');
  assert.match(page.url(), /\?q=calculo$/);
  await page.fill('#q', 'nada-disso');
  await page.press('#q', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('.directory-card').length === 0);
  assert.match(await page.textContent('#count'), /Nenhum servidor encontrado para “nada-disso”/);
  await page.goBack();
  await page.waitForFunction(() => document.querySelectorAll('.directory-card').length === 1);
  assert.equal(await page.inputValue('#q'), 'calculo');

  await page.fill('#q', '');
  await page.press('#q', 'Enter');
  await page.click('#tags button.tag[data-tag="jogos"]');
  await page.waitForFunction(() => document.querySelectorAll('.directory-card').length === 1);
  assert.equal(await page.textContent('.directory-card h2'), 'Xadrez às Quintas');
  assert.match(page.url(), /\?tag=jogos$/);
  await page.click('#tags button.tag[data-tag="jogos"]'); // again: every tag
  await page.waitForFunction(() => document.querySelectorAll('.directory-card').length === 4);

  await page.click('.directory-card:has-text("Clube da Música") .link-cover');
  await page.waitForSelector('#preview[open] .preview-message');
  assert.deepEqual(await page.locator('.preview-message .preview-text').allTextContents(),
    ['Bem-vindos! Apresentem-se aqui 🎶', 'Hoje tem roda de samba às 20h.', 'Alguém indica um disco do Cartola?']);
  assert.equal(await page.textContent('.preview-message strong >> nth=0'), world.owner.user.username);
  assert.match(await page.textContent('#preview-counts'), /4 membros/);
  await shoot(page, 'directory-preview');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#preview[open]', { state: 'detached' });

  await page.click('.directory-card:has-text("Clube da Música") .link-cover');
  await page.waitForSelector('#preview[open] .preview-message');
  await page.click('#preview-join');
  await page.waitForURL(new RegExp(`/app#server=${world.made[0].sid}`));
  await page.waitForSelector(`#servers [data-id="${world.made[0].sid}"], #server-title:has-text("Clube da Música")`);
  assert.deepEqual(page.problems, []);
  await page.context().close();

  const again = await openDirectory(world.visitor, PHONE);
  await again.waitForSelector('.directory-card:has-text("Clube da Música") .joined');
  const width = await again.evaluate(() => document.scrollingElement.scrollWidth);
  assert.equal(width, PHONE.width, 'nothing wider than a phone');
  await again.click('.directory-card:has-text("Clube da Música") .link-cover');
  await again.waitForSelector('#preview[open] #preview-open:not([hidden])');
  assert.equal(await again.isHidden('#preview-join'), true);
  await again.context().close();
});

test('an owner lists a server from its settings, with a description and tags', async () => {
  const world = await setup();
  const owner = await register(srv.url);
  const made = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Clube do Livro' } });
  const sid = made.body.server.id;
  const page = await openApp(browser, srv.url, owner, DESKTOP, `#server=${sid}`);
  await openSettings(page, 'Servidor');
  await page.check('#discoverable');
  await page.fill('#server-description', 'Um livro por mês, conversa no último sábado.');
  await page.fill('#server-tags', 'Livros, #leitura clube-do-livro');
  await page.click('#server-form button[type=submit]');
  await page.waitForSelector('#server-done:not([hidden])');
  const s = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).body.server;
  assert.equal(s.discoverable, true);
  assert.equal(s.description, 'Um livro por mês, conversa no último sábado.');
  assert.deepEqual(s.tags, ['livros', 'leitura', 'clube-do-livro']);
  await page.locator('.directory-settings').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'directory-settings-1280.png') });
  assert.deepEqual(page.problems, []);
  await page.context().close();
  const listed = await openDirectory(world.visitor, DESKTOP, '?q=livro');
  assert.deepEqual(await listed.locator('.directory-card h2').allTextContents(), ['Clube do Livro']);
  await listed.context().close();
});

test('in English, the page speaks English', async () => {
  const world = await setup();
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  await context.addCookies([{ name: 'session', value: world.visitor.token, url: srv.url }]);
  const page = await context.newPage();
  await page.goto(`${srv.url}/explorar`);
  await page.waitForSelector('.directory-card');
  assert.equal(await page.textContent('h1'), 'Explore servers');
  assert.match(await page.textContent('.directory-card >> nth=0'), /online · \d+ members?/);
  await page.screenshot({ path: path.join(SHOTS, 'directory-1280-en.png'), fullPage: true });
  await context.close();
});

test('no WCAG 2 A/AA violation on the directory or in a preview, light and dark', async () => {
  const world = await setup();
  const AXE = require('node:fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  for (const scheme of ['light', 'dark']) {
    // The page's CSP keeps out any script it did not serve; axe is the test's, let in here only.
    const context = await browser.newContext({ viewport: DESKTOP, colorScheme: scheme, bypassCSP: true });
    await context.addCookies([{ name: 'session', value: world.visitor.token, url: srv.url }]);
    const page = await context.newPage();
    await page.goto(`${srv.url}/explorar`);
    await page.waitForSelector('.directory-card img.directory-icon');
    const check = async () => {
      await page.evaluate(AXE);
      return page.evaluate(async () => (await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'],
      })).violations.map((v) => `${v.id}: ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`));
    };
    assert.deepEqual(await check(), [], `${scheme}: the list`);
    await page.click('.directory-card:has-text("Xadrez") .link-cover');
    await page.waitForSelector('#preview[open] #preview-empty:not([hidden])');
    assert.deepEqual(await check(), [], `${scheme}: a preview`);
    await context.close();
  }
});
