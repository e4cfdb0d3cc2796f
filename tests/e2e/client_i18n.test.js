// The pages' two languages (src/web/static/i18n*.js): the catalogues hold the same keys, every
// key a page asks for exists, and the sign-in page follows the browser's language, its errors
// worded by the page (the API's own texts stay Portuguese).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { startServer, register, pageScripts, launchChromium } = require('./helpers');

const STATIC = path.join(__dirname, '../../src/web/static');
const page = pageScripts(['i18n-pt.js', 'i18n-en.js']);
const { PT, EN } = vm.runInContext('({ PT, EN })', page);

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
