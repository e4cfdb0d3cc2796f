// Categories in the page: the channel list in them (channels in none first), each folded by the
// person and kept folded after a reload; channels dragged onto a channel (placed before it, in its
// category) or onto a category's heading by whoever manages channels, and by nobody else; a
// category made, and a channel made in it, from the settings. Screenshots in
// tests/e2e/screenshots/categories-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, openSettings, shoot } = require('./browser');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = sharedBrowser();

async function world() {
  const w = await serverWithMembers(srv.url, 1);
  const make = async (body) => (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body })).body.channel;
  const info = await make({ name: 'Informações', type: 'category' });
  const games = await make({ name: 'Jogos', type: 'category' });
  const rooms = {
    avisos: await make({ name: 'avisos', parentId: info.id }),
    regras: await make({ name: 'regras', parentId: info.id }),
    xadrez: await make({ name: 'xadrez', parentId: games.id }),
    truco: await make({ name: 'truco', parentId: games.id }),
    mesa: await make({ name: 'mesa', type: 'voice', parentId: games.id }),
  };
  return { ...w, info, games, rooms, geral: w.server.channels[0] };
}

const listed = (page) => page.$$eval('#channels > li', (lis) => lis.map((li) => li.dataset.category !== undefined
  ? `[${li.textContent.replace(/[▾▸]/g, '').trim()}]` : li.querySelector('.channel').textContent.replace(/^(#|🔊|💬)\s*/u, '').trim()));

test('the list in categories, folded per person and kept; dragging by a manager', async () => {
  const w = await world();
  const page = await openApp(browser, srv.url, w.owner, undefined, `#server=${w.sid}&channel=${w.geral.id}`);
  await page.waitForSelector('#channels .channel-category .category-toggle');
  const shown = (await listed(page)).filter((x) => x !== '[Sem categoria]');
  assert.deepEqual(shown.slice(0, 8), ['geral', '[Informações]', 'avisos', 'regras', '[Jogos]', 'xadrez', 'truco', 'mesa']);
  await shoot(page, 'categories');

  await page.click('.channel-category[data-category="' + w.games.id + '"] .category-toggle');
  await page.waitForFunction(() => !document.querySelector('#channels [data-id]') || ![...document.querySelectorAll('#channels .channel')].some((b) => b.textContent.includes('xadrez')));
  assert.equal(await page.getAttribute(`.channel-category[data-category="${w.games.id}"] .category-toggle`, 'aria-expanded'), 'false');
  await page.reload();
  await page.waitForSelector('#live.on');
  await page.waitForSelector(`.channel-category[data-category="${w.games.id}"] .category-toggle[aria-expanded=false]`);
  assert.ok(!(await listed(page)).includes('xadrez'), 'still folded after a reload');
  await page.click(`.channel-category[data-category="${w.games.id}"] .category-toggle`);
  await page.waitForSelector('#channels .channel:has-text("xadrez")');

  // xadrez dragged onto avisos: it goes to Informações, before avisos.
  await page.locator('#channels li:has(.channel:has-text("xadrez"))').dragTo(page.locator('#channels li:has(.channel:has-text("avisos"))'));
  await page.waitForFunction(() => {
    const names = [...document.querySelectorAll('#channels > li')].map((li) => li.textContent);
    return names.findIndex((x) => x.includes('xadrez')) < names.findIndex((x) => x.includes('avisos'));
  });
  let channels = (await api(srv.url, 'GET', `/api/servers/${w.sid}`, { token: w.owner.token })).body.channels;
  const xadrez = channels.find((c) => c.id === w.rooms.xadrez.id);
  const avisos = channels.find((c) => c.id === w.rooms.avisos.id);
  assert.equal(xadrez.parentId, w.info.id);
  assert.ok(xadrez.position < avisos.position);
  // truco dragged onto the heading of Informações: last in it.
  await page.locator('#channels li:has(.channel:has-text("truco"))').dragTo(page.locator(`.channel-category[data-category="${w.info.id}"]`));
  await page.waitForFunction(() => {
    const names = [...document.querySelectorAll('#channels > li')].map((li) => li.textContent);
    return names.findIndex((x) => x.includes('truco')) < names.findIndex((x) => x.includes('Jogos'));
  });
  channels = (await api(srv.url, 'GET', `/api/servers/${w.sid}`, { token: w.owner.token })).body.channels;
  assert.equal(channels.find((c) => c.id === w.rooms.truco.id).parentId, w.info.id);
  assert.deepEqual(page.problems, []);
  await page.context().close();

  // A member sees the same list, and drags nothing.
  const member = await openApp(browser, srv.url, w.members[0], undefined, `#server=${w.sid}&channel=${w.geral.id}`);
  await member.waitForSelector('#channels .channel-category .category-toggle');
  assert.equal(await member.$$eval('#channels [draggable=true]', (x) => x.length), 0);
  assert.equal(await member.$$eval('#channels .loose-drop', (x) => x.length), 0);
  await member.context().close();
});

test('a category and a channel in it, made from the settings', async () => {
  const w = await serverWithMembers(srv.url, 0);
  const page = await openApp(browser, srv.url, w.owner, undefined, `#server=${w.sid}`);
  await openSettings(page, 'Canais');
  await page.fill('#channel-name', 'Estudos');
  await page.selectOption('#channel-type', 'category');
  await page.click('#channel-form button[type=submit]');
  await page.waitForSelector('#channel-parent:not([hidden]) option:text-is("Estudos")', { state: 'attached' });
  await page.fill('#channel-name', 'calculo');
  await page.selectOption('#channel-type', 'text');
  await page.selectOption('#channel-parent', { label: 'Estudos' });
  await page.click('#channel-form button[type=submit]');
  await page.waitForSelector('#channels-done:not([hidden])');
  const channels = (await api(srv.url, 'GET', `/api/servers/${w.sid}`, { token: w.owner.token })).body.channels;
  const cat = channels.find((c) => c.type === 'category');
  const calc = channels.find((c) => c.name === 'calculo');
  assert.deepEqual([cat.name, calc.parentId, calc.permissionsSynced], ['Estudos', cat.id, true]);
  await page.waitForSelector(`#channels-manage li[data-id="${calc.id}"] .badge.ok`);
  // Moved out from the settings' select.
  await page.selectOption(`#channels-manage li[data-id="${calc.id}"] select`, '');
  await page.waitForFunction((id) => !document.querySelector(`#channels-manage li[data-id="${id}"] .badge.ok`), calc.id);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}`, { token: w.owner.token })).body.channels.find((c) => c.name === 'calculo').parentId, null);
  await page.locator('#channels-settings').screenshot({ path: require('node:path').join(require('./browser').SHOTS, 'categories-settings-1280.png') });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
