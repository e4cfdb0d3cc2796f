// The pages' two languages (src/web/static/i18n*.js): the catalogues hold the same keys, every
// key a page asks for exists, and the sign-in page follows the browser's language, its errors
// worded by the page (the API's own texts stay Portuguese).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startServer, api, register, pageModule, launchChromium } = require('./helpers');

const STATIC = path.join(__dirname, '../../src/web/static');
const SHOTS = path.join(__dirname, 'screenshots');
let PT;
let EN;
test.before(async () => {
  ({ PT } = await pageModule('i18n-pt.js'));
  ({ EN } = await pageModule('i18n-en.js'));
});

test('both catalogues hold the same keys, none empty, and every key a page asks for', () => {
  assert.deepEqual(Object.keys(EN).sort(), Object.keys(PT).sort());
  for (const [k, v] of [...Object.entries(PT), ...Object.entries(EN)]) assert.ok(v.trim(), k);
  const asked = new Set();
  for (const f of fs.readdirSync(STATIC).filter((x) => /\.(html|js)$/.test(x))) {
    const text = fs.readFileSync(path.join(STATIC, f), 'utf8');
    for (const m of text.matchAll(/data-i18n="([^"]+)"/g)) asked.add(m[1]);
    for (const m of text.matchAll(/\bt\('([a-z][\w.]*)'/g)) asked.add(m[1]);
  }
  assert.ok(asked.size >= 20);
  for (const k of asked) assert.ok(k in PT, `${k} is missing`);
});

let srv;
let browser;
test.before(async () => {
  srv = await startServer();
  browser = await launchChromium();
});
test.after(async () => {
  if (browser) await browser.close();
  await srv.stop();
});

for (const [locale, words] of [
  ['en-US', { lang: 'en', title: 'Sign in · Praça', tab: 'Create account', wrong: 'Wrong username or password.', taken: 'That username is taken.' }],
  ['pt-BR', { lang: 'pt-BR', title: 'Entrar · Praça', tab: 'Criar conta', wrong: 'Usuário ou senha incorretos.', taken: 'Esse nome de usuário já existe.' }],
]) {
  test(`the sign-in page in ${locale}: its words, its <html lang>, and its errors`, async () => {
    const someone = await register(srv.url);
    const context = await browser.newContext({ locale });
    const p = await context.newPage();
    await p.goto(`${srv.url}/login`);
    await p.waitForFunction((lang) => document.documentElement.lang === lang, words.lang);
    assert.equal(await p.title(), words.title);
    assert.equal(await p.textContent('#tab-register'), words.tab);
    await p.fill('#login-username', someone.user.username);
    await p.fill('#login-password', 'nao-e-esta');
    await p.click('#login button[type=submit]');
    await p.waitForSelector(`#login-error:has-text("${words.wrong}")`);
    await p.click('#tab-register');
    await p.fill('#register-username', someone.user.username);
    await p.fill('#register-password', 'senha-secreta-1');
    await p.click('#register button[type=submit]');
    await p.waitForSelector(`#register-error:has-text("${words.taken}")`);
    await context.close();
  });
}

test('/app in English for an en-US browser: the account takes the language, every panel speaks it, and Conta switches it back', async () => {
  const owner = await register(srv.url);
  const created = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Clube' } });
  const { id: sid } = created.body.server;
  const cid = created.body.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content: 'olá' } });
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'session', value: owner.token, url: srv.url }]);
  const p = await context.newPage();
  const problems = [];
  p.on('pageerror', (e) => problems.push(e.message));
  await p.goto(`${srv.url}/app`);
  await p.waitForSelector('#live.on');
  await p.waitForSelector('#messages .message');
  assert.equal(await p.evaluate(() => document.documentElement.lang), 'en');
  const me = await api(srv.url, 'GET', '/api/users/@me', { token: owner.token });
  assert.equal(me.body.user.locale, 'en-US', 'the account took the browser language at its first visit');
  assert.equal(await p.textContent('#account-open'), 'Account');
  assert.equal(await p.getAttribute('#text', 'placeholder'), 'Message or /command');
  assert.equal(await p.textContent('#live'), 'live');
  const differs = new Set(Object.keys(PT).filter((k) => PT[k] !== EN[k] && PT[k].length > 3).map((k) => PT[k]));
  const check = async (where) => {
    const found = await p.evaluate((pt) => {
      const shown = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const box = n.parentElement;
        if (box && box.checkVisibility() && !box.closest('.content') && n.textContent.trim()) shown.push(n.textContent.trim());
      }
      for (const node of document.querySelectorAll('[aria-label], [placeholder], [title]'))
        for (const a of ['aria-label', 'placeholder', 'title']) if (node.getAttribute(a)) shown.push(node.getAttribute(a).trim());
      return [...new Set(shown.filter((s) => pt.includes(s)))];
    }, [...differs]);
    assert.deepEqual(found, [], `Portuguese on the English page (${where})`);
  };
  await check('the room');
  await p.screenshot({ path: path.join(SHOTS, 'i18n-en-room-1280.png') });
  await p.hover('#messages .message');
  await p.click('#messages .message .more');
  await p.waitForSelector('.menu');
  assert.ok(await p.isVisible('.menu-item:has-text("Reply")'));
  await check('a message menu');
  await p.screenshot({ path: path.join(SHOTS, 'i18n-en-menu-1280.png') });
  await p.keyboard.press('Escape');
  await p.click('#settings-open');
  for (const tab of await p.$$('#settings-tabs [role=tab]:not([hidden])')) {
    await tab.click();
    await p.waitForFunction((t) => t.getAttribute('aria-selected') === 'true', tab);
    await check(`settings: ${await tab.textContent()}`);
  }
  await p.screenshot({ path: path.join(SHOTS, 'i18n-en-settings-1280.png') });
  await p.click('#settings-close');
  // An API error in the page's words, not the API's Portuguese: a role name that is too long.
  await p.click('#settings-open');
  await p.click('#settings-tabs [data-sections="roles-settings"]');
  await p.evaluate(() => { document.querySelector('#role-name').removeAttribute('maxlength'); });
  await p.fill('#role-name', 'r'.repeat(101));
  await p.click('#role-form button[type=submit]');
  await p.waitForSelector('#settings-error:not([hidden])');
  assert.equal(await p.textContent('#settings-error'), 'The field “name” was not accepted.');
  await p.click('#settings-close');
  // On a phone's width, in English too, nothing passes the right edge.
  await p.setViewportSize({ width: 390, height: 844 });
  await p.waitForFunction(() => innerWidth === 390 && new Promise(requestAnimationFrame).then(() => true));
  const past = await p.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 1 && r.right > innerWidth + 0.5 && getComputedStyle(e).visibility !== 'hidden';
  }).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`));
  assert.deepEqual(past, [], 'nothing past the right edge at 390 px');
  await p.screenshot({ path: path.join(SHOTS, 'i18n-en-room-390.png') });
  await p.setViewportSize({ width: 1280, height: 800 });
  await p.click('#account-open');
  await check('account');
  await p.screenshot({ path: path.join(SHOTS, 'i18n-en-account-1280.png') });
  await p.selectOption('#locale', 'pt-BR');
  await p.waitForFunction(() => document.documentElement.lang === 'pt-BR' && document.querySelector('#live.on'));
  assert.equal(await p.textContent('#account-open'), 'Conta');
  assert.equal(await p.getAttribute('#text', 'placeholder'), 'Mensagem ou /comando');
  assert.deepEqual(problems, []);
  await context.close();
});
