// The page tests' browser: one headless Chromium per test file, a person's /app opened in it
// (with what goes wrong on the page recorded), screenshots at a phone's and a desktop's width in
// both colour schemes, and the page's own dialogs and settings reached as a person reaches them.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launchChromium } = require('./helpers');

const SHOTS = path.join(__dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

// The file's Chromium, started before its tests and closed after them.
function sharedBrowser() {
  const test = require('node:test');
  let started;
  test.before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    started = await launchChromium();
  });
  test.after(async () => { if (started) await started.close(); });
  return new Proxy({}, { get: (_, key) => (typeof started[key] === 'function' ? started[key].bind(started) : started[key]) });
}

// who's /app on base (at a room's address when `at` names one, #server=…&channel=… or #dm=…), live. page.problems lists its errors, native dialogs and console errors
// (4xx answers are the page's to handle; an image the media proxy could not fetch stays a link).
async function openApp(browser, base, who, viewport = DESKTOP, at = '') {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'session', value: who.token, url: base }]);
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(e.message));
  page.on('dialog', (d) => { page.problems.push(`native ${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text()) && !(m.location().url || '').includes('/media?url='))
      page.problems.push(m.text());
  });
  await page.goto(`${base}/app${at}`);
  await page.waitForSelector('#live.on');
  return page;
}

// Each screen at a phone's width and a desktop's, light and dark.
async function shoot(page, name) {
  const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  for (const [size, viewport] of [['390', PHONE], ['1280', DESKTOP]]) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size}.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: dark ? 'light' : 'dark' });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size}-${dark ? 'light' : 'dark'}.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  }
  await page.setViewportSize(DESKTOP);
}

// The page's own dialog (never the browser's): its question, then the button chosen, with a
// text typed first when it asks for one.
async function answer(page, button, { text, question } = {}) {
  await page.waitForSelector('dialog.ask[open]');
  if (question) assert.match(await page.textContent('dialog.ask[open]'), question);
  if (text !== undefined) await page.fill('dialog.ask[open] #ask-field', text);
  await page.click(`dialog.ask[open] button:text-is("${button}")`);
  await page.waitForSelector('dialog.ask', { state: 'detached' });
}

// The server's settings, at one of their sections (Servidor, Canais, Cargos, Membros, Convites, Emoji,
// Moderação, Bots).
async function openSettings(page, tab) {
  await page.click('#settings-open');
  await page.click(`#settings-tabs [role=tab]:text-is("${tab}")`);
  await page.waitForSelector(`#settings-tabs [role=tab][aria-selected=true]:text-is("${tab}")`);
}

// The open room takes commands: the server's list read and the composer shown (the room's
// history is in), so what is typed lands in it.
async function commandsReady(page, n) {
  await page.waitForFunction((count) => praca.chat.commands.length === count && !document.querySelector('#composer').hidden, n);
}

// A message's actions as a person reaches them: its "…" menu lists them all (the toolbar shows
// three as icons). messageAction chooses one; menuOf reads the menu's items and closes it.
async function menuOf(page, message) {
  const li = page.locator(message).first();
  await li.hover();
  await li.locator('.actions-inline button.more').click();
  await page.waitForSelector('.menu [role=menuitem]');
  const names = await page.locator('.menu [role=menuitem]').allTextContents();
  await page.keyboard.press('Escape');
  await page.waitForSelector('.menu', { state: 'detached' });
  return names;
}

async function messageAction(page, message, name) {
  const li = page.locator(message).first();
  await li.hover();
  await li.locator('.actions-inline button.more').click();
  await page.getByRole('menuitem', { name, exact: true }).click();
}

module.exports = { SHOTS, PHONE, DESKTOP, sharedBrowser, openApp, shoot, answer, openSettings, commandsReady, menuOf, messageAction };
