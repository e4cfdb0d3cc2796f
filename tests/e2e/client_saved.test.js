// Salvos in the page: "Salvar para depois" in a message's menu, the 🔖 panel listing what was
// saved (also from another server), a way back to the message wherever it is, and taking one
// back. Screenshots in tests/e2e/screenshots/saved-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, shoot, messageAction } = require('./browser');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = sharedBrowser();

test('save from the menu, find it in the panel, go back to it in its server, take it back', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cid = w.server.channels[0].id;
  for (const content of ['Reunião na quinta às 10h, sala 3.', 'Link da pauta: https://example.com/pauta']) {
    await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token, body: { content } });
  }
  // Another server of hers, where she will be when she looks for it.
  const other = (await api(srv.url, 'POST', '/api/servers', { token: ana.token, body: { name: 'Outro lugar' } })).body;
  const page = await openApp(browser, srv.url, ana, undefined, `#server=${w.sid}&channel=${cid}`);
  await page.waitForSelector('.message:has-text("Reunião na quinta")');
  await messageAction(page, '.message:has-text("Reunião na quinta")', 'Salvar para depois');
  await page.waitForFunction(async () => true);
  const saved = async () => (await api(srv.url, 'GET', '/api/users/@me/saved', { token: ana.token })).body.saved;
  for (let i = 0; i < 50 && (await saved()).length === 0; i++) await new Promise((ok) => setTimeout(ok, 100));
  assert.deepEqual((await saved()).map((x) => x.message.content), ['Reunião na quinta às 10h, sala 3.']);

  await page.click(`#servers [data-id="${other.server.id}"]`);
  await page.waitForSelector('#server-title:text-is("Outro lugar")');
  await page.click('#saved-open');
  await page.waitForSelector('#saved-list li .content:has-text("Reunião na quinta")');
  assert.match(await page.textContent('#saved-list li .head'), /Servidor de teste/);
  assert.match(await page.textContent('#saved-list li .head strong'), new RegExp(w.owner.user.username), 'its author named, from a server not shown');
  await shoot(page, 'saved');
  await page.click('#saved-list li button:text-is("Ir à mensagem")');
  await page.waitForSelector('#server-title:text-is("Servidor de teste")');
  await page.waitForSelector('.message.jumped:has-text("Reunião na quinta"), .message:has-text("Reunião na quinta")');
  await page.click('#saved-open');
  await page.click('#saved-list li button:text-is("Tirar dos salvos")');
  await page.waitForSelector('#no-saved:not([hidden])');
  assert.deepEqual(await saved(), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
