// Conta and what a person does about themself in /app, in headless Chromium: the name and
// picture others see and the card that shows them, blocking, sessions, status, the password and
// two-factor sign-in, and handing a server over. Screenshots land in tests/e2e/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const jsQR = require('jsqr');
const { api, register, serverWithMembers, sharedServer, totp } = require('./helpers');
const pages = require('./browser');
const { SHOTS, PHONE, DESKTOP, shoot, answer, openSettings } = pages;

const srv = sharedServer({});
const browser = pages.sharedBrowser();
const openApp = (who, viewport = DESKTOP, base = srv.url) => pages.openApp(browser, base, who, viewport);

test('the owner transfers the server from its settings, with the password; the new owner sees the settings the old one loses', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const a = await openApp(ana);
  await openSettings(a, 'Servidor');
  await a.waitForSelector('#server-transfer:not([hidden])');
  assert.deepEqual(await a.$$eval('#transfer-to option', (o) => o.map((x) => x.value)), [bia.user.id], 'the people who could take it, not the owner');
  await a.selectOption('#transfer-to', bia.user.id);
  await a.fill('#transfer-password', 'nao-e-esta');
  await a.$eval('#server-transfer', (f) => f.scrollIntoView());
  await a.screenshot({ path: path.join(SHOTS, 'chat-transfer-form-1280.png') });
  await a.click('#server-transfer button[type=submit]');
  await answer(a, 'Transferir', { question: /Transferir .* para / });
  await a.waitForSelector('#settings-error:has-text("senha incorreta")');
  await a.fill('#transfer-password', ana.password);
  await a.click('#server-transfer button[type=submit]');
  await answer(a, 'Transferir');
  await a.waitForFunction(() => praca.chat.server && praca.chat.server.ownerId !== praca.chat.me.id);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.server.ownerId, bia.user.id);
  await a.waitForSelector('#settings-open', { state: 'hidden' }); // @everyone manages nothing
  const b = await openApp(bia);
  await openSettings(b, 'Servidor');
  await b.waitForSelector('#server-delete:not([hidden])');
  await b.waitForSelector('#server-transfer:not([hidden])');
  await b.click('#settings-tabs [role=tab]:text-is("Moderação")');
  await b.waitForSelector('#audit li:has-text("transferiu o servidor")');
  assert.match(await b.textContent('#audit li:has-text("transferiu o servidor")'), /mudou o dono de .* para /);
  await shoot(b, 'chat-transfer');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('a person sets the name others see, an about and a banner colour in Conta; another page shows the new name at once', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'bom dia' } });
  const b = await openApp(bia);
  await b.waitForSelector(`.message:has-text("bom dia") .head strong:text-is("${ana.user.username}")`);
  const a = await openApp(ana);
  await a.click('#account-open');
  await a.waitForSelector('#profile-form');
  assert.equal(await a.getAttribute('#profile-display', 'placeholder'), ana.user.username);
  await a.fill('#profile-display', 'Ana 🌿');
  await a.fill('#profile-about-text', 'Cuido da horta comunitária.');
  await a.$eval('#profile-color', (i) => { i.value = '#8a3ffc'; i.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await a.textContent('#profile-name'), 'Ana 🌿', 'the preview follows what is typed');
  await shoot(a, 'chat-profile');
  await a.click('#profile-form button[type=submit]');
  await a.waitForSelector('#profile-done:has-text("Perfil salvo")');
  assert.equal(await a.textContent('#who'), 'Ana 🌿');
  const me = (await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).body.user;
  assert.deepEqual([me.displayName, me.about, me.bannerColor], ['Ana 🌿', 'Cuido da horta comunitária.', 0x8a3ffc]);
  await b.waitForSelector('.message:has-text("bom dia") .head strong:text-is("Ana 🌿")');
  // A name that could read as another is refused, in the page's words.
  await a.fill('#profile-display', 'admin\u202e');
  await a.click('#profile-form button[type=submit]');
  await a.waitForSelector('#account-error:has-text("caracteres de controle ou de formatação")');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('blocking from the people list collapses that person\'s messages until shown; Conta lifts it', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: bia.token, body: { content: 'mensagem da bia' } });
  const a = await openApp(ana);
  await a.waitForSelector('.message:has-text("mensagem da bia")');
  await a.click(`#people li.person[data-id="${bia.user.id}"]`);
  await a.click('.menu [role=menuitem]:text-is("Bloquear")');
  await answer(a, 'Bloquear', { question: /^Bloquear /m });
  await a.waitForSelector(`.message.blocked[data-from="${bia.user.id}"]:has-text("Mensagem de alguém que você bloqueou")`);
  assert.equal(await a.locator('.message:has-text("mensagem da bia")').count(), 0, 'collapsed');
  await shoot(a, 'chat-blocked');
  await a.click('.message.blocked button:text-is("mostrar")');
  await a.waitForSelector('.message:has-text("mensagem da bia")');
  await a.click('#account-open');
  await a.waitForSelector(`#blocks li:has-text("${bia.user.username}")`);
  await a.click(`#blocks li:has-text("${bia.user.username}") button:text-is("Desbloquear")`);
  await a.waitForSelector('#no-blocks:not([hidden])');
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/blocks', { token: ana.token })).body.blocks, []);
  assert.deepEqual(a.problems, []);
  await a.context().close();
});

test('Conta lists where the person is signed in and ends a session they do not recognize', async () => {
  const ana = await register(srv.url);
  const ua = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36';
  const phone = await api(srv.url, 'POST', '/api/auth/login', { headers: { 'user-agent': ua }, body: { username: ana.user.username, password: ana.password } });
  const a = await openApp(ana);
  await a.click('#account-open');
  await a.waitForSelector('#sessions li:has-text("Chrome · Android")');
  assert.equal(await a.locator('#sessions li').count(), 2, 'the sign-up (this page) and the phone');
  assert.equal(await a.locator('#sessions li:has-text("esta sessão")').count(), 1);
  await a.$eval('#sessions', (e) => e.scrollIntoView());
  await a.screenshot({ path: path.join(SHOTS, 'chat-sessions-1280.png') });
  await a.click('#sessions li:has-text("Chrome · Android") button:text-is("Encerrar")');
  await answer(a, 'Encerrar', { question: /Encerrar a sessão de Chrome · Android/ });
  await a.waitForFunction(() => document.querySelectorAll('#sessions li').length === 1);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: phone.body.token })).status, 401);
  assert.deepEqual(a.problems, []);
  await a.context().close();
});

test('a person chooses their status from the header: do not disturb and a text, then invisible, as others see it', async () => {
  const { owner: ana, members: [bia] } = await serverWithMembers(srv.url, 1);
  const a = await openApp(ana);
  const b = await openApp(bia);
  const row = `#people li.person[data-id="${bia.user.id}"] .status`;
  await a.waitForSelector(`${row}.online`);
  await b.click('#status-open');
  await b.click('.menu [role=menuitem]:has-text("Não perturbe")');
  await b.waitForSelector('#my-status.dnd');
  await a.waitForSelector(`${row}.dnd`);
  await b.click('#status-open');
  await b.click('.menu [role=menuitem]:has-text("Definir um texto de status")');
  // A leading emoji goes apart, and the text clears itself after an hour.
  await b.waitForSelector('dialog.ask[open] #ask-words');
  await b.fill('dialog.ask[open] #ask-words', '☕ Estudando');
  await b.selectOption('dialog.ask[open] #ask-field', '1h');
  await b.click('dialog.ask[open] button:text-is("Salvar")');
  await b.waitForSelector('dialog.ask', { state: 'detached' });
  await b.waitForFunction(() => document.querySelector('#status-open').title.includes('☕ Estudando'));
  // Ana's people column shows it under Bia's name.
  await a.waitForSelector(`#people li.person[data-id="${bia.user.id}"] .person-activity:text-is("☕ Estudando")`);
  await shoot(a, 'chat-status-others');
  await shoot(b, 'chat-status');
  await b.click('#status-open');
  await b.click('.menu [role=menuitem]:has-text("Invisível")');
  await b.waitForSelector('#my-status.offline');
  await a.waitForSelector(`${row}.offline`);
  await a.waitForSelector(`#people li.person[data-id="${bia.user.id}"] .person-activity`, { state: 'detached' }); // invisible: no text
  const me = (await api(srv.url, 'GET', '/api/users/@me', { token: bia.token })).body.user.presence;
  assert.deepEqual([me.status, me.activity.type, me.activity.name, me.activity.emoji], ['invisible', 'custom', 'Estudando', '☕']);
  assert.ok(Math.abs(Date.parse(me.activity.expiresAt) - (Date.now() + 3600_000)) < 120_000, me.activity.expiresAt);
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('a picture chosen in Conta shows beside the person\'s messages and in the card others open from them', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  await api(srv.url, 'PATCH', '/api/users/@me', { token: ana.token, body: { displayName: 'Ana Luz', about: 'Fotografia e plantas.', bannerColor: 0x2f6fae } });
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'olha a minha foto nova' } });
  const b = await openApp(bia);
  await b.waitForSelector('.message:has-text("olha a minha foto nova")');
  const a = await openApp(ana);
  await a.click('#account-open');
  await a.waitForSelector('#profile-form');
  assert.ok(await a.isHidden('#profile-picture-remove'), 'nothing to take away yet');
  await a.setInputFiles('#profile-picture', path.join(__dirname, 'fixtures', 'gps.jpg'));
  await a.waitForSelector('#profile-done:has-text("Foto salva")', { state: 'attached' }); // shown for 4 s: a busy machine may look later
  await a.waitForSelector('#profile-avatar img[src$="?size=256"]');
  const me = (await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).body.user;
  assert.match(me.avatarUrl, /\/avatar\/[0-9a-f]{16}$/);
  assert.ok(await a.evaluate(() => document.querySelector('#profile-avatar img').naturalWidth === 256 || new Promise((r) => document.querySelector('#profile-avatar img').addEventListener('load', () => r(true)))));
  await shoot(a, 'chat-profile-picture');
  // Bia's page reads the members again and draws the picture beside Ana's message.
  await b.waitForSelector(`.message[data-from="${ana.user.id}"] .head .avatar img[src="${me.avatarUrl}?size=64"]`);
  // Her name opens her card: banner colour, picture, status text, about; then what Bia may do.
  const status = await api(srv.url, 'PUT', '/api/users/@me/presence', { token: ana.token, body: { status: 'online', activity: { type: 'custom', name: 'Fotografando', emoji: '📷' } } });
  assert.equal(status.status, 200, status.text);
  await b.click(`.message[data-from="${ana.user.id}"] .head .author`);
  await b.waitForSelector('.menu .person-card .person-about:text-is("Fotografia e plantas.")');
  assert.equal((await b.textContent('.menu .person-card .person-status')).trim(), '📷 Fotografando');
  assert.equal(await b.textContent('.menu .person-card strong'), 'Ana Luz');
  assert.equal(await b.$eval('.menu .person-card .profile-banner', (e) => getComputedStyle(e).backgroundColor), 'rgb(47, 111, 174)');
  assert.ok(await b.isVisible('.menu [role=menuitem]:text-is("Mandar mensagem")'));
  // Looked at as it opens at each width: a menu by the name on a desktop, a sheet on a phone.
  const pictured = () => b.waitForFunction(() => { const i = document.querySelector('.menu .person-card img'); return i && i.complete && i.naturalWidth > 0; });
  await pictured();
  await b.screenshot({ path: path.join(SHOTS, 'chat-person-card-1280.png') });
  await b.keyboard.press('Escape');
  await b.setViewportSize(PHONE);
  await b.click(`.message[data-from="${ana.user.id}"] .head .author`);
  await b.waitForSelector('.menu.sheet .person-card .person-about');
  await pictured();
  await b.screenshot({ path: path.join(SHOTS, 'chat-person-card-390.png') });
  await b.emulateMedia({ colorScheme: 'dark' });
  await b.screenshot({ path: path.join(SHOTS, 'chat-person-card-390-dark.png') });
  await b.emulateMedia({ colorScheme: 'light' });
  await b.keyboard.press('Escape');
  await b.setViewportSize(DESKTOP);
  // Taken away: initials again, on both pages.
  await a.click('#profile-picture-remove');
  await a.waitForSelector('#profile-done:has-text("Foto removida")', { state: 'attached' }); // shown for 4 s: a busy machine may look later
  assert.equal(await a.locator('#profile-avatar img').count(), 0);
  await b.waitForSelector(`.message[data-from="${ana.user.id}"] .head .avatar:not(.has-face)`);
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('a note said again within its seconds stays its full time, not the first one\'s', async () => {
  const p = await openApp(await register(srv.url));
  await p.clock.install();
  const say = (text) => p.evaluate(async (text) => (await import('/static/chat-ui.js')).flash('#profile-done', text), text);
  const shown = () => p.evaluate(() => !document.querySelector('#profile-done').hidden);
  await say('um');
  await p.clock.runFor(3000);
  await say('dois');
  await p.clock.runFor(2000);
  assert.equal(await shown(), true, 'still shown 2 s after the second note');
  await p.clock.runFor(2500);
  assert.equal(await shown(), false, 'gone 4 s after it');
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('a person deletes their account from Conta; the others then read their messages as "Conta apagada"', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: bia.token, body: { content: 'minha última mensagem' } });
  // An owner is stopped first, and told which servers stand in the way.
  const a = await openApp(ana);
  await a.click('#account-open');
  await a.fill('#erase-password', ana.password);
  await a.click('#erase-form button[type=submit]');
  await answer(a, 'Apagar', { question: /Apagar a sua conta\?/ });
  await a.waitForSelector('#erase-error:has-text("Antes, transfira ou apague os servidores de que você é dono")');
  assert.deepEqual(await a.locator('#erase-owned li').allTextContents(), ['Servidor de teste']);
  await a.locator('#erase-form').scrollIntoViewIfNeeded();
  await shoot(a, 'chat-erase-owner');
  // A member goes.
  const b = await openApp(bia);
  await b.click('#account-open');
  assert.ok(await b.isHidden('#erase-code-box'), 'no two-factor: no code asked');
  await b.fill('#erase-password', bia.password);
  await b.click('#erase-form button[type=submit]');
  await answer(b, 'Apagar');
  // The page may pass through /app on its way (its socket closes first): what counts is where it lands.
  await b.waitForSelector('#erased:has-text("Sua conta foi apagada")');
  assert.match(b.url(), /\/login/);
  await shoot(b, 'login-erased');
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: bia.token })).status, 401);
  await a.click('#account-close');
  await a.reload();
  await a.waitForSelector(`.message[data-from="${bia.user.id}"] .head .author:text-is("Conta apagada")`);
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('a member reports a message from its menu; a moderator finds it under Moderação, with the message, and resolves it', async () => {
  const { owner: olga, sid, server, members: [ana, bia] } = await serverWithMembers(srv.url, 2);
  const cid = server.channels[0].id;
  const said = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'mensagem ofensiva' } });
  const b = await openApp(bia);
  const li = b.locator(`.message[data-id="${said.body.message.id}"]`);
  await li.hover();
  await li.locator('.actions-inline button.more').click();
  await b.getByRole('menuitem', { name: 'Denunciar', exact: true }).click();
  await b.waitForSelector('dialog.ask[open] select#ask-field');
  await b.selectOption('dialog.ask[open] select#ask-field', 'harassment');
  await b.fill('dialog.ask[open] #ask-words', 'Ela repete isso todo dia.');
  await shoot(b, 'chat-report-dialog');
  await b.click('dialog.ask[open] button:text-is("Enviar a denúncia")');
  await b.waitForSelector('.toast:has-text("Denúncia enviada")');
  // The author deletes it; the moderator still reads it as it was.
  await api(srv.url, 'DELETE', `/api/servers/${sid}/channels/${cid}/messages/${said.body.message.id}`, { token: ana.token });
  const o = await openApp(olga);
  await openSettings(o, 'Moderação');
  const item = o.locator('#reports li.report-item');
  await item.waitFor();
  assert.match(await item.textContent(), new RegExp(`denunciou uma mensagem de.*Assédio ou intimidação`));
  assert.equal(await item.locator('.report-copy').textContent(), 'mensagem ofensiva');
  assert.equal(await item.locator('.report-details').textContent(), 'Ela repete isso todo dia.');
  await shoot(o, 'chat-reports');
  await item.locator('button:text-is("Resolver")').click();
  await o.waitForSelector('#no-reports:not([hidden])');
  const open = (await api(srv.url, 'GET', `/api/servers/${sid}/reports`, { token: olga.token })).body.reports;
  assert.deepEqual(open, []);
  for (const p of [o, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('Conta prepares an archive of the person\'s data and offers it to download once ready', async () => {
  const { owner: ana, sid, server } = await serverWithMembers(srv.url, 0);
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${server.channels[0].id}/messages`, { token: ana.token, body: { content: 'para o arquivo' } });
  const a = await openApp(ana);
  await a.click('#account-open');
  await a.click('#export-start');
  const link = a.locator('#exports li[data-status="ready"] a');
  await link.waitFor({ timeout: 20000 });
  assert.match(await link.textContent(), /^Baixar \(\d+ KB\)$/);
  await a.locator('#exports').scrollIntoViewIfNeeded();
  await shoot(a, 'chat-exports');
  const [download] = await Promise.all([a.waitForEvent('download'), link.click()]);
  assert.match(download.suggestedFilename(), /^praca-[0-9a-f]{8}\.tar$/);
  const bytes = require('node:fs').readFileSync(await download.path());
  assert.equal(bytes.subarray(257, 262).toString(), 'ustar', 'a tar archive');
  assert.deepEqual(a.problems, []);
  await a.context().close();
});

test('with e-mail on, Conta confirms an address by its code, and the sign-in page mails a new-password link', async () => {
  const { startSmtp } = require('./smtp');
  const { startServer } = require('./helpers');
  const smtp = await startSmtp();
  const mailing = await startServer({ args: ['--smtp-url', smtp.url, '--mail-from', 'praca@exemplo.org'] });
  try {
    const ana = await register(mailing.url);
    const a = await openApp(ana, DESKTOP, mailing.url);
    await a.click('#account-open');
    await a.waitForSelector('#email-section:not([hidden]) #email-state:text-is("Nenhum e-mail confirmado.")');
    const address = `${ana.user.username}@exemplo.org`;
    await a.fill('#email-address', address);
    await a.fill('#email-password', ana.password);
    await a.click('#email-form button[type=submit]');
    await a.waitForSelector('#email-code-form:not([hidden])');
    const code = (await smtp.nextMail(0, address)).match(/\n {4}(\d{6})\r?\n/)[1];
    await a.fill('#email-code', code);
    await a.locator('#email-section').scrollIntoViewIfNeeded();
    await shoot(a, 'chat-email');
    await a.click('#email-code-form button[type=submit]');
    await a.waitForSelector(`#email-state:text-is("Confirmado: ${address}")`);
    assert.deepEqual(a.problems, []);
    await a.context().close();

    const context = await browser.newContext({ viewport: DESKTOP });
    const p = await context.newPage();
    await p.goto(`${mailing.url}/login`);
    await p.click('#forgot-open');
    await p.fill('#forgot-email', address);
    const seen = smtp.messages().length;
    await p.click('#forgot button[type=submit]');
    await p.waitForSelector('#forgot-done:has-text("Se uma conta confirmou este e-mail")');
    await shoot(p, 'login-forgot');
    const link = (await smtp.nextMail(seen, address)).match(/(http\S+\/reset#token=[A-Za-z0-9_-]{43})/)[1];
    await p.goto(link);
    await p.waitForSelector('form');
    await context.close();
    assert.ok(link.startsWith(mailing.url), 'the link leads back to this Praça');
  } finally {
    await mailing.stop();
    smtp.stop();
  }
});

test('account: change the password, then sign out everywhere', async () => {
  const ana = await register(srv.url);
  const other = await api(srv.url, 'POST', '/api/auth/login', { body: { username: ana.user.username, password: ana.password } });
  const a = await openApp(ana, PHONE);
  await a.click('#account-open');
  await a.waitForSelector('#account:not([hidden])');
  await a.fill('#current-password', 'errada-errada');
  await a.fill('#new-password', 'uma senha nova');
  await a.click('#password-form button[type=submit]');
  await a.waitForSelector('#account-error:has-text("currentPassword: senha incorreta")');
  await a.fill('#current-password', ana.password);
  await a.fill('#new-password', 'uma senha nova');
  await a.click('#password-form button[type=submit]');
  await a.waitForSelector('#password-done:has-text("1 outra sessão foi encerrada")');
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: other.body.token })).status, 401);
  assert.equal((await api(srv.url, 'POST', '/api/auth/login', { body: { username: ana.user.username, password: 'uma senha nova' } })).status, 200);
  await shoot(a, 'chat-account');
  await a.click('#logout-everywhere');
  await a.waitForURL(/\/login/);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).status, 401);
  assert.deepEqual(a.problems, []);
  await a.context().close();
});

test('account: two-factor set up from a QR code drawn on the page, confirmed with a code', async () => {
  const ana = await register(srv.url);
  const a = await openApp(ana, PHONE);
  await a.click('#account-open');
  await a.waitForSelector('#mfa-state:has-text("Desativada")');
  await a.click('#mfa-start');
  await a.waitForSelector('#mfa-setup:not([hidden])');
  // What a phone's camera would read: the canvas's pixels, decoded.
  const image = await a.evaluate(() => {
    const c = document.querySelector('#mfa-qr');
    return { width: c.width, height: c.height, data: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data) };
  });
  const read = jsQR(Uint8ClampedArray.from(image.data), image.width, image.height);
  assert.ok(read, 'the QR code decodes');
  const url = new URL(read.data);
  assert.equal(url.protocol, 'otpauth:');
  assert.equal(url.host, 'totp');
  assert.equal(decodeURIComponent(url.pathname), `/Praça:${ana.user.username}`);
  const secret = url.searchParams.get('secret');
  assert.equal((await a.textContent('#mfa-secret')).replace(/ /g, ''), secret, 'the key shown is the one in the code');
  await shoot(a, 'chat-mfa');
  await a.fill('#mfa-code', '000000');
  await a.click('#mfa-form button[type=submit]');
  await a.waitForSelector('#account-error:not([hidden])');
  await a.fill('#mfa-code', totp(secret));
  await a.click('#mfa-form button[type=submit]');
  await a.waitForSelector('#mfa-state:text-matches("^Ativada")');
  assert.equal(await a.locator('#mfa-start:not([hidden])').count(), 0);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).body.user.mfaEnabled, true);
  const noCode = await api(srv.url, 'POST', '/api/auth/login', { body: { username: ana.user.username, password: ana.password } });
  assert.equal(noCode.status, 401);
  assert.equal(noCode.body.mfaRequired, true);
  // The recovery codes, shown this once; one of them signs in.
  await a.waitForSelector('#mfa-codes-box:not([hidden])');
  const codes = await a.$$eval('#mfa-codes code', (cs) => cs.map((c) => c.textContent));
  assert.equal(codes.length, 10);
  await shoot(a, 'chat-mfa-codes');
  const withCode = await api(srv.url, 'POST', '/api/auth/login', { body: { username: ana.user.username, password: ana.password, code: codes[9] } });
  assert.equal(withCode.status, 200);
  // A new set from the page, proven with one of the old codes.
  await a.fill('#mfa-proof', codes[0]);
  await a.click('#mfa-regenerate');
  await a.waitForFunction((old) => document.querySelector('#mfa-codes code').textContent !== old, codes[0]);
  const fresh = await a.$$eval('#mfa-codes code', (cs) => cs.map((c) => c.textContent));
  assert.equal(fresh.length, 10);
  assert.ok(!fresh.includes(codes[1]));
  // Off, after a confirmation, with a code of the new set.
  await a.fill('#mfa-proof', fresh[0]);
  await a.click('#mfa-disable');
  await answer(a, 'Desativar');
  await a.waitForSelector('#mfa-state:has-text("Desativada")');
  assert.equal((await api(srv.url, 'GET', '/api/users/@me', { token: ana.token })).body.user.mfaEnabled, false);
  assert.deepEqual(a.problems, []);
  await a.context().close();
});
