// The web pages in headless Chromium: sign in, the developer portal and the consent page,
// plus the headers every page carries. Screenshots land in tests/e2e/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { chromium } = require('playwright-core');
const { startServer, api, register, uniqueName, appWithBot, install, serverWithMembers, gatewayConnect, totp, BIN } = require('./helpers');

const { P } = require('./permissions');
const SHOTS = path.join(__dirname, 'screenshots');
const REDIRECT = 'https://bot.example/callback';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
let srv;
let browser;

test.before(async () => {
  srv = await startServer({ args: ['--test-clock', '--allow-private-endpoints'] });
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--disable-dev-shm-usage'],
  });
});
test.after(async () => {
  if (browser) await browser.close();
  const r = await srv.stop();
  assert.equal(r.code, 0, srv.stderr);
});

// A page in its own cookie jar; `who` (from register) is signed in through the cookie.
// Requests to the applications' redirect host are answered locally, so landing there is observable.
async function openPage({ who, viewport = DESKTOP } = {}) {
  const context = await browser.newContext({ viewport, locale: 'pt-BR' });
  if (who) await context.addCookies([{ name: 'session', value: who.token, url: srv.url }]);
  await context.route('https://bot.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>bot.example</h1>' }));
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(m.text()); });
  page.problems = problems;
  return page;
}

async function closePage(page) {
  assert.deepEqual(page.problems, [], 'no script errors or CSP violations');
  await page.context().close();
}

function consentUrl(app, permissions, extra = {}) {
  const q = new URLSearchParams({ client_id: app.clientId, redirect_uri: REDIRECT, permissions: String(permissions), ...extra });
  return `${srv.url}/oauth2/authorize?${q}`;
}

// One screenshot light and one dark (name.png and name-dark.png).
async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(SHOTS, `${name}-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: null });
}

test('pages carry strict security headers; static files have ETags and stay in their folder', async () => {
  for (const p of ['/login', '/developers', '/oauth2/authorize?client_id=x']) {
    const r = await fetch(srv.url + p);
    assert.equal(r.status, 200, p);
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    const csp = r.headers.get('content-security-policy');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('referrer-policy'), 'same-origin');
    const html = await r.text();
    assert.doesNotMatch(html, /<script>|<script(?![^>]*src=)[^>]*>|\sstyle=|\son\w+=/, `${p}: no inline script, style or handler`);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, `${p}: no external assets`);
  }
  const root = await fetch(srv.url + '/', { redirect: 'manual' });
  assert.equal(root.status, 302);
  assert.equal(root.headers.get('location'), '/app');

  const css = await fetch(srv.url + '/static/app.css');
  assert.equal(css.status, 200);
  assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  assert.match(css.headers.get('cache-control'), /max-age=\d+/);
  const etag = css.headers.get('etag');
  assert.match(etag, /^"[0-9a-f]+"$/);
  const again = await fetch(srv.url + '/static/app.css', { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal((await again.arrayBuffer()).byteLength, 0);
  const js = await fetch(srv.url + '/static/common.js');
  assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');

  for (const p of ['/static/../src/main.c', '/static/%2e%2e/praca.db', '/static/login.html', '/static/', '/static/nope.js', '/nada']) {
    const r = await fetch(srv.url + p);
    assert.equal(r.status, 404, p);
    assert.match(r.headers.get('content-type'), /^text\/html/);
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
  }
  const post = await fetch(srv.url + '/login', { method: 'POST' });
  assert.equal(post.status, 405);
  const head = await fetch(srv.url + '/developers', { method: 'HEAD' });
  assert.equal(head.status, 200);
});

// The portal's sections are tabs; this opens one and waits for its panel.
async function tab(page, name) {
  await page.click(`#tab-${name}`);
  await page.waitForSelector(`#panel-${name}:not([hidden])`);
}

test('portal: create an account, an application and its bot in sections; confirmations guard every secret', async () => {
  const page = await openPage();
  await page.goto(srv.url + '/developers');
  await page.waitForURL(/\/login\?next=%2Fdevelopers$/);
  const username = uniqueName('dev');
  await page.click('#tab-register');
  await page.fill('#register-username', username);
  await page.fill('#register-password', 'senha-secreta-1');
  await page.click('#register button[type=submit]');
  await page.waitForURL(srv.url + '/developers');
  await page.waitForSelector('#no-apps:not([hidden])');

  await page.fill('#create-name', 'Robô do Portal');
  await page.click('#create button[type=submit]');
  await page.waitForSelector('#detail:not([hidden])');
  assert.equal(await page.textContent('#detail-name'), 'Robô do Portal');
  assert.match(await page.getAttribute('#icon-preview', 'src'), /\/static\/app-icon\.svg$/, 'a placeholder, not a broken image');
  assert.ok(await page.evaluate(() => document.querySelector('#icon-preview').naturalWidth > 0), 'the placeholder loads');
  const tabs = await page.$$eval('[role=tab]', (ts) => ts.map((t) => [t.textContent, t.getAttribute('aria-selected')]));
  assert.deepEqual(tabs, [['Geral', 'true'], ['Bot', 'false'], ['Instalação', 'false'], ['OAuth2', 'false'], ['Interações', 'false'], ['Eventos', 'false']]);
  assert.ok(await page.isHidden('#panel-bot'), 'one section at a time');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 1700, `the portal is no longer one long page (${height} px)`);
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'session').value;
  const appId = await page.textContent('#app-id');
  assert.match(appId, /^[0-9a-f-]{36}$/);

  await tab(page, 'bot');
  await page.click('#bot-create');
  await page.waitForSelector('#token-box:not([hidden])');
  const token = await page.textContent('#token');
  const me = await api(srv.url, 'GET', '/api/bot/@me', { token });
  assert.equal(me.status, 200, 'the token shown works');
  assert.equal(me.body.application.name, 'Robô do Portal');
  assert.ok(await page.isHidden('#bot-create'));
  assert.equal(await page.textContent('#bot-name'), '@robo_do_portal_bot');
  assert.equal(await page.textContent('#bot-username'), '@robo_do_portal_bot');

  // Keyboard: arrows move between the sections.
  await page.focus('#tab-bot');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#panel-geral:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-geral');

  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.setInputFiles('#icon', { name: 'icone.png', mimeType: 'image/png', buffer: png });
  await page.waitForFunction(() => document.querySelector('#icon-preview').src.startsWith('data:image/png'));
  await page.fill('#description', 'Um bot de teste');
  await page.click('#general button[type=submit]');
  await page.waitForSelector('#general-saved:not([hidden])');

  await tab(page, 'bot');
  await page.check('#intents input[value="messages.read"]');
  await page.click('#intents-form button[type=submit]');
  await page.waitForSelector('#intents-saved:not([hidden])');
  await tab(page, 'oauth2');
  await page.fill('#redirects', `${REDIRECT}\nhttps://bot.example/outro`);
  // A bot without a website of its own: one click offers the chat as where the admin lands.
  assert.equal(await page.textContent('#redirect-hint code'), `${srv.url}/app`);
  await page.click('#redirect-app');
  await page.click('#redirect-app'); // not twice
  assert.equal(await page.inputValue('#redirects'), `${REDIRECT}\nhttps://bot.example/outro\n${srv.url}/app`);
  await page.fill('#redirects', `${REDIRECT}\nhttps://bot.example/outro`);
  await page.uncheck('#public');
  await page.click('#oauth button[type=submit]');
  await page.waitForSelector('#oauth-saved:not([hidden])');

  const { body: { applications: [app] } } = await api(srv.url, 'GET', '/api/applications', { token: session });
  assert.equal(app.description, 'Um bot de teste');
  assert.equal(app.iconUrl, 'data:image/png;base64,' + png.toString('base64'));
  assert.deepEqual(app.intents, ['messages.read']);
  assert.deepEqual(app.redirectUris, [REDIRECT, 'https://bot.example/outro']);
  assert.equal(app.isPublic, false);
  assert.equal(await page.textContent('#client-id'), app.clientId);

  // A secret is generated only after a confirmation; Cancel changes nothing.
  await page.click('#client-secret-rotate');
  await page.waitForSelector('#secret-confirm:not([hidden])');
  assert.match(await page.textContent('#secret-question'), /O atual deixa de valer/);
  await page.click('#secret-no');
  assert.ok(await page.isHidden('#secret-box'));
  assert.equal((await api(srv.url, 'GET', `/api/applications/${app.id}`, { token: session })).body.application.hasClientSecret, false);
  await page.click('#client-secret-rotate');
  await page.click('#secret-yes');
  await page.waitForSelector('#secret-box:not([hidden])');
  assert.match(await page.textContent('#secret'), /^[A-Za-z0-9_-]{32,}$/);
  await page.waitForFunction(() => /foi gerado/.test(document.querySelector('#client-secret-state').textContent));

  await tab(page, 'instalacao');
  await page.check('#link-perms input[data-perm=VER_CANAL]');
  await page.check('#link-perms input[data-perm=ENVIAR_MENSAGENS]');
  await page.selectOption('#link-redirect', 'https://bot.example/outro');
  const link = new URL(await page.textContent('#link-url'));
  assert.equal(link.origin + link.pathname, srv.url + '/oauth2/authorize');
  assert.equal(link.searchParams.get('client_id'), app.clientId);
  assert.equal(link.searchParams.get('redirect_uri'), 'https://bot.example/outro');
  assert.equal(link.searchParams.get('permissions'), String(P.VER_CANAL | P.ENVIAR_MENSAGENS));
  assert.match(page.url(), new RegExp(`#app=${app.id}&tab=instalacao$`), 'the section is in the address');

  for (const section of ['geral', 'bot', 'instalacao']) {
    await tab(page, section);
    for (const [size, viewport] of [['390', PHONE], ['1280', DESKTOP]]) {
      await page.setViewportSize(viewport);
      await shot(page, `portal-${section}-${size}`);
    }
  }

  // After a reload the token is gone for good; rotating asks first, then kills the old one.
  await page.reload();
  await page.waitForSelector('#detail:not([hidden])');
  await tab(page, 'bot');
  assert.ok(await page.isHidden('#token-box'));
  assert.equal(await page.textContent('#token'), '');
  await page.click('#bot-rotate');
  await page.waitForSelector('#rotate-confirm:not([hidden])');
  await page.click('#rotate-no');
  assert.ok(await page.isHidden('#token-box'));
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token })).status, 200, 'cancel keeps the token');
  await page.click('#bot-rotate');
  await page.click('#rotate-yes');
  await page.waitForSelector('#token-box:not([hidden])');
  const rotated = await page.textContent('#token');
  assert.notEqual(rotated, token);
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token })).status, 401);
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token: rotated })).status, 200);

  // Deleting takes typing the name.
  await tab(page, 'geral');
  assert.ok(await page.isDisabled('#delete'));
  await page.fill('#delete-name', 'Robô do');
  assert.ok(await page.isDisabled('#delete'));
  await page.fill('#delete-name', 'Robô do Portal');
  assert.ok(await page.isEnabled('#delete'));
  await page.click('#delete');
  await page.waitForSelector('#no-apps:not([hidden])');
  assert.equal((await api(srv.url, 'GET', `/api/applications/${app.id}`, { token: session })).status, 404);
  await closePage(page);
});

test('portal: the event console shows what reached the bot and what was withheld, live', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Vigia', intents: ['messages.read'] });
  const { owner, sid, server } = await serverWithMembers(srv.url, 0);
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const open = server.channels[0].id;
  const hidden = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'segredo' } })).body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${hidden}/overwrites/${info.app.botUserId}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const say = (cid, content) => api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content } });

  const page = await openPage({ who: dev });
  const firstPoll = page.waitForResponse((r) => r.url().includes('/console?after='));
  await page.goto(`${srv.url}/developers#app=${info.app.id}&tab=eventos`);
  await page.waitForSelector('#panel-eventos:not([hidden])');
  await firstPoll; // the watch starts with the first poll
  await say(open, 'ninguém conectado');
  await page.waitForSelector('#console-rows tr');
  assert.match(await page.textContent('#console-rows tr'), /MESSAGE_CREATE.*Retido Bot não conectado/);

  const sockets = [];
  await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  await say(open, 'entregue');
  await say(hidden, 'escondido'); // where the bot cannot look: not listed at all
  await say(open, 'de novo');
  await page.waitForFunction(() => document.querySelectorAll('#console-rows tr').length === 3);
  const rows = await page.$$eval('#console-rows tr', (trs) => trs.map((tr) => tr.lastElementChild.textContent));
  assert.deepEqual(rows, ['Entregue', 'Entregue', 'Retido Bot não conectado'], 'newest first');
  assert.ok(!(await page.textContent('#console-rows')).includes(hidden));
  for (const [size, viewport] of [['390', PHONE], ['1280', DESKTOP]]) {
    await page.setViewportSize(viewport);
    await shot(page, `portal-eventos-${size}`);
  }
  for (const s of sockets) s.close();
  await closePage(page);
});

test('portal: an events endpoint is set, its deliveries are listed, and it pauses and resumes', async () => {
  const http = require('node:http');
  const received = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => { received.push(JSON.parse(body)); res.writeHead(received.length === 1 ? 500 : 200).end(); });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Carteiro', intents: ['messages.read'] });
  await api(srv.url, 'POST', `/api/applications/${info.app.id}/interactions/signing-secret/rotate`, { token: dev.token });
  const { owner, sid, server } = await serverWithMembers(srv.url, 0);
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const say = (content) => api(srv.url, 'POST', `/api/servers/${sid}/channels/${server.channels[0].id}/messages`, { token: owner.token, body: { content } });

  const page = await openPage({ who: dev });
  await page.goto(`${srv.url}/developers#app=${info.app.id}&tab=eventos`);
  await page.waitForSelector('#push-state:has-text("Nenhuma URL")');
  await page.fill('#push-url', `http://127.0.0.1:${receiver.address().port}/eventos`);
  await page.click('#push-save');
  await page.waitForSelector('#push-state:has-text("Ativo")');
  await say('primeira');
  await say('segunda');
  // The first try is refused (500), the next one delivers: both rows, newest first.
  await page.waitForFunction(() => document.querySelectorAll('#push-rows tr').length >= 2 &&
    document.querySelector('#push-rows tr').textContent.includes('200'), null, { timeout: 15000 });
  assert.match(await page.textContent('#push-rows tr:last-child'), /500.*HTTP 500/);
  const contents = received.filter((_, i) => i > 0).flatMap((b) => b.events.map((e) => e.data.content));
  assert.deepEqual(contents, ['primeira', 'segunda']);
  for (const [size, viewport] of [['390', PHONE], ['1280', DESKTOP]]) {
    await page.setViewportSize(viewport);
    await shot(page, `portal-push-${size}`);
  }
  await page.click('#push-pause');
  await page.waitForSelector('#push-state:has-text("Pausado")');
  await page.waitForSelector('#push-resume:not([hidden])');
  await page.click('#push-resume');
  await page.waitForSelector('#push-state:has-text("Ativo")');
  await closePage(page);
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

test('consent: sign in first, uncheck a permission, authorize, land with only the state', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Ajudante', redirect: REDIRECT });
  await api(srv.url, 'PUT', `/api/applications/${info.app.id}`, { token: dev.token, body: { description: 'Lembra o grupo das reuniões.' } });
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  const requested = P.BANIR_MEMBROS | P.VER_CANAL | P.ENVIAR_MENSAGENS | P.ADICIONAR_REACOES;
  const url = consentUrl(info.app, requested, { state: 'estado 42' });

  const page = await openPage();
  await page.goto(url);
  await page.waitForURL(/\/login\?next=/);
  await page.fill('#login-username', owner.user.username);
  await page.fill('#login-password', 'senha-secreta-1');
  await page.click('#login button[type=submit]');
  await page.waitForURL(url);
  await page.waitForSelector('#consent:not([hidden])');
  assert.equal(await page.textContent('#app-name'), 'Ajudante');
  const options = await page.$$eval('#server option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, [[sid, 'Servidor de teste']]);
  const boxes = await page.$$eval('#perms input', (is) => is.map((i) => [i.dataset.perm, i.checked]));
  assert.deepEqual(boxes, [['BANIR_MEMBROS', true], ['VER_CANAL', true], ['ENVIAR_MENSAGENS', true], ['ADICIONAR_REACOES', true]],
                   'only what was requested, pre-checked');
  const marked = await page.$$eval('#perms label', (ls) => ls.map((l) => [l.querySelector('input').dataset.perm, !!l.querySelector('.perm-danger')]));
  assert.deepEqual(marked, [['BANIR_MEMBROS', true], ['VER_CANAL', false], ['ENVIAR_MENSAGENS', false], ['ADICIONAR_REACOES', false]], 'dangerous ones are marked');
  assert.equal(await page.textContent('#me'), `@${owner.user.username}`, 'who is signed in');
  assert.ok(await page.isVisible('#switch'));
  assert.equal(await page.textContent('#app-description'), 'Lembra o grupo das reuniões.');
  assert.equal(await page.textContent('#app-bot'), 'Bot: @ajudante_bot');
  assert.equal(await page.textContent('#destination'), 'Depois, seu navegador irá para https://bot.example.');
  await page.uncheck('#perms input[data-perm=ADICIONAR_REACOES]');
  await page.uncheck('#perms input[data-perm=BANIR_MEMBROS]');

  for (const [name, viewport] of [['consent-390', PHONE], ['consent-1280', DESKTOP]]) {
    await page.setViewportSize(viewport);
    await shot(page, name);
  }

  await page.click('#authorize');
  await page.waitForSelector('#done:not([hidden])');
  assert.equal(await page.textContent('#done-text'), 'Ajudante agora faz parte de Servidor de teste.');
  assert.equal(await page.textContent('#done-perms'), 'Permissões concedidas: Ver canais, Enviar mensagens.');
  assert.equal(await page.textContent('#done-continue'), 'Continuar para https://bot.example');
  for (const [name, viewport] of [['consent-done-390', PHONE], ['consent-done-1280', DESKTOP]]) {
    await page.setViewportSize(viewport);
    await shot(page, name);
  }
  await page.waitForURL(/^https:\/\/bot\.example\//);
  assert.equal(page.url(), `${REDIRECT}?state=estado%2042`);

  const servers = await api(srv.url, 'GET', '/api/bot/servers', { token: info.botToken });
  assert.deepEqual(servers.body.servers.map((s) => [s.id, s.grantedPermissions]),
                   [[sid, P.VER_CANAL | P.ENVIAR_MENSAGENS]]);
  await closePage(page);

  // The developer sees the install in the portal and removes it there.
  const portal = await openPage({ who: dev, viewport: PHONE });
  await portal.goto(`${srv.url}/developers#app=${info.app.id}&tab=instalacao`);
  await portal.waitForSelector('#installs li');
  assert.match(await portal.textContent('#installs li'), /Servidor de teste[\s\S]*Ver canais, Enviar mensagens/);
  await portal.click('#installs li button');
  await portal.waitForSelector('#no-installs:not([hidden])');
  const after = await api(srv.url, 'GET', '/api/bot/servers', { token: info.botToken });
  assert.deepEqual(after.body.servers, []);
  await closePage(portal);
});

test('consent: Cancel returns access_denied with the state; a person with no server cannot authorize', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { redirect: `${REDIRECT}?v=1` });
  const { owner } = await serverWithMembers(srv.url, 0);
  const q = new URLSearchParams({ client_id: info.app.clientId, redirect_uri: `${REDIRECT}?v=1`, permissions: '0', state: 'xyz' });
  const page = await openPage({ who: owner });
  await page.goto(`${srv.url}/oauth2/authorize?${q}`);
  await page.waitForSelector('#consent:not([hidden])');
  assert.ok(await page.isVisible('#no-perms'));
  await page.click('#cancel');
  await page.waitForURL(/^https:\/\/bot\.example\//);
  assert.equal(page.url(), `${REDIRECT}?v=1&error=access_denied&state=xyz`);
  await closePage(page);

  const lonely = await register(srv.url);
  const page2 = await openPage({ who: lonely });
  await page2.goto(`${srv.url}/oauth2/authorize?${q}`);
  await page2.waitForSelector('#consent:not([hidden])');
  assert.ok(await page2.isVisible('#no-servers'));
  assert.ok(await page2.isDisabled('#authorize'));
  await closePage(page2);
});

test('consent: every failure is a readable page, never raw JSON', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { redirect: REDIRECT });
  const { owner } = await serverWithMembers(srv.url, 0);

  async function failure(url, who = owner) {
    const page = await openPage({ who });
    await page.goto(url);
    await page.waitForSelector('#failure:not([hidden])');
    const text = [await page.textContent('#failure-title'), await page.textContent('#failure-text')];
    assert.ok(await page.isHidden('#consent'));
    assert.doesNotMatch(await page.textContent('body'), /[{}"]/, 'no JSON on the page');
    await closePage(page);
    return text;
  }

  assert.deepEqual(await failure(consentUrl({ clientId: '0'.repeat(32) }, 0)),
                   ['Aplicação não encontrada', 'Aplicação não encontrada']);
  const badRedirect = await failure(`${srv.url}/oauth2/authorize?client_id=${info.app.clientId}&redirect_uri=https%3A%2F%2Fevil.example%2F`);
  assert.equal(badRedirect[0], 'Link de autorização inválido');
  assert.match(badRedirect[1], /^redirect_uri: /);
  const badPerms = await failure(consentUrl(info.app, 'muitas'));
  assert.match(badPerms[1], /^permissions: /);

  // Private: only its owner may install it.
  await api(srv.url, 'PUT', `/api/applications/${info.app.id}/visibility`, { token: dev.token, body: { isPublic: false } });
  assert.deepEqual(await failure(consentUrl(info.app, 0)),
                   ['Esta aplicação não pode ser instalada', 'Esta aplicação é privada: só o dono pode instalá-la']);
  await api(srv.url, 'PUT', `/api/applications/${info.app.id}/visibility`, { token: dev.token, body: { isPublic: true } });

  // Suspended by the operator.
  const other = await appWithBot(srv.url, dev, { name: 'Suspenso', redirect: REDIRECT });
  const cli = spawnSync(BIN, ['admin', 'suspend', other.app.id, '--reason', 'spam', '--data', srv.db],
                        { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' } });
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual(await failure(consentUrl(other.app, 0)),
                   ['Esta aplicação não pode ser instalada', 'Esta aplicação está suspensa']);

  // No permission: the page was opened while the person could install, then lost the right.
  const { owner: admin, sid, members: [helper] } = await serverWithMembers(srv.url, 1);
  const role = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: admin.token, body: { name: 'Admins', permissions: P.GERENCIAR_SERVIDOR | P.VER_CANAL } });
  assert.equal(role.status, 201, role.text);
  const given = await api(srv.url, 'PUT', `/api/servers/${sid}/members/${helper.user.id}/roles/${role.body.role.id}`, { token: admin.token });
  assert.equal(given.status, 200, given.text);
  const page = await openPage({ who: helper });
  await page.goto(consentUrl(info.app, P.VER_CANAL));
  await page.waitForSelector('#consent:not([hidden])');
  assert.ok(await page.isHidden('#no-servers'), 'the server where the person may install is offered');
  const taken = await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${helper.user.id}/roles/${role.body.role.id}`, { token: admin.token });
  assert.equal(taken.status, 200, taken.text);
  await page.click('#authorize');
  await page.waitForSelector('#complete-error:not([hidden])');
  assert.match(await page.textContent('#complete-error'), /^Sem permissão: é preciso GERENCIAR_SERVIDOR/);
  assert.ok(page.url().startsWith(srv.url), 'stays on the consent page');

  // Expired: ten minutes pass before Authorize.
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 11 * 60_000 } });
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${helper.user.id}/roles/${role.body.role.id}`, { token: admin.token });
  await page.click('#authorize');
  await page.waitForSelector('#failure:not([hidden])');
  assert.equal(await page.textContent('#failure-title'), 'Esta autorização expirou');
  await closePage(page);
});

test('a styled 404 page; the API reference is served as text', async () => {
  const page = await openPage();
  const r = await page.goto(`${srv.url}/nada/aqui`);
  assert.equal(r.status(), 404);
  assert.equal(await page.title(), 'Página não encontrada · Praça');
  assert.equal(await page.textContent('h1'), 'Página não encontrada');
  assert.ok(await page.evaluate(() => getComputedStyle(document.querySelector('.card')).borderRadius !== '0px'), 'styled');
  assert.equal(await page.getAttribute('a.button', 'href'), '/app', 'the 404 leads a person to the chat');
  for (const [name, viewport] of [['404-390', PHONE], ['404-1280', DESKTOP]]) {
    await page.setViewportSize(viewport);
    await shot(page, name);
  }
  await closePage(page);
  assert.equal((await fetch(`${srv.url}/static/404.html`)).status, 404, 'not as a static file');
  const doc = await fetch(`${srv.url}/docs/api.md`);
  assert.equal(doc.status, 200);
  assert.match(doc.headers.get('content-type'), /^text\/plain; charset=utf-8/);
  assert.equal(await doc.text(), fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8'));
});

test('consent: "Não é você? Sair" signs out and comes back to the same link', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { redirect: REDIRECT });
  const { owner } = await serverWithMembers(srv.url, 0);
  const url = consentUrl(info.app, P.VER_CANAL);
  const page = await openPage({ who: owner });
  await page.goto(url);
  await page.waitForSelector('#consent:not([hidden])');
  await page.click('#switch');
  await page.waitForURL(/\/login\?next=/);
  assert.equal(new URL(page.url()).searchParams.get('next'), new URL(url).pathname + new URL(url).search);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: owner.token })).status, 401, 'that session is over');
  await closePage(page);
});

test('signing out and in again lands in the chat; the portal has a way back to it', async () => {
  const who = await register(srv.url);
  const page = await openPage();
  await page.goto(`${srv.url}/login`);
  await page.fill('#login-username', who.user.username);
  await page.fill('#login-password', 'senha-secreta-1');
  await page.click('#login button[type=submit]');
  await page.waitForURL(srv.url + '/app');
  // The page wires its buttons once it knows who signed in; live once that is done.
  await page.waitForSelector('#live.on');
  await page.click('#logout');
  await page.waitForURL(/\/login$/);
  await page.fill('#login-username', who.user.username);
  await page.fill('#login-password', 'senha-secreta-1');
  await page.click('#login button[type=submit]');
  await page.waitForURL(srv.url + '/app');
  await page.goto(`${srv.url}/developers`);
  await page.click('#to-chat');
  await page.waitForURL(srv.url + '/app');
  await closePage(page);
});

test('sign in: a wrong password is a readable message; next never leaves the site', async () => {
  const who = await register(srv.url);
  const page = await openPage();
  await page.goto(`${srv.url}/login?next=%2F%2Fevil.example%2F`);
  await page.fill('#login-username', who.user.username);
  await page.fill('#login-password', 'errada-errada');
  await page.click('#login button[type=submit]');
  await page.waitForSelector('#login-error:not([hidden])');
  assert.doesNotMatch(await page.textContent('#login-error'), /[{}]/);
  await page.fill('#login-password', 'senha-secreta-1');
  await page.click('#login button[type=submit]');
  await page.waitForURL(srv.url + '/app');
  await closePage(page);
});

test('sign in: next spelled to become //host in the browser still stays on the site', async () => {
  const who = await register(srv.url);
  for (const next of ['/%5Cevil.example', '/%09/evil.example/', '/%5C%5Cevil.example', '%2F%2Fevil.example', 'https://evil.example/',
    '/.//evil.example/', '/..//evil.example/', '/%2e//evil.example/', '/a/..//evil.example/']) {
    const page = await openPage();
    await page.goto(`${srv.url}/login?next=${next}`);
    await page.fill('#login-username', who.user.username);
    await page.fill('#login-password', 'senha-secreta-1');
    await page.click('#login button[type=submit]');
    await page.waitForURL(srv.url + '/app');
    await closePage(page);
  }
  const page = await openPage(); // a path of this site is kept, query included
  await page.goto(`${srv.url}/login?next=${encodeURIComponent('/developers?tab=apps')}`);
  await page.fill('#login-username', who.user.username);
  await page.fill('#login-password', 'senha-secreta-1');
  await page.click('#login button[type=submit]');
  await page.waitForURL(srv.url + '/developers?tab=apps');
  await closePage(page);
});

test('sign in: with two-factor on, the page asks for the code and then signs in', async () => {
  const who = await register(srv.url);
  const { body: { secret } } = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: who.token });
  // The service's clock (moved by --test-clock in another test) decides which code is current.
  const { body: { nowMs } } = await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 0 } });
  const verified = await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: who.token, body: { code: totp(secret, nowMs) } });
  assert.equal(verified.status, 200);

  const page = await openPage({ viewport: PHONE });
  await page.goto(`${srv.url}/login`);
  assert.ok(await page.isHidden('#login-code-field'));
  await page.fill('#login-username', who.user.username);
  await page.fill('#login-password', 'senha-secreta-1');
  await page.click('#login button[type=submit]');
  await page.waitForSelector('#login-code-field:not([hidden])');
  assert.ok(await page.isVisible('#login-error'));
  await page.fill('#login-code', totp(secret, nowMs + 30_000));
  await page.click('#login button[type=submit]');
  await page.waitForURL(srv.url + '/app');
  await page.waitForFunction((name) => document.querySelector('#who').textContent === name, who.user.displayName || who.user.username);
  await closePage(page);
});

test('the reset page: a one-time link sets a new password, then says it was used; in English too', async () => {
  const u = await register(srv.url);
  const link = () => {
    const r = spawnSync(BIN, ['admin', 'reset-password', u.user.username, '--data', srv.db], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim().split('#')[1];
  };
  const fragment = link();
  for (const [viewport, size] of [[PHONE, '390'], [DESKTOP, '1280']]) {
    const page = await openPage({ viewport });
    await page.goto(`${srv.url}/reset#${fragment}`);
    await page.waitForSelector('#reset:not([hidden])');
    // The token leaves the address bar once the page's script has read it (the form shows before).
    await page.waitForFunction(() => location.hash === '' && !location.href.includes('token'));
    await page.screenshot({ path: path.join(SHOTS, `reset-${size}.png`) });
    await page.fill('#reset-password', 'nova-senha-1');
    await page.click('#reset button[type=submit]');
    if (size === '390') {
      await page.waitForSelector('#reset-done:not([hidden])');
      await page.screenshot({ path: path.join(SHOTS, `reset-done-${size}.png`) });
    } else {
      await page.waitForSelector('#reset-error:has-text("já foi usado ou expirou")');
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: u.user.username, password: 'nova-senha-1' } })).status, 200);
  const context = await browser.newContext({ locale: 'en-US' });
  const en = await context.newPage();
  await en.goto(`${srv.url}/reset#${link()}`);
  await en.waitForSelector('h1:has-text("Choose a new password")');
  assert.equal(await en.title(), 'New password · Praça');
  await en.fill('#reset-password', 'curta');
  await en.$eval('#reset-password', (i) => i.removeAttribute('minlength'));
  await en.click('#reset button[type=submit]');
  await en.waitForSelector('#reset-error:has-text("8 to 128")');
  await context.close();
});
