// Polls in the page: "Criar enquete" from the composer's ＋ (a question, answers added and taken
// away, how long, several choices or one), a vote by a click that another page sees live, a vote
// changed and taken back, and the author's end. Screenshots in tests/e2e/screenshots/poll-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { sharedServer, api, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, shoot, answer, PHONE } = require('./browser');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = sharedBrowser();

const counts = (page) => page.locator('.poll .poll-count').allTextContents();

test('make a poll from ＋, vote in one page and see it in another, change it, end it', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cid = w.server.channels[0].id;
  const at = `#server=${w.sid}&channel=${cid}`;
  const owner = await openApp(browser, srv.url, w.owner, undefined, at);
  await owner.waitForSelector('#composer:not([hidden])');
  await owner.click('#attach');
  await owner.getByRole('menuitem', { name: 'Criar enquete', exact: true }).click();
  await owner.waitForSelector('dialog.ask[open] #poll-question');
  await owner.fill('#poll-question', 'Onde almoçamos na sexta?');
  const answers = owner.locator('dialog.ask[open] .poll-form-answers input');
  await answers.nth(0).fill('Pizza');
  await answers.nth(1).fill('Sushi');
  await owner.click('#poll-answer-add');
  await owner.click('#poll-answer-add');
  assert.equal(await answers.count(), 4);
  await answers.nth(2).fill('Feijoada');
  await owner.click('dialog.ask[open] .poll-form-answers li:nth-child(4) button'); // the empty fourth goes
  assert.equal(await answers.count(), 3);
  await owner.selectOption('#poll-duration', '72');
  await shoot(owner, 'poll-form');
  await owner.click('dialog.ask[open] button:text-is("Publicar")');
  await owner.waitForSelector('.message .poll .poll-question:text-is("Onde almoçamos na sexta?")');
  const made = (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: ana.token })).body.messages.at(-1);
  assert.equal(made.type, 'poll');
  assert.deepEqual(made.poll.answers.map((a) => a.text), ['Pizza', 'Sushi', 'Feijoada']);
  assert.equal(made.poll.multiple, false);
  const hours = (Date.parse(made.poll.endsAt) - Date.parse(made.createdAt)) / 3600e3;
  assert.ok(Math.abs(hours - 72) < 0.01, `three days (${hours} h)`);

  const page = await openApp(browser, srv.url, ana, undefined, at);
  await page.waitForSelector('.poll .poll-answer:has-text("Sushi")');
  assert.equal(await page.textContent('.poll .poll-hint'), 'Escolha uma resposta');
  await page.click('.poll .poll-answer:has-text("Sushi")');
  await page.waitForSelector('.poll .poll-answer.mine:has-text("Sushi")');
  // The owner's page hears her vote.
  await owner.waitForFunction(() => document.querySelector('.poll .poll-answer[data-answer="2"] .poll-count')?.textContent === '1 · 100%');
  assert.match(await owner.textContent('.poll .poll-foot'), /1 voto · termina em 3 dias/);
  // A changed vote moves; the same answer again takes it back.
  await page.click('.poll .poll-answer:has-text("Feijoada")');
  await page.waitForSelector('.poll .poll-answer.mine:has-text("Feijoada")');
  assert.equal(await page.locator('.poll .poll-answer.mine').count(), 1, 'one choice');
  await owner.waitForFunction(() => document.querySelector('.poll .poll-answer[data-answer="3"] .poll-count')?.textContent === '1 · 100%');
  assert.deepEqual(await owner.evaluate(() => [...document.querySelectorAll('.poll .poll-answer.mine')].length), 0, 'her choice is not marked as the owner\'s');
  await page.setViewportSize(PHONE);
  await shoot(page, 'poll');
  await page.click('.poll .poll-answer:has-text("Feijoada")');
  await page.waitForSelector('.poll .poll-answer.mine', { state: 'detached' });
  await owner.waitForFunction(() => document.querySelector('.poll .poll-foot')?.textContent.startsWith('0 votos'));
  await page.click('.poll .poll-answer:has-text("Pizza")');
  await page.waitForSelector('.poll .poll-answer.mine:has-text("Pizza")');

  // Only the author may end it; then it shows the result and takes no vote.
  assert.equal(await page.locator('.poll .poll-end').count(), 0);
  await owner.click('.poll .poll-end');
  await answer(owner, 'Encerrar enquete', { question: /Encerrar a enquete agora\?/ });
  await owner.waitForSelector('.poll.ended .poll-hint:text-is("Enquete encerrada")');
  await page.waitForSelector('.poll.ended .poll-answer.winner:has-text("Pizza")');
  assert.equal(await page.locator('.poll .poll-answer:disabled').count(), 3);
  assert.deepEqual(await counts(page), ['1 · 100%', '0 · 0%', '0 · 0%']);
  await shoot(page, 'poll-ended');
  // A reload keeps her choice: history carries each reader's own.
  await page.reload();
  await page.waitForSelector('.poll.ended .poll-answer.mine:has-text("Pizza")');
  assert.deepEqual(owner.problems, []);
  assert.deepEqual(page.problems, []);
  await owner.context().close();
  await page.context().close();
});

test('several choices when the poll allows them; a conversation\'s ＋ picks files at once', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const [ana] = w.members;
  const cid = w.server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token,
    body: { content: 'Quando podem?', poll: { question: 'Dias da semana', multiple: true, answers: [{ text: 'Segunda', emoji: '📅' }, { text: 'Quarta' }, { text: 'Sexta' }] } } });
  const page = await openApp(browser, srv.url, ana, undefined, `#server=${w.sid}&channel=${cid}`);
  await page.waitForSelector('.poll .poll-hint:text-is("Escolha uma ou mais respostas")');
  assert.equal(await page.textContent('.poll .poll-answer[data-answer="1"] .poll-emoji'), '📅');
  await page.click('.poll .poll-answer:has-text("Segunda")');
  await page.waitForSelector('.poll .poll-answer.mine:has-text("Segunda")');
  await page.click('.poll .poll-answer:has-text("Sexta")');
  await page.waitForSelector('.poll .poll-answer.mine:has-text("Sexta")');
  assert.equal(await page.locator('.poll .poll-answer.mine').count(), 2);
  assert.match(await page.textContent('.poll .poll-foot'), /^1 voto/);
  const poll = (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: ana.token })).body.messages.at(-1).poll;
  assert.deepEqual(poll.myVotes, [1, 3]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
