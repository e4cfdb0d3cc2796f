// Forwarding in the page: "Encaminhar" in a message's menu, a channel of the server or a
// conversation chosen, words of one's own after it; the copy shown as a quote with its author, and
// a way back to the original. Screenshots in tests/e2e/screenshots/forward-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, shoot, messageAction } = require('./browser');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = sharedBrowser();

test('forward to another channel with words of one\'s own, then to a conversation; back to the original', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const geral = w.server.channels[0].id;
  const avisos = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'avisos' } })).body.channel.id;
  for (const content of ['bom dia', 'A **reunião** de sexta mudou para as 15h, na sala 3.']) {
    await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${geral}/messages`, { token: w.owner.token, body: { content } });
  }
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: w.owner.user.id } })).body.channel;
  const page = await openApp(browser, srv.url, ana, undefined, `#server=${w.sid}&channel=${geral}`);
  const original = '.message:has-text("reunião de sexta")';
  await page.waitForSelector(original);
  await messageAction(page, original, 'Encaminhar');
  await page.waitForSelector('dialog.ask[open] #ask-field');
  const options = await page.locator('dialog.ask[open] #ask-field option').allTextContents();
  assert.ok(options.includes('# avisos') && options.includes('# geral'), options.join(', '));
  assert.ok(options.some((o) => o.startsWith('@ ')), 'her conversations too');
  await page.selectOption('dialog.ask[open] #ask-field', `s:${avisos}`);
  await page.fill('dialog.ask[open] #ask-words', 'Pessoal, atenção a isto');
  await shoot(page, 'forward-dialog');
  await page.click('dialog.ask[open] button:text-is("Encaminhar")');
  await page.waitForSelector('.toast:has-text("Encaminhada para # avisos")');
  const there = (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${avisos}/messages`, { token: w.owner.token })).body.messages;
  assert.equal(there.length, 2);
  assert.equal(there[0].forwarded.content, 'A **reunião** de sexta mudou para as 15h, na sala 3.');
  assert.equal(there[1].content, 'Pessoal, atenção a isto', 'her words after the copy');

  await page.click(`#channels button[data-id="${avisos}"]`);
  await page.waitForSelector('.message blockquote.forwarded strong:text-is("' + (w.owner.user.displayName || w.owner.user.username) + '")');
  assert.equal(await page.textContent('.message blockquote.forwarded .content strong'), 'reunião', 'its words rendered as a message\'s');
  assert.match(await page.textContent('.message blockquote.forwarded .forwarded-head'), /Encaminhada/);
  await shoot(page, 'forward');
  await page.click('.message blockquote.forwarded .forwarded-go');
  await page.waitForFunction((id) => location.hash.includes(id) || document.querySelector('#channel-title')?.textContent === '# geral', geral);
  await page.waitForSelector(`${original}`);

  // And to a conversation: the copy is in it.
  await messageAction(page, original, 'Encaminhar');
  await page.selectOption('dialog.ask[open] #ask-field', `d:${dm.id}`);
  await page.click('dialog.ask[open] button:text-is("Encaminhar")');
  await page.waitForSelector('.toast:has-text("Encaminhada para @")');
  const inDm = (await api(srv.url, 'GET', `/api/dms/${dm.id}/messages`, { token: w.owner.token })).body.messages;
  assert.equal(inDm.at(-1).forwarded.messageId, there[0].forwarded.messageId);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
