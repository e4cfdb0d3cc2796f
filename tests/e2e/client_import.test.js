// An imported server in the page: its history under the names and pictures people had
// elsewhere, its files as the messages' own, each placeholder tagged "importado" beside their
// name, in the member list and on their card.
// Screenshots in tests/e2e/screenshots/import-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { sharedServer, api, register, eventually, BIN, tempDir } = require('./helpers');
const { sharedBrowser, openApp, shoot } = require('./browser');

const srv = sharedServer({ args: ['--rate-limit-scale', '100'] });
const browser = sharedBrowser();

// The fixture as DiscordChatExporter's --media leaves it: the pictures and files beside the
// JSON, linked by relative paths (two people's pictures and the cover; the rest stay links).
function withMedia() {
  const from = path.join(__dirname, 'fixtures', 'discord'), dir = tempDir('praca-import-media-');
  fs.mkdirSync(path.join(dir, 'media'));
  const pictures = { 'Bóris Ünal': 'gps.jpg', Alice: 'gps.webp' };
  for (const name of fs.readdirSync(from)) {
    const text = fs.readFileSync(path.join(from, name), 'utf8');
    const doc = JSON.parse(text);
    for (const m of doc.messages || []) {
      const shown = m.author.nickname || m.author.name;
      if (pictures[shown]) {
        fs.copyFileSync(path.join(__dirname, 'fixtures', pictures[shown]), path.join(dir, 'media', `${m.author.id}-${pictures[shown]}`));
        m.author.avatarUrl = `media/${m.author.id}-${pictures[shown]}`;
      }
      for (const a of m.attachments || []) {
        if (a.fileName !== 'capa.png') continue;
        fs.copyFileSync(path.join(__dirname, 'fixtures', 'note.png'), path.join(dir, 'media', 'capa.png'));
        a.url = 'media/capa.png';
      }
    }
    fs.writeFileSync(path.join(dir, name), JSON.stringify(doc));
  }
  return dir;
}

test('the history of an imported server reads as it was, its placeholders tagged as imported', async () => {
  const owner = await register(srv.url);
  const r = spawnSync(BIN, ['import', 'discord', withMedia(), '--server', 'Clube do Livro', '--owner', owner.user.username, '--no-fetch', ...srv.storeArgs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  let tree;
  await eventually(async () => {
    const s = (await api(srv.url, 'GET', '/api/servers', { token: owner.token })).body.servers.find((x) => x.name === 'Clube do Livro');
    if (s) tree = (await api(srv.url, 'GET', `/api/servers/${s.id}`, { token: owner.token })).body;
    return !!s;
  }, 5000, 'the imported server');
  const geral = tree.channels.find((c) => c.name === 'geral');
  const page = await openApp(browser, srv.url, owner, undefined, `#server=${tree.server.id}&channel=${geral.id}`);
  const question = '.message:has-text("Qual é o livro do mês?")';
  await page.waitForSelector(question);
  assert.equal(await page.textContent(`${question} .head strong`), 'Bóris Ünal');
  assert.equal(await page.textContent(`${question} .imported-tag`), 'importado');
  assert.equal(await page.isVisible('.message:has-text("Bem-vindos ao clube") .pin-tag'), true);
  assert.equal(await page.locator('.message .imported-tag').count() >= 4, true, 'each author shown is tagged');
  const face = page.locator(`${question} .avatar.has-face img`);
  await face.waitFor();
  await page.waitForFunction((img) => img.naturalWidth > 0, await face.elementHandle());
  assert.equal(await face.evaluate((img) => img.naturalWidth), 64, "a person's picture from the export, its small copy");
  const cover = '.message:has-text("A capa:")';
  await page.waitForSelector(`${cover} img`);
  assert.equal(await page.textContent(`${cover} .content`), 'A capa:', 'the file is the message\'s, not a link in its text');
  await page.locator(cover).scrollIntoViewIfNeeded();
  await page.waitForFunction((img) => img.naturalWidth > 0, await page.locator(`${cover} img`).last().elementHandle());
  await shoot(page, 'import-files');
  const mine = await api(srv.url, 'POST', `/api/servers/${tree.server.id}/channels/${geral.id}/messages`, { token: owner.token, body: { content: 'Chegamos à Praça!' } });
  assert.equal(mine.status, 200);
  await page.waitForSelector('.message:has-text("Chegamos à Praça!")');
  assert.equal(await page.locator('.message:has-text("Chegamos à Praça!") .imported-tag').count(), 0, 'the owner is not a placeholder');
  await page.waitForSelector('.person:has-text("Bóris Ünal") .imported-tag');
  assert.equal(await page.textContent('.person:has-text("Bóris Ünal") .imported-tag'), 'importado');
  await shoot(page, 'import');
  await page.click(`${question} .head strong.author`);
  await page.waitForSelector('.person-about:has-text("Trazido de outro serviço")');
  await page.keyboard.press('Escape');
  // The same in English.
  assert.equal((await api(srv.url, 'PATCH', '/api/users/@me', { token: owner.token, body: { locale: 'en-US' } })).status, 200);
  await page.reload();
  await page.waitForSelector(question);
  assert.equal(await page.textContent(`${question} .imported-tag`), 'imported');
  assert.match(await page.getAttribute(`${question} .imported-tag`, 'title'), /Brought from another service/);
  await page.waitForSelector('.person:has-text("Bóris Ünal") .imported-tag');
  assert.equal(await page.textContent('.person:has-text("Bóris Ünal") .imported-tag'), 'imported');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a manager hands a placeholder over by a link, and the person who opens it takes its messages', async () => {
  const owner = await register(srv.url), ana = await register(srv.url);
  const r = spawnSync(BIN, ['import', 'discord', path.join(__dirname, 'fixtures', 'discord'), '--server', 'Clube da Ana', '--owner', owner.user.username, ...srv.storeArgs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  let sid;
  await eventually(async () => {
    const s = (await api(srv.url, 'GET', '/api/servers', { token: owner.token })).body.servers.find((x) => x.name === 'Clube da Ana');
    sid = s && s.id;
    return !!s;
  }, 5000, 'the imported server');
  const page = await openApp(browser, srv.url, owner, undefined, `#server=${sid}`);
  await page.click('#channels button:has-text("avisos")');
  const hers = '.message:has-text("Próximo encontro")';
  await page.waitForSelector(hers);
  await page.click(`${hers} .head strong.author`);
  await page.click('.menu [role=menuitem]:text-is("Código para reivindicar")');
  await page.waitForSelector('dialog.ask[open] .ask-text:has-text("/app#claim=")');
  await shoot(page, 'import-claim-code');
  const link = (await page.textContent('dialog.ask[open] .ask-text')).match(/https?:\/\/\S+#claim=[\w-]+/)[0];
  await page.click('dialog.ask[open] button:text-is("Cancelar")');
  await page.context().close();

  const hersPage = await openApp(browser, srv.url, ana, undefined, link.slice(link.indexOf('#')));
  await hersPage.waitForSelector('dialog.ask[open]');
  assert.match(await hersPage.textContent('dialog.ask[open]'), /Reivindicar Alice em Clube da Ana\?[\s\S]*As 4 mensagens de Alice/);
  await shoot(hersPage, 'import-claim');
  await hersPage.click('dialog.ask[open] button:text-is("Reivindicar")');
  await hersPage.waitForSelector('#server-title:text-is("Clube da Ana")');
  await hersPage.click('#channels button:has-text("avisos")');
  await hersPage.waitForSelector(`${hers} .head strong:text-is("${ana.user.displayName || ana.user.username}")`);
  assert.equal(await hersPage.locator(`${hers} .imported-tag`).count(), 0, 'her messages are no longer a placeholder\'s');
  assert.doesNotMatch(new URL(hersPage.url()).hash, /claim/, 'the code left the address');
  assert.deepEqual(hersPage.problems, []);
  await hersPage.context().close();
});

test('a person whose verified address an import gave a placeholder is offered it when the page opens', async () => {
  const owner = await register(srv.url), yuki = await register(srv.url);
  const file = path.join(__dirname, 'fixtures', 'mattermost', 'export.jsonl');
  const r = spawnSync(BIN, ['import', 'mattermost', file, '--server', 'Clube da Yuki', '--owner', owner.user.username, '--team', 'clube', ...srv.storeArgs], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // Her address, as verifying it would have kept it (the e-mail round trip is email.test.js's).
  const set = spawnSync('/usr/bin/python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE users SET email = ? WHERE id = ?", (sys.argv[2], sys.argv[3])); c.commit()',
    srv.storeArgs[1], 'yuki@example.com', yuki.user.id], { encoding: 'utf8' });
  assert.equal(set.status, 0, set.stderr);
  await eventually(async () => (await api(srv.url, 'GET', '/api/users/@me/imported', { token: yuki.token })).body.placeholders.length === 1, 5000, 'her placeholder');
  const page = await openApp(browser, srv.url, yuki);
  await page.waitForSelector('dialog.ask[open]');
  assert.match(await page.textContent('dialog.ask[open]'), /Reivindicar yuki em Clube da Yuki\?[\s\S]*O seu e-mail verificado é o de yuki, que veio de outro serviço com 3 mensagens/);
  await shoot(page, 'import-claim-mine');
  await page.click('dialog.ask[open] button:text-is("Reivindicar")');
  await page.waitForSelector('#server-title:text-is("Clube da Yuki")');
  await page.waitForSelector(`.message:has-text("Capítulo um") .head strong:text-is("${yuki.user.displayName || yuki.user.username}")`);
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/imported', { token: yuki.token })).body.placeholders, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
