// Later, in the page: "Agendar mensagem" from the composer's ＋ (the composer's text taken along),
// the 🔖 panel listing it and editing it, the message arriving when the server's clock reaches its
// time; "Lembrar-me" in a message's menu, the reminder listed, then told as a toast when due.
// Screenshots in tests/e2e/screenshots/later-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, shoot, messageAction, answer } = require('./browser');

const srv = sharedServer({ args: ['--rate-limit-scale', '100', '--test-clock'] });
const browser = sharedBrowser();
const moveClock = (ms) => api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: ms } });

// The reminder's test goes first: it moves the server's clock 21 minutes, which leaves an hour
// ahead (the schedule's default) still ahead. /lembrete sets one in one's own words.
test('"Lembrar-me" on a message: listed, then told when due, with a way to it', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cid = w.server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token, body: { content: 'Entrega do relatório na sexta' } });
  const page = await openApp(browser, srv.url, ana, undefined, `#server=${w.sid}&channel=${cid}`);
  const m = '.message:has-text("Entrega do relatório")';
  await page.waitForSelector(m);
  await messageAction(page, m, 'Lembrar-me');
  await page.waitForSelector('dialog.ask[open] #ask-field');
  assert.deepEqual(await page.locator('dialog.ask[open] #ask-field option').allTextContents(),
    ['Em 20 minutos', 'Em 1 hora', 'Em 3 horas', 'Amanhã às 9h', 'Segunda-feira às 9h']);
  await page.fill('dialog.ask[open] #ask-words', 'revisar antes');
  await page.click('dialog.ask[open] button:text-is("Criar lembrete")');
  await page.waitForSelector('.toast:has-text("Lembrete para")');
  await page.click('#saved-open');
  await page.waitForSelector('#later-reminders .later-item .content:text-is("revisar antes")');
  await moveClock(21 * 60e3);
  await page.waitForSelector('.toast:has-text("Lembrete: revisar antes")', { timeout: 10000 });
  await page.waitForSelector('#later-reminders', { state: 'detached' });
  await shoot(page, 'later-reminder');
  // In one's own words from the composer, as Slack's /remind.
  await page.fill('#text', '/lembrete 45m ligar para a Bia');
  await page.press('#text', 'Enter');
  await page.waitForSelector('#later-reminders .later-item .content:text-is("ligar para a Bia")');
  assert.equal(await page.inputValue('#text'), '');
  await page.fill('#text', '/lembrete amanhã');
  await page.press('#text', 'Enter');
  await page.waitForSelector('#send-error:has-text("Use /lembrete 20m")');
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/reminders', { token: ana.token })).body.reminders.map((r) => r.note), ['ligar para a Bia']);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('schedule from ＋ with the composer\'s text, edit it in the panel, see it sent when its time comes', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cid = w.server.channels[0].id;
  const page = await openApp(browser, srv.url, ana, undefined, `#server=${w.sid}&channel=${cid}`);
  await page.waitForSelector('#composer:not([hidden])');
  await page.fill('#text', 'Lembrem da reunião às 15h');
  await page.click('#attach');
  await page.getByRole('menuitem', { name: 'Agendar mensagem', exact: true }).click();
  await page.waitForSelector('dialog.ask[open] #later-at');
  assert.equal(await page.inputValue('#later-text'), 'Lembrem da reunião às 15h', 'the composer\'s text');
  await shoot(page, 'later-schedule');
  await page.click('dialog.ask[open] button:text-is("Agendar")');
  await page.waitForSelector('.toast:has-text("Agendada para")');
  assert.equal(await page.inputValue('#text'), '', 'taken from the composer');
  const [s] = (await api(srv.url, 'GET', '/api/users/@me/scheduled-messages', { token: ana.token })).body.scheduled;
  assert.equal(s.content, 'Lembrem da reunião às 15h');
  assert.ok(Date.parse(s.sendAt) - Date.now() >= 3600e3 - 60e3, 'an hour ahead at least');

  await page.click('#saved-open');
  await page.waitForSelector('#later-scheduled .later-item:has-text("Lembrem da reunião")');
  await page.click('#later-scheduled .later-item button:text-is("Editar")');
  await answer(page, 'Salvar', { text: 'Lembrem da reunião às 16h' });
  await page.waitForSelector('#later-scheduled .later-item .content:text-is("Lembrem da reunião às 16h")');
  await shoot(page, 'later-panel');
  await moveClock(2 * 3600e3);
  await page.waitForSelector('#messages .message:has-text("Lembrem da reunião às 16h")', { timeout: 10000 });
  await page.waitForSelector('#later-scheduled', { state: 'detached' }); // the panel follows: nothing waits
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
