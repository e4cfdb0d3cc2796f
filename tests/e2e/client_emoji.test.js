// A server's own emoji in the page: uploaded from the settings (the name taken from the file's),
// offered first after ":" in the composer, sent as <:nome:id> and drawn (large in a message of
// emoji only), chosen from the picker's own tab as a reaction, and, once deleted, shown by name in
// the message and in the reaction. Screenshots in tests/e2e/screenshots/emoji-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, openSettings, shoot, SHOTS, DESKTOP } = require('./browser');
const { gif, uploadEmoji } = require('./gif');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = sharedBrowser();

test('upload from the settings, write it with ":", react with it from the picker, and see it go', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const cid = w.server.channels[0].id;
  const owner = await openApp(browser, srv.url, w.owner, DESKTOP, `#server=${w.sid}&channel=${cid}`);
  await openSettings(owner, 'Emoji');
  await owner.setInputFiles('#emoji-file', { name: 'Festa Junina.gif', mimeType: 'image/gif', buffer: gif(160, 160, [[230, 120, 20], [250, 200, 40], [200, 40, 60]]) });
  assert.equal(await owner.inputValue('#emoji-name'), 'festa_junina', 'named after the file');
  await owner.click('#emoji-form button[type=submit]');
  await owner.waitForSelector('#emoji-list li code:text-is(":festa_junina:")');
  await owner.waitForSelector('#emojis-done:not([hidden])');
  assert.match(await owner.textContent('#emoji-count'), /1 de 100 emoji/);
  await uploadEmoji(srv.url, w.owner.token, w.sid, 'cafe', gif(64, 64, [[90, 60, 30]]));
  await owner.waitForSelector('#emoji-list li code:text-is(":cafe:")'); // told by SERVER_UPDATE
  await owner.locator('#emojis-settings').scrollIntoViewIfNeeded();
  await owner.screenshot({ path: path.join(SHOTS, 'emoji-settings-1280.png') });
  const emojis = (await api(srv.url, 'GET', `/api/servers/${w.sid}/emojis`, { token: w.owner.token })).body.emojis;
  const festa = emojis.find((e) => e.name === 'festa_junina');
  assert.equal(festa.animated, true);

  const page = await openApp(browser, srv.url, w.members[0], DESKTOP, `#server=${w.sid}&channel=${cid}`);
  await page.waitForFunction(() => !document.querySelector('#composer').hidden);
  await page.fill('#text', 'Olha :fes');
  await page.type('#text', 't');
  await page.waitForSelector('#mentions li button img.custom-emoji');
  assert.match(await page.textContent('#mentions li >> nth=0'), /:festa_junina:/, 'the server\'s own first');
  await page.click('#mentions li >> nth=0 >> button');
  assert.equal(await page.inputValue('#text'), `Olha <a:festa_junina:${festa.id}> `);
  await page.press('#text', 'Enter');
  await page.waitForSelector('.message .content img.custom-emoji');
  assert.equal(await page.getAttribute('.message .content img.custom-emoji', 'alt'), ':festa_junina:');

  await page.fill('#text', `<:cafe:${emojis.find((e) => e.name === 'cafe').id}> 🎉`);
  await page.press('#text', 'Enter');
  await page.waitForSelector('.message .content.jumbo img.custom-emoji');
  await page.waitForFunction(() => { // the picture loads (it may still be on its way)
    const img = document.querySelector('.message .content.jumbo img.custom-emoji');
    return img && img.complete && img.naturalWidth > 0;
  });

  // The picker's own tab.
  const first = page.locator('.message:has-text("Olha")').first();
  await first.hover();
  await first.locator('.actions-inline button', { hasText: '🙂' }).first().click();
  await page.waitForSelector('#emoji-picker[open] #emoji-tabs:not([hidden])');
  await page.click('#emoji-tab-server');
  await page.waitForSelector('#emoji-grid button.emoji.custom');
  await page.screenshot({ path: path.join(SHOTS, 'emoji-picker-1280.png') });
  await page.click(`#emoji-grid button[data-value="custom:${festa.id}"]`);
  await page.waitForSelector('.message:has-text("Olha") .reaction.mine img.custom-emoji');
  await shoot(page, 'emoji-room');
  const history = (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token })).body.messages;
  assert.deepEqual(history[0].reactions, [{ emoji: null, customEmojiId: festa.id, count: 1, userIds: [w.members[0].user.id] }]);

  // Deleted: the message and the reaction say its name.
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${w.sid}/emojis/${festa.id}`, { token: w.owner.token })).status, 200);
  await page.reload();
  await page.waitForSelector('#live.on');
  await page.waitForSelector('.message:has-text("Olha") .reaction:has-text(":festa_junina: 1")');
  await page.waitForFunction(() => [...document.querySelectorAll('.message .content')].some((c) => c.textContent.includes('Olha :festa_junina:')));
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  for (const p of [owner, page]) await p.context().close();
});
