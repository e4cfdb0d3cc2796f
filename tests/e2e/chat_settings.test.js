// The server's settings in /app, in headless Chromium: roles and permissions, channels, members,
// moderation (timeouts, kicks, bans, automod, the audit log), invites, webhooks, voice channels,
// the verification level, and the other pages following each change live. Screenshots land in
// tests/e2e/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { startServer, api, register, appWithBot, install, serverWithMembers, gatewayConnect, eventually, quiet, sharedServer } = require('./helpers');
const pages = require('./browser');
const { SHOTS, PHONE, DESKTOP, shoot, answer, openSettings, commandsReady, menuOf, messageAction } = pages;

const { P } = require('./permissions');
const sockets = [];
const srv = sharedServer({}, sockets);
const browser = pages.sharedBrowser();
const openApp = (who, viewport = DESKTOP, base = srv.url) => pages.openApp(browser, base, who, viewport);

test('server settings: roles and their permissions, the name and the rules; the other page follows live', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: ana.token, body: { content: 'para reagir' } });
  const a = await openApp(ana);
  const b = await openApp(bia);
  await b.waitForSelector('.message:has-text("para reagir") button.reaction.add');
  assert.equal(await b.locator('#settings-open:not([hidden])').count(), 0, 'Bia manages nothing here');
  assert.ok(!(await menuOf(b, '.message')).includes('Fixar'));

  await openSettings(a, 'Cargos');
  await a.waitForSelector(`#roles details[data-id="${sid}"]`);
  await a.fill('#role-name', 'Moderação');
  await a.check('#role-perms input[data-perm=FIXAR_MENSAGENS]');
  await a.check('#role-hoist');
  await a.click('#role-form button[type=submit]');
  await a.waitForSelector('#roles details:has-text("Moderação")');
  const roles = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.roles;
  const mod = roles.find((r) => r.name === 'Moderação');
  assert.equal(mod.permissions, 4096, 'FIXAR_MENSAGENS only');
  assert.equal(mod.hoist, true, 'shown apart in the people column');

  // @everyone loses reactions: Bia's page drops its "+ Reagir" without reloading.
  const everyone = `#roles details[data-id="${sid}"]`;
  await a.click(`${everyone} summary`);
  await a.uncheck(`${everyone} input[data-perm=ADICIONAR_REACOES]`);
  await a.click(`${everyone} button:text-is("Salvar")`);
  await a.waitForSelector('#roles-done:has-text("Cargo salvo.")');
  await b.waitForSelector('.message:has-text("para reagir") button.reaction.add', { state: 'detached' });

  await a.click('#settings-tabs [role=tab]:text-is("Servidor")');
  await a.fill('#server-rename', 'Praça da Bia');
  await a.check('#requires-rules');
  await a.fill('#rules-edit', 'Seja gentil.');
  await a.click('#server-form button[type=submit]');
  await a.waitForSelector('#server-done:not([hidden])');
  await b.waitForSelector('#server-title:has-text("Praça da Bia")');
  const saved = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.server;
  assert.deepEqual([saved.requiresRulesAcceptance, saved.rules], [true, 'Seja gentil.']);
  await shoot(a, 'chat-roles');
  await a.click('#settings-close');

  // Given the new role, Bia may pin: the button appears on her page; Ana's people column lists
  // her under the role, shown apart.
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${bia.user.id}/roles/${mod.id}`, { token: ana.token });
  await eventually(async () => (await menuOf(b, '.message:has-text("para reagir")')).includes('Fixar'), 5000, 'Fixar offered');
  await a.waitForSelector('#people li.people-group:text-is("Moderação — 1") + li.person');
  assert.equal(await a.getAttribute('#people li.people-group:text-is("Moderação — 1") + li.person', 'data-id'), bia.user.id);
  await messageAction(b, '.message:has-text("para reagir")', 'Fixar');
  await a.waitForSelector('.message:has-text("para reagir") .pin-tag');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
});

test('settings in sections: channels renamed, made private and deleted; roles coloured and ordered; a nickname, a ban and an unban; the icon; the server deleted', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const extra = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'rascunho' } })).body.channel.id;
  const a = await openApp(ana);
  const b = await openApp(bia);
  await b.waitForSelector(`#channels button[data-id="${extra}"]`);
  await openSettings(a, 'Canais');
  assert.deepEqual(await a.$$eval('#settings-tabs [role=tab]:not([hidden])', (t) => t.map((x) => x.textContent)),
    ['Servidor', 'Canais', 'Cargos', 'Membros', 'Convites', 'Emoji', 'Moderação', 'Bots'], 'the owner sees every section');
  assert.equal(await a.isHidden('#roles-settings'), true, 'one section at a time');
  // Rename, private, delete.
  const row = (cid) => `#channels-manage li[data-id="${cid}"]`;
  await a.fill(`${row(geral)} input[type=text]`, 'praça');
  await a.click(`${row(geral)} button:has-text("Renomear")`);
  await b.waitForSelector(`#channels button[data-id="${geral}"]:has-text("praça")`);
  await a.check(`${row(extra)} input[data-private]`);
  await a.waitForSelector('#channels-done:has-text("agora é privado")');
  await b.waitForSelector(`#channels button[data-id="${extra}"]`, { state: 'detached' });
  await shoot(a, 'chat-settings-channels');
  await a.uncheck(`${row(extra)} input[data-private]`);
  await b.waitForSelector(`#channels button[data-id="${extra}"]`);
  await a.click(`${row(extra)} button:has-text("Apagar")`);
  await answer(a, 'Apagar');
  await b.waitForSelector(`#channels button[data-id="${extra}"]`, { state: 'detached' });
  // Roles: a colour, and an order.
  for (const name of ['Alto', 'Baixo']) await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: ana.token, body: { name } });
  // The page hears of them (SERVER_UPDATE) and reads its server again before the tab is opened.
  await a.waitForFunction(() => praca.chat.roles.some((r) => r.name === 'Baixo'));
  await a.click('#settings-tabs [role=tab]:text-is("Cargos")');
  const role = (name) => `#roles details:has(summary:has-text("${name}"))`;
  await a.waitForSelector(role('Baixo'));
  const order = () => a.$$eval('#roles details summary strong', (s) => s.map((x) => x.textContent));
  assert.deepEqual(await order(), ['Alto', 'Baixo', '@everyone'], 'a new role goes just above @everyone');
  await a.click(`${role('Baixo')} summary`);
  assert.equal(await a.isDisabled(`${role('Baixo')} button:has-text("↓ Descer")`), true, 'nothing below it but @everyone');
  await a.click(`${role('Baixo')} button:has-text("↑ Subir")`);
  await a.waitForSelector('#roles-done:has-text("Ordem salva.")');
  assert.deepEqual(await order(), ['Baixo', 'Alto', '@everyone']);
  await a.click(`${role('Alto')} summary`);
  await a.fill(`${role('Alto')} input[type=color]`, '#e91e63');
  await a.click(`${role('Alto')} button:text-is("Salvar")`);
  await a.waitForSelector(`${role('Alto')} summary .role-dot`);
  const saved = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.roles.find((r) => r.name === 'Alto');
  assert.equal(saved.color, 0xe91e63);
  await shoot(a, 'chat-settings-roles');
  // Members: a nickname, then a ban; Moderação lists the ban and lifts it.
  await a.click('#settings-tabs [role=tab]:text-is("Membros")');
  const member = `#members-list li[data-id="${bia.user.id}"]`;
  await a.click(`${member} button:has-text("Apelido")`);
  await answer(a, 'Salvar', { text: 'Bia da Praça' });
  await a.waitForSelector(`${member} strong:text-is("Bia da Praça")`);
  await a.click(`${member} button:has-text("Banir")`);
  await answer(a, 'Banir', { text: 'spam' });
  await a.waitForSelector(member, { state: 'detached' });
  await a.click('#settings-tabs [role=tab]:text-is("Moderação")');
  await a.waitForSelector(`#bans li[data-id="${bia.user.id}"]:has-text("motivo: spam")`);
  await shoot(a, 'chat-settings-bans');
  await a.click(`#bans li[data-id="${bia.user.id}"] button:has-text("Desbanir")`);
  await a.waitForSelector('#no-bans:not([hidden])');
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/bans`, { token: ana.token })).body.bans.length, 0);
  // The icon, from a file.
  await a.click('#settings-tabs [role=tab]:text-is("Servidor")');
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await a.setInputFiles('#server-icon', { name: 'icone.png', mimeType: 'image/png', buffer: png });
  await a.waitForSelector('#server-icon-preview:not([hidden])');
  assert.match((await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.server.iconUrl, /^data:image\/png;base64,/);
  await shoot(a, 'chat-settings-server');
  // Deleting asks for the name first.
  await a.fill('#server-delete-name', 'outro nome');
  await a.click('#server-delete button[type=submit]');
  await a.waitForSelector('#settings-error:has-text("não é o do servidor")');
  await a.fill('#server-delete-name', server.server.name);
  await a.click('#server-delete button[type=submit]');
  await a.waitForURL(`${srv.url}/app`);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).status, 404);
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('voice channels show who is in them, live; a person joins and leaves from the page', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const ch = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'Sala de voz', type: 'voice' } });
  assert.equal(ch.status, 201, ch.text);
  const vcid = ch.body.channel.id;
  // Bia is in the channel before Ana opens the page: the list is read with the server.
  const biaSocket = await gatewayConnect(srv.url, { auth: { token: bia.token } }, sockets);
  assert.equal((await biaSocket.timeout(3000).emitWithAck('voice:join', { channelId: vcid })).ok, true);
  const a = await openApp(ana);
  const room = `.voice[data-id="${vcid}"]`;
  await a.waitForSelector(`${room} .voice-people li:has-text("${bia.user.username}")`);
  await a.click(`${room} button:has-text("Entrar")`);
  await a.waitForSelector(`${room} .voice-people li:has-text("${ana.user.username}")`);
  await a.waitForSelector(`${room} button:has-text("Sair")`);
  const listed = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${vcid}/voice-members`, { token: bia.token });
  assert.deepEqual(listed.body.members.map((m) => m.userId), [bia.user.id, ana.user.id]);
  await shoot(a, 'chat-voice');
  // Bia leaves from her own connection: Ana's page follows.
  assert.equal((await biaSocket.timeout(3000).emitWithAck('voice:leave', {})).ok, true);
  await a.waitForSelector(`${room} .voice-people li:has-text("${bia.user.username}")`, { state: 'detached' });
  await a.click(`${room} button:has-text("Sair")`);
  await a.waitForSelector(`${room} button:has-text("Entrar")`);
  assert.deepEqual((await api(srv.url, 'GET', `/api/servers/${sid}/channels/${vcid}/voice-members`, { token: ana.token })).body.members, []);
  // The route: a text channel is refused, a bot is sent to its own route.
  const text = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${(await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.channels.find((c) => c.type === 'text').id}/voice-members`, { token: ana.token });
  assert.equal(text.status, 400);
  assert.equal(text.body.error, 'cid: não é um canal de voz');
  assert.deepEqual(a.problems, [], 'no script errors or CSP violations');
  await a.context().close();
});

test('a channel made in the settings shows on the other page; a member leaves the server from the page', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const a = await openApp(ana);
  const b = await openApp(bia);
  await b.waitForSelector('#server-leave:not([hidden])');
  assert.equal(await a.locator('#server-leave:not([hidden])').count(), 0, 'the owner deletes instead');
  await openSettings(a, 'Canais');
  await a.waitForSelector('#channels-settings:not([hidden])');
  await a.fill('#channel-name', 'Sala nova');
  await a.selectOption('#channel-type', 'voice');
  await a.click('#channel-form button[type=submit]');
  await a.waitForSelector('#channels-done:has-text("Canal Sala nova criado.")');
  await b.waitForSelector('.voice:has-text("Sala nova")');
  await shoot(a, 'chat-channels');
  await a.fill('#channel-name', 'x'.repeat(101));
  await a.evaluate(() => document.querySelector('#channel-name').removeAttribute('maxlength'));
  await a.fill('#channel-name', 'x'.repeat(101));
  await a.click('#channel-form button[type=submit]');
  await a.waitForSelector('#settings-error:not([hidden])');
  await b.click('#server-leave');
  await answer(b, 'Sair');
  await b.waitForSelector('#live.on');
  await b.waitForSelector('#server-title:has-text("Escolha um servidor")');
  assert.equal(await b.locator(`#servers button[data-id="${sid}"]`).count(), 0);
  const members = (await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: ana.token })).body.members;
  assert.ok(!members.some((m) => m.userId === bia.user.id), 'Bia left');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
});

test('the verification level is told before one speaks: the wait for new accounts and members, then two-factor', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const level = (verificationLevel) => api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: ana.token, body: { verificationLevel } });
  assert.equal((await level(1)).status, 200);
  const b = await openApp(bia);
  await b.waitForSelector('#verification-hold:has-text("contas novas esperem")');
  await b.fill('#text', 'cedo demais');
  await b.click('#composer button[type=submit]');
  await b.waitForSelector('#send-error:has-text("O nível de verificação do servidor impede o envio por enquanto")');
  assert.equal((await level(2)).status, 200);
  await b.waitForSelector('#verification-hold:has-text("contas e membros novos")');
  await shoot(b, 'chat-verification');
  assert.equal((await level(0)).status, 200);
  await b.waitForSelector('#verification-hold', { state: 'hidden' });
  assert.deepEqual(b.problems, []);
  await b.context().close();
  // Eleven minutes on, in the page's clock: the waits are over, two-factor is what is left.
  assert.equal((await level(3)).status, 200);
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.addCookies([{ name: 'session', value: bia.token, url: srv.url }]);
  const later = await context.newPage();
  await later.clock.install({ time: Date.now() + 11 * 60 * 1000 });
  await later.goto(`${srv.url}/app`);
  await later.waitForSelector('#verification-hold:has-text("exige verificação em duas etapas para falar")');
  const owner = await openApp(ana);
  assert.equal(await owner.locator('#verification-hold:not([hidden])').count(), 0, 'the owner is never held');
  await owner.context().close();
  await context.close();
});

test('members in the settings: who is connected, a role given and taken, a timeout set and lifted, a kick', async () => {
  const { owner: ana, sid, members: [bia, caio] } = await serverWithMembers(srv.url, 2);
  const role = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: ana.token, body: { name: 'Equipe', permissions: 0 } });
  assert.equal(role.status, 201, role.text);
  const rid = role.body.role.id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${(await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.channels[0].id}/messages`,
            { token: ana.token, body: { content: 'uma mensagem' } });
  const b = await openApp(bia);
  const a = await openApp(ana);
  await b.waitForSelector('.message:has-text("uma mensagem") .actions-inline button[aria-label="Responder a esta mensagem"]');
  await openSettings(a, 'Membros');
  const row = (u) => `#members-list li[data-id="${u.user.id}"]`;
  await a.waitForSelector(`${row(bia)} .status.online`);
  await a.waitForSelector(`${row(caio)} .status.offline`);
  assert.equal(await a.locator(`${row(ana)} .member-actions`).count(), 0, 'nothing to do with oneself');
  await a.check(`${row(bia)} input[data-role="${rid}"]`);
  await a.waitForSelector('#members-done:has-text("agora tem o cargo Equipe")');
  const member = async (u) => (await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: ana.token })).body.members.find((m) => m.userId === u.user.id);
  assert.deepEqual((await member(bia)).roleIds, [rid]);
  await a.click(`${row(bia)} button:has-text("Suspender por 10 min")`);
  await a.waitForSelector(`${row(bia)}:has-text("suspenso até")`);
  await b.waitForSelector('#timeout:not([hidden])'); // Bia's page follows
  assert.match(await b.textContent('#timeout'), /suspenso neste servidor até .*: pode ler, mas não enviar/);
  // Timed out, the page offers nothing the server would refuse (the rule mirrors the server's).
  await b.waitForSelector('.message:has-text("uma mensagem") .actions-inline button[aria-label="Responder a esta mensagem"]', { state: 'detached' });
  assert.equal(await b.locator('.message:has-text("uma mensagem") button.reaction.add').count(), 0);
  assert.ok((await member(bia)).timeoutUntil);
  await shoot(a, 'chat-members');
  await a.click(`${row(bia)} button:has-text("Retirar suspensão")`);
  await b.waitForSelector('#timeout', { state: 'hidden' });
  await b.waitForSelector('.message:has-text("uma mensagem") .actions-inline button[aria-label="Responder a esta mensagem"]');
  await a.uncheck(`${row(bia)} input[data-role="${rid}"]`);
  await a.waitForSelector('#members-done:has-text("não tem mais o cargo Equipe")');
  assert.deepEqual((await member(bia)).roleIds, []);
  await a.click(`${row(caio)} button:has-text("Expulsar")`);
  await answer(a, 'Expulsar');
  await a.waitForSelector(row(caio), { state: 'detached' });
  assert.equal(await member(caio), undefined);
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
});

test('automod from the settings: blocked words and a mention cap, then a blocked message is refused with the reason', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const a = await openApp(ana);
  await openSettings(a, 'Moderação');
  await a.waitForSelector('#automod-settings:not([hidden])');
  await a.fill('#blocked-words', 'feio\n  chato  \n\n');
  await a.fill('#max-mentions', '3');
  await a.click('#automod-form button[type=submit]');
  await a.waitForSelector('#automod-done:has-text("2 palavras bloqueadas")');
  const saved = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.server.automod;
  assert.deepEqual(saved, { blockedWords: ['feio', 'chato'], maxMentions: 3 });
  await a.fill('#max-mentions', '101');
  await a.evaluate(() => document.querySelector('#max-mentions').removeAttribute('max'));
  await a.click('#automod-form button[type=submit]');
  await a.waitForSelector('#settings-error:has-text("maxMentions")');
  await shoot(a, 'chat-automod');
  await a.context().close();
  const b = await openApp(bia);
  await b.fill('#text', 'que coisa feia e chata');
  await b.click('#composer button[type=submit]');
  await b.waitForSelector('.message:has-text("que coisa feia e chata")');
  await b.fill('#text', 'isso é chato');
  await b.click('#composer button[type=submit]');
  await b.waitForSelector('#send-error:not([hidden])');
  assert.match(await b.textContent('#send-error'), /bloquead|moderação/i);
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

test("invites in the settings: those still valid with who made them, a new one listed at once, one revoked and refused afterwards", async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const first = (await api(srv.url, 'GET', `/api/servers/${sid}/invites`, { token: ana.token })).body.invites[0];
  const limited = await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: ana.token, body: { maxUses: 5, maxAgeSeconds: 3600 } });
  const a = await openApp(ana);
  await openSettings(a, 'Convites');
  await a.waitForSelector(`#invites li[data-code="${first.code}"]`);
  assert.match(await a.textContent(`#invites li[data-code="${limited.body.code}"]`), /0 de 5 usos · vale até .* · criado por /);
  assert.match(await a.textContent(`#invites li[data-code="${first.code}"]`), /1 uso, sem limite · vale até /);
  // On a desktop the settings are a screen of their own: Esc goes back to the room, whose
  // "Convidar pessoas" makes a 7-day link, listed when the settings open again.
  await a.keyboard.press('Escape');
  await a.waitForSelector('#settings', { state: 'hidden' });
  await a.click('#invite-make');
  await a.waitForSelector('#invite-box:not([hidden])');
  await openSettings(a, 'Convites');
  await a.waitForSelector('#invites li:nth-child(3)');
  const made = (await a.textContent('#invite-link')).split('/invite/')[1];
  assert.equal(await a.getAttribute('#invites li:first-child', 'data-code'), made, 'the newest first');
  const week = (await api(srv.url, 'GET', `/api/servers/${sid}/invites`, { token: ana.token })).body.invites.find((i) => i.code === made);
  assert.ok(Math.abs(Date.parse(week.expiresAt) - Date.now() - 7 * 86400_000) < 120_000, 'a link from "Convidar pessoas" lasts 7 days');
  // One made in the section: for ever, at most 10 uses.
  await a.selectOption('#invite-age', '0');
  await a.selectOption('#invite-uses', '10');
  await a.click('#invite-form button[type=submit]');
  await a.waitForSelector('#invites li:nth-child(4)');
  assert.match(await a.textContent('#invites li:first-child'), /0 de 10 usos · não expira/);
  await shoot(a, 'chat-invites');
  await a.click(`#invites li[data-code="${first.code}"] button:has-text("Revogar")`);
  await a.waitForSelector('#invites-done:has-text("revogado")');
  assert.equal(await a.locator(`#invites li[data-code="${first.code}"]`).count(), 0);
  const late = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', `/api/invites/${first.code}/join`, { token: late.token })).status, 404);
  // A member who may not manage the server sees no invites section.
  const b = await openApp(bia);
  assert.equal(await b.locator('#settings-open:not([hidden])').count(), 0);
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
});

test("the people of the open server, connected first, follow a bot's presence live", async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, ana);
  assert.equal((await install(srv.url, ana, info, sid, { permissions: P.VER_CANAL })).complete.status, 200);
  const bot = info.app.botUserId;
  const a = await openApp(ana);
  const dot = `#people li.person[data-id="${bot}"] .status`;
  await a.waitForSelector(`${dot}.offline`);
  await a.waitForSelector('#people-title:has-text("Pessoas: 1 de 3 conectadas")'); // Ana herself
  const socket = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  await a.waitForSelector(`${dot}.online`);
  await a.waitForSelector('#people-title:has-text("Pessoas: 2 de 3 conectadas")');
  const order = await a.$$eval('#people li.person', (lis) => lis.map((li) => li.querySelector('.status').className));
  assert.deepEqual(order, ['status online', 'status online', 'status offline'], 'the connected first');
  await api(srv.url, 'PUT', '/api/bot/presence', { token: info.botToken, body: { status: 'dnd' } });
  await a.waitForSelector(`${dot}.dnd[aria-label="não perturbe"]`);
  await shoot(a, 'chat-people');
  socket.close();
  await a.waitForSelector(`${dot}.offline`);
  assert.deepEqual(a.problems, []);
  await a.context().close();
  // On a phone the list is folded on the server's screen, a tap away.
  const b = await openApp(bia, PHONE);
  await b.waitForSelector('#back:visible');
  await b.click('#back'); // from the room up to the server's screen
  await b.waitForSelector('#people-box:visible');
  assert.equal(await b.$eval('#people-box', (d) => d.open), false);
  await b.screenshot({ path: path.join(SHOTS, 'chat-people-folded-390.png') });
  await b.click('#people-title');
  await b.waitForSelector(`#people li.person[data-id="${bot}"]`);
  await b.context().close();
});

test('webhooks in the settings: one made for a channel shows its URL once; what it posts shows as the webhook\'s, marked', async () => {
  const { owner: ana, sid } = await serverWithMembers(srv.url, 0);
  const a = await openApp(ana);
  await openSettings(a, 'Bots');
  await a.waitForSelector('#webhook-channel option', { state: 'attached' }); // the section has read the server's webhooks
  await a.fill('#webhook-name', 'CI');
  await a.click('#webhook-form button[type=submit]');
  await a.waitForSelector('#webhook-new:not([hidden]) code');
  const url = await a.textContent('#webhook-new code');
  assert.match(url, new RegExp(`^${srv.url}/api/webhooks/[0-9a-f-]{36}/[A-Za-z0-9_-]{43}$`));
  await a.waitForSelector('#webhooks li:has-text("CI")');
  await shoot(a, 'chat-webhooks-settings');
  const res = await fetch(`${url}?format=github`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    body: JSON.stringify({ ref: 'refs/heads/main', compare: 'https://github.com/ana/app/compare/a...b', repository: { full_name: 'ana/app' }, sender: { login: 'ana' },
      commits: [{ id: 'abcdef0123456789', message: 'Primeiro commit', author: { name: 'Ana' } }] }) });
  assert.equal(res.status, 204);
  await a.click('#settings-close');
  await a.waitForSelector('.message:has(.webhook-tag):has-text("GitHub")');
  assert.match(await a.textContent('.message:has(.webhook-tag) .embed'), /\[ana\/app:main\] 1 novo commit/);
  await shoot(a, 'chat-webhook-message');
  assert.ok(!(await menuOf(a, '.message:has(.webhook-tag)')).includes('Conversar'), 'no DM to a webhook');
  assert.deepEqual(a.problems, []);
  await a.context().close();
  void sid;
});

test('the audit log in the settings: who changed what and why, newest first', async () => {
  const { owner: ana, sid, server } = await serverWithMembers(srv.url, 0);
  const cid = server.channels[0].id;
  await api(srv.url, 'PATCH', `/api/servers/${sid}/channels/${cid}`, { token: ana.token, body: { name: 'recepcao' }, headers: { 'x-audit-log-reason': encodeURIComponent('mais claro') } });
  const role = (await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: ana.token, body: { name: 'Equipe' } })).body.role;
  await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${role.id}`, { token: ana.token, body: { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS, hoist: true } });
  const a = await openApp(ana);
  await openSettings(a, 'Moderação');
  await a.waitForSelector('#audit .audit-entry');
  const lines = await a.$$eval('#audit .audit-entry > div:first-child', (n) => n.map((x) => x.textContent));
  const name = ana.user.displayName || ana.user.username;
  assert.match(lines[0], /alterou o cargo Equipe/);
  assert.match(lines[1], /criou o cargo Equipe/);
  assert.match(lines[2], /alterou o canal #recepcao/);
  // Sentences with names, never field names or IDs.
  const changes = await a.$$eval('#audit .audit-entry:nth-child(1) .audit-changes li', (n) => n.map((x) => x.textContent));
  assert.ok(changes.includes(`${name} mudou as permissões de nenhuma para Ver canais, Enviar mensagens`), JSON.stringify(changes));
  assert.ok(changes.includes(`${name} mudou se aparece à parte de não para sim`), JSON.stringify(changes));
  assert.match(await a.textContent('#audit .audit-entry:nth-child(3)'), new RegExp(`${name} mudou o nome de #geral para #recepcao.*Motivo: mais claro`, 's'));
  assert.doesNotMatch(await a.textContent('#audit'), /[0-9a-f]{8}-[0-9a-f]{4}-/, 'no IDs');
  await shoot(a, 'chat-audit');
  assert.deepEqual(a.problems, []);
  await a.context().close();
});
