// Group conversations in /app, in headless Chromium: made from the DMs list with people chosen
// and a name, talked in live by everyone in it, renamed, someone brought in, removed by the
// owner, and left. Screenshots land in tests/e2e/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, serverWithMembers, sharedServer } = require('./helpers');
const pages = require('./browser');
const { DESKTOP, shoot, answer } = pages;

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = pages.sharedBrowser();
const openApp = (who, viewport = DESKTOP) => pages.openApp(browser, srv.url, who, viewport);

test('a group: made with people chosen and a name, talked in live by all, renamed, one brought in, one removed, left', async () => {
  const { owner: ana, sid, members: [bia, caio, duda] } = await serverWithMembers(srv.url, 3);
  const names = [bia, caio, duda].map((p) => p.user.username);
  const a = await openApp(ana);
  await a.waitForSelector('#channels button.channel'); // her server: its people are whom she can choose
  void sid;
  await a.click('#group-new');
  await a.waitForSelector('dialog.ask[open] .ask-people');
  await a.fill('#ask-field', names[0]);
  assert.deepEqual(await a.$$eval('.ask-people li:not([hidden]) label', (ls) => ls.map((l) => l.textContent)), [names[0]], 'the filter finds by name');
  await a.check(`#ask-p-${bia.user.id}`);
  await a.fill('#ask-field', '');
  await a.check(`#ask-p-${caio.user.id}`);
  assert.equal(await a.textContent('dialog.ask .muted[aria-live]'), '2 de 9 escolhidas');
  await a.fill('#ask-name', 'Viagem à praia');
  await a.screenshot({ path: require('node:path').join(pages.SHOTS, 'chat-group-new-1280.png') });
  await a.click('dialog.ask button[value=yes]');
  await a.waitForSelector('#channel-title:has-text("👥 Viagem à praia")');
  await a.waitForSelector('#channels .group-person:has-text("(você)") .bot-tag:has-text("DONO")');
  assert.equal(await a.locator('#channels .group-person').count(), 3);
  // Bia has it live (DM_UPDATE), opens it and answers.
  const b = await openApp(bia);
  await b.waitForSelector('#dms button.group[title="Viagem à praia"]');
  await a.fill('#text', 'Quem leva o guarda-sol?');
  await a.press('#text', 'Enter');
  await b.click('#dms button.group');
  await b.waitForSelector('.message:has-text("Quem leva o guarda-sol?")');
  await b.fill('#text', 'Eu levo!');
  await b.press('#text', 'Enter');
  await a.waitForSelector('.message:has-text("Eu levo!")');
  // Bia renames it; Ana's page follows.
  await b.click('#channels .group-actions button:text-is("Renomear")');
  await answer(b, 'Salvar', { text: 'Praia 2027' });
  await a.waitForSelector('#channel-title:has-text("👥 Praia 2027")');
  // Bia brings Duda in.
  await b.click('#channels .group-actions button:text-is("Chamar pessoas")');
  await b.waitForSelector('dialog.ask[open] .ask-people');
  assert.equal(await b.locator(`#ask-p-${caio.user.id}`).count(), 0, 'who is in it already is not offered');
  await b.check(`#ask-p-${duda.user.id}`);
  await b.click('dialog.ask button[value=yes]');
  await a.waitForSelector(`#channels .group-person:has-text("${names[2]}")`);
  await shoot(a, 'chat-group');
  // Only the owner removes: Ana removes Caio, whose page drops the group.
  assert.equal(await b.locator('#channels .group-person button[aria-label^="Tirar"]').count(), 0, 'not the owner: no ✕');
  const c = await openApp(caio);
  await c.waitForSelector('#dms button.group');
  await a.click(`#channels .group-person:has-text("${names[1]}") button[aria-label^="Tirar"]`);
  await answer(a, 'Tirar');
  await c.waitForSelector('#dms button.group', { state: 'detached' });
  await c.waitForSelector('.toast:has-text("Você não está mais em Praia 2027")');
  await a.waitForFunction(() => document.querySelectorAll('#channels .group-person').length === 3);
  // Bia leaves: her page goes to a server, Ana's list shows who is left.
  await b.click('#channels .group-actions button:text-is("Sair do grupo")');
  await answer(b, 'Sair do grupo');
  await b.waitForSelector('#dms button.group', { state: 'detached' });
  await b.waitForSelector('#channels button.channel');
  await a.waitForFunction(() => document.querySelectorAll('#channels .group-person').length === 2);
  for (const p of [a, b, c]) {
    assert.deepEqual(p.problems, [], 'no script errors or native dialogs');
    await p.context().close();
  }
});

test('a pair\'s conversation offers a group with more people, the other already chosen', async () => {
  const { owner: ana, members: [bia] } = await serverWithMembers(srv.url, 1);
  const dm = await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: bia.user.id } });
  const a = await pages.openApp(browser, srv.url, ana, DESKTOP, `#dm=${dm.body.channel.id}`);
  await a.click('#channels button:text-is("Criar um grupo com mais pessoas")');
  await a.waitForSelector('dialog.ask[open] .ask-people');
  assert.equal(await a.isChecked(`#ask-p-${bia.user.id}`), true);
  await a.click('dialog.ask button[value=yes]');
  await a.waitForSelector('#channel-title:has-text("👥 ")');
  assert.equal((await a.textContent('#channel-title')).includes(bia.user.username), true, 'named by its people');
  assert.deepEqual(a.problems, []);
  await a.context().close();
});
