// Moving in the page: a person brings a community's export from Conta (reached from the ＋ of the
// servers too), sees what the file is, follows the import to its end and opens the server; a
// server's owner prepares its archive in the settings and downloads it. Screenshots in
// tests/e2e/screenshots/moving-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { sharedServer, api, register, serverWithMembers } = require('./helpers');
const { sharedBrowser, openApp, shoot, openSettings } = require('./browser');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = sharedBrowser();
const MATTERMOST = path.join(__dirname, 'fixtures', 'mattermost', 'export.jsonl');

test('a Mattermost export brought from Conta becomes a server the person opens', async () => {
  const me = await register(srv.url);
  const page = await openApp(browser, srv.url, me);
  await page.click('#add-server-open');
  await page.click('#import-open');
  await page.waitForSelector('#account:not([hidden]) #imports-box');
  await page.setInputFiles('#import-file', MATTERMOST);
  await page.waitForSelector('#import-kind:has-text("Exportação do Mattermost.")');
  assert.match(await page.textContent('#import-file-name'), /^export\.jsonl · \d+ KB$/);
  assert.equal(await page.inputValue('#import-format'), 'mattermost');
  assert.equal(await page.isVisible('#import-team'), true, 'two teams: the person chooses one');
  assert.equal(await page.inputValue('#import-name'), 'Clube do Livro', 'named after the first team');
  await page.selectOption('#import-team', 'outro');
  assert.equal(await page.inputValue('#import-name'), 'Outro time', 'and after the team chosen');
  await page.selectOption('#import-team', 'clube');
  await page.fill('#import-name', 'Clube MM');
  await page.selectOption('#import-team', 'outro');
  assert.equal(await page.inputValue('#import-name'), 'Clube MM', 'a name the person typed stays');
  await page.selectOption('#import-team', 'clube');
  await page.setViewportSize({ width: 390, height: 844 });
  assert.equal(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight), true, 'the panel scrolls, not the page');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(page, 'moving-import-form');
  await page.click('#import-start');
  await page.waitForSelector('li.import-job[data-status=done]', { timeout: 20000 });
  assert.match(await page.textContent('li.import-job'), /export\.jsonl[\s\S]*Pronto: \d+ mensagens/);
  await page.locator('li.import-job').scrollIntoViewIfNeeded();
  await shoot(page, 'moving-import-done');
  await page.click('li.import-job button:has-text("Abrir o servidor")');
  await page.waitForSelector('#server-title:text-is("Clube MM")');
  await page.waitForSelector('#channels button:has-text("Town Square")');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a file that cannot be read says so, in the person\'s language', async () => {
  const me = await register(srv.url);
  assert.equal((await api(srv.url, 'PATCH', '/api/users/@me', { token: me.token, body: { locale: 'en-US' } })).status, 200);
  const page = await openApp(browser, srv.url, me);
  await page.click('#account-open');
  await page.waitForSelector('#imports-title:text-is("Bring a community")');
  await page.setInputFiles('#import-file', path.join(__dirname, 'fixtures', 'slack.zip'));
  await page.waitForSelector('#import-kind:has-text("A Slack workspace export.")');
  assert.equal(await page.inputValue('#import-format'), 'slack', 'a zip is told by its first bytes');
  assert.equal(await page.inputValue('#import-name'), 'slack', 'named after the file');
  // A DiscordChatExporter folder zipped is told from Slack's by the names it holds.
  const zipped = require('node:child_process').spawnSync('python3', ['-c', `
import io, sys, zipfile
b = io.BytesIO()
with zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('export/Clube do Livro - Conversa - geral [880000000000000010].json', '{}')
    z.writestr('export/Clube do Livro - Conversa - geral [880000000000000010].json_Files/capa.png', 'x')
sys.stdout.buffer.write(b.getvalue())
`]);
  await page.fill('#import-name', '');
  await page.setInputFiles('#import-file', { name: 'export.zip', mimeType: 'application/zip', buffer: zipped.stdout });
  await page.waitForSelector('#import-kind:has-text("A Discord export\'s folder (ZIP)")');
  assert.equal(await page.inputValue('#import-format'), 'discord');
  assert.equal(await page.inputValue('#import-name'), 'Clube do Livro', "the server's name, from the files' names");
  await page.setInputFiles('#import-file', { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}\n') });
  await page.waitForSelector('#import-kind:has-text("We don\'t recognise this file")');
  await page.selectOption('#import-format', 'mattermost');
  await page.click('#import-start');
  assert.equal(await page.evaluate(() => document.querySelector('#import-name').validity.valueMissing), true, 'a server name is asked for');
  await page.fill('#import-name', 'Notes');
  await page.click('#import-start');
  await page.waitForSelector('li.import-job[data-status=failed]', { timeout: 20000 });
  assert.match(await page.textContent('li.import-job .error-text'), /^It didn't work: /);
  assert.doesNotMatch(await page.textContent('li.import-job .error-text'), /imports\//, "the server's paths are not shown");
  await page.locator('li.import-job').scrollIntoViewIfNeeded();
  await shoot(page, 'moving-import-failed');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a server's owner prepares its archive in the settings and downloads it", async () => {
  const w = await serverWithMembers(srv.url, 1);
  const page = await openApp(browser, srv.url, w.owner, undefined, `#server=${w.sid}`);
  await openSettings(page, 'Servidor');
  await page.waitForSelector('#server-archive:not([hidden])');
  await page.click('#server-archive-start');
  const link = '#server-archives li[data-status=ready] a';
  await page.waitForSelector(link, { timeout: 20000 });
  await shoot(page, 'moving-server-archive');
  const href = await page.getAttribute(link, 'href');
  assert.match(href, new RegExp(`^/api/servers/${w.sid}/archives/[0-9a-f-]+/file$`));
  const text = await page.evaluate(async (url) => (await fetch(url)).text(), href);
  assert.equal(JSON.parse(text.split('\n')[0]).format, 'praca-archive');
  await page.context().close();

  const member = await openApp(browser, srv.url, w.members[0], undefined, `#server=${w.sid}`);
  assert.equal(await member.isVisible('#server-archive'), false, 'only the owner');
  await member.context().close();
});
