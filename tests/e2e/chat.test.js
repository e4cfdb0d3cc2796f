// The chat client at /app in headless Chromium: two people and a bot meet in a channel. A's
// message reaches B's page live; A runs a slash command; the bot's answer carries an embed, a
// button and a select; B clicks and chooses, the bot edits its message and both pages update;
// a form opens, is filled and submitted; reactions, edits and pins reach the other page live; the
// server's settings change roles and rules. Screenshots land in tests/e2e/screenshots/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const jsQR = require('jsqr');
const { startServer, api, register, appWithBot, install, serverWithMembers, gatewayConnect, totp, eventually, quiet, sharedServer } = require('./helpers');
const pages = require('./browser');
const { SHOTS, PHONE, DESKTOP, shoot, answer, openSettings } = pages;

const { P } = require('./permissions');
const sockets = [];
const srv = sharedServer({}, sockets);
const browser = pages.sharedBrowser();
const openApp = (who, viewport = DESKTOP, base = srv.url) => pages.openApp(browser, base, who, viewport);

// The open room takes commands: the server's list read and the composer shown (the room's
// history is in), so what is typed lands in it.
async function commandsReady(page, n) {
  await page.waitForFunction((count) => praca.chat.commands.length === count && !document.querySelector('#composer').hidden, n);
}

// A message's actions as a person reaches them: its "…" menu lists them all (the toolbar shows
// three as icons). messageAction chooses one; menuOf reads the menu's items and closes it.
async function menuOf(page, message) {
  const li = page.locator(message).first();
  await li.hover();
  await li.locator('.actions-inline button.more').click();
  await page.waitForSelector('.menu [role=menuitem]');
  const names = await page.locator('.menu [role=menuitem]').allTextContents();
  await page.keyboard.press('Escape');
  await page.waitForSelector('.menu', { state: 'detached' });
  return names;
}

async function messageAction(page, message, name) {
  const li = page.locator(message).first();
  await li.hover();
  await li.locator('.actions-inline button.more').click();
  await page.getByRole('menuitem', { name, exact: true }).click();
}

// A bot that answers /eco with an embed, a button and a select; the button edits the message,
// the select too, and "form" opens a form whose submission gets an ephemeral thanks.
async function startBot(info) {
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const respond = (id, body) => api(srv.url, 'POST', `/api/bot/interactions/${id}/respond`, { token: info.botToken, body });
  const card = (text) => ({
    content: text,
    embeds: [{ title: 'Eco', description: text, color: 0x1f6f5c }],
    components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Repetir', customId: 'repetir' }, { type: 2, style: 2, label: 'Formulário', customId: 'form' }] },
                 { type: 1, components: [{ type: 3, customId: 'cor', placeholder: 'Uma cor', options: [{ label: 'Verde', value: 'verde' }, { label: 'Azul', value: 'azul' }] }] }],
  });
  bot.on('INTERACTION_CREATE', (i) => {
    if (i.type === 'command') respond(i.id, { type: 'message', data: card(`eco: ${i.options[0].value}`) });
    else if (i.customId === 'repetir') respond(i.id, { type: 'update', data: card('repetido!') });
    else if (i.customId === 'cor') respond(i.id, { type: 'update', data: card(`cor: ${i.values[0]}`) });
    else if (i.customId === 'form') respond(i.id, { type: 'modal', data: { customId: 'nome', title: 'Seu nome', components: [{ type: 1, components: [{ type: 4, customId: 'n', label: 'Nome', style: 1, required: true }] }] } });
    else if (i.type === 'modal_submit') respond(i.id, { type: 'message', data: { content: `Obrigado, ${i.values[0].value}`, ephemeral: true } });
  });
  return bot;
}

test('two people and a bot: a server made on the page, the bot installed through the consent page, live messages, a slash command, buttons, a select and a form', async () => {
  const ana = await register(srv.url);
  const bia = await register(srv.url);
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Eco', intents: ['interactions.receive'], redirect: `${srv.url}/app` });
  await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [{ name: 'eco', description: 'Repete', options: [{ name: 'texto', description: 'O quê', type: 'string', required: true }] }] } });
  await startBot(info);

  // A creates a server on the page, then installs the bot with the link its developer gave.
  const a = await openApp(ana);
  await shoot(a, 'chat-empty');
  await a.click('#add-server-open'); // the rail's ＋
  await a.waitForSelector('#server-name:visible');
  await shoot(a, 'chat-add-server');
  await a.fill('#server-name', 'Servidor de teste');
  await a.click('#create-server button[type=submit]');
  await a.waitForSelector('#composer:not([hidden])');
  const sid = new URLSearchParams((await a.evaluate(() => location.hash)).slice(1)).get('server');
  assert.equal(await a.textContent('#server-title'), 'Servidor de teste');
  const consent = `${srv.url}/oauth2/authorize?` + new URLSearchParams({ client_id: info.app.clientId, redirect_uri: info.redirect, permissions: String(P.VER_CANAL | P.ENVIAR_MENSAGENS) });
  await openSettings(a, 'Bots');
  await a.fill('#install-link', consent);
  await a.click('#install button[type=submit]');
  await a.waitForSelector('#consent:not([hidden])');
  assert.equal(await a.inputValue('#server'), sid);
  await shoot(a, 'chat-consent');
  await a.click('#authorize');
  await a.waitForSelector('#done:not([hidden])');
  await a.click('#done-continue');
  await a.waitForURL(new RegExp(`^${srv.url}/app`));
  await a.waitForSelector('#live.on');
  await a.waitForSelector('#composer:not([hidden])');
  assert.deepEqual((await api(srv.url, 'GET', '/api/bot/servers', { token: info.botToken })).body.servers.map((s) => s.id), [sid]);

  // A invites B with a link; B opens it, joins, and lands in the server.
  await a.click('#invite-make');
  await a.waitForSelector('#invite-box:not([hidden])');
  const link = await a.textContent('#invite-link');
  assert.match(link, new RegExp(`^${srv.url}/invite/[A-Za-z0-9]+$`));
  const b = await openApp(bia);
  await b.goto(link);
  await b.waitForSelector('#invite:not([hidden])');
  assert.equal(await b.textContent('#server-name'), 'Servidor de teste');
  assert.equal(await b.textContent('#members'), '2 membros', 'Ana and the bot');
  await shoot(b, 'chat-invite');
  await b.click('#join');
  await b.waitForURL(new RegExp(`/app#server=${sid}`));
  await b.waitForSelector('#live.on');
  await b.waitForSelector('#composer:not([hidden])');
  assert.equal(await a.textContent('#channel-title'), '# geral');

  await a.fill('#text', 'Olá, Bia!');
  await a.press('#text', 'Enter');
  await b.waitForSelector('.message:has-text("Olá, Bia!")');
  assert.match(await b.textContent('.message:has-text("Olá, Bia!") .head'), new RegExp(ana.user.username));

  await a.fill('#text', '/eco texto=bom-dia');
  await a.click('#composer button[type=submit]');
  for (const p of [a, b]) await p.waitForSelector('.message:has-text("eco: bom-dia") .embed');
  assert.equal(await b.textContent('.message:has-text("eco: bom-dia") .bot-tag'), 'BOT');
  await shoot(b, 'chat-command');

  await b.click('.message:has-text("eco: bom-dia") button:has-text("Repetir")');
  for (const p of [a, b]) await p.waitForSelector('.message:has-text("repetido!")');
  await b.selectOption('.message:has-text("repetido!") select', 'azul');
  for (const p of [a, b]) await p.waitForSelector('.message:has-text("cor: azul")');
  assert.equal(await a.locator('.message:has-text("eco: bom-dia")').count(), 0, 'edited in place, not a new message');
  assert.equal(await a.locator('.message .embed').count(), 1);

  await b.click('.message:has-text("cor: azul") button:has-text("Formulário")');
  await b.waitForSelector('#modal[open]');
  assert.equal(await b.textContent('#modal-title'), 'Seu nome');
  await shoot(b, 'chat-form');
  await b.fill('#modal-fields input', 'Bia');
  await b.click('#modal-send');
  await b.waitForSelector('.message.ephemeral:has-text("Obrigado, Bia")');
  await quiet(300);
  assert.equal(await a.locator('.message:has-text("Obrigado, Bia")').count(), 0, 'only the invoker sees it');

  // A reaction, an edit and a pin show on the other page as they happen; so does a delete.
  // + Reagir opens the picker: found by name, chosen, and then among the recent ones.
  await b.click('.message:has-text("Olá, Bia!") button.reaction.add');
  await b.waitForSelector('#emoji-picker[open]');
  await b.fill('#emoji-search', 'joinha');
  assert.deepEqual(await b.$$eval('#emoji-grid button', (bs) => bs.map((x) => x.textContent)), ['👍']);
  await b.fill('#emoji-search', 'nada-assim');
  await b.waitForSelector('#emoji-none:not([hidden])');
  await b.fill('#emoji-search', 'festa');
  await b.click('#emoji-grid button:has-text("🎉")');
  await b.waitForSelector('.message:has-text("Olá, Bia!") button.reaction[aria-pressed=true]:has-text("🎉 1")');
  await a.waitForSelector('.message:has-text("Olá, Bia!") button.reaction[aria-pressed=false]:has-text("🎉 1")');
  await b.click('.message:has-text("Olá, Bia!") button.reaction.add');
  assert.equal(await b.textContent('#emoji-grid button >> nth=0'), '🎉', 'recent first');
  await b.fill('#emoji-search', 'joinha');
  await b.press('#emoji-search', 'Enter');
  await b.waitForSelector('.message:has-text("Olá, Bia!") button.reaction[aria-pressed=true]:has-text("👍 1")');
  await a.waitForSelector('.message:has-text("Olá, Bia!") button.reaction[aria-pressed=false]:has-text("👍 1")');
  await messageAction(a, '.message:has-text("Olá, Bia!")', 'Editar');
  await a.fill('.message textarea.edit', 'Olá, Bia! Tudo bem?');
  await a.press('.message textarea.edit', 'Enter');
  await b.waitForSelector('.message:has-text("Tudo bem?") .head:has-text("(editada)")');
  assert.ok(!(await menuOf(b, '.message:has-text("Tudo bem?")')).includes('Editar'), 'only one\'s own');
  await messageAction(a, '.message:has-text("cor: azul")', 'Fixar');
  await b.waitForSelector('.message:has-text("cor: azul") .pin-tag');
  assert.ok(!(await menuOf(b, '.message:has-text("cor: azul")')).includes('Fixar'), 'Bia may not pin');
  await shoot(b, 'chat-live');
  // Deleting asks first: cancelled, the message stays; confirmed, it goes.
  await messageAction(a, '.message:has-text("Olá, Bia!")', 'Apagar');
  await a.waitForSelector('dialog.ask[open]');
  await shoot(a, 'chat-ask-delete');
  await answer(a, 'Cancelar', { question: /Apagar esta mensagem/ });
  await quiet(300);
  assert.equal(await b.locator('.message:has-text("Olá, Bia!")').count(), 1, 'kept when cancelled');
  await messageAction(a, '.message:has-text("Olá, Bia!")', 'Apagar');
  await answer(a, 'Apagar');
  await b.waitForSelector('.message:has-text("Olá, Bia!")', { state: 'detached' });
  assert.ok(!(await menuOf(b, '.message:has-text("cor: azul")')).includes('Apagar'), 'only one\'s own');

  await a.fill('#text', '/nada');
  await a.press('#text', 'Enter');
  await a.waitForSelector('#send-error:not([hidden])');
  assert.match(await a.textContent('#send-error'), /Comando \/nada não existe aqui\. Disponíveis: \/eco/);
  await shoot(a, 'chat');

  // A message in another channel marks it unread on B's page until B opens it.
  const outro = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'outro' } })).body.channel.id;
  await b.reload();
  await b.waitForSelector('#live.on');
  await b.waitForSelector(`#channels button[data-id="${outro}"]`);
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${outro}/messages`, { token: ana.token, body: { content: 'no outro canal' } });
  await b.waitForSelector(`#channels button.unread[data-id="${outro}"]`);
  await b.click(`#channels button[data-id="${outro}"]`);
  await b.waitForSelector('.message:has-text("no outro canal")');
  assert.equal(await b.locator('#channels button.unread').count(), 0);

  // A uninstalls the bot from the server's settings; its command is gone.
  await openSettings(a, 'Bots');
  await a.waitForSelector('#apps li');
  assert.match(await a.textContent('#apps li'), /Eco[\s\S]*Ver canais, Enviar mensagens/);
  await shoot(a, 'chat-settings');
  await a.click('#apps li button:has-text("Desinstalar")');
  await a.waitForSelector('#no-apps:not([hidden])');
  assert.deepEqual((await api(srv.url, 'GET', '/api/bot/servers', { token: info.botToken })).body.servers, []);
  await a.click('#settings-close');
  await a.fill('#text', '/eco texto=x');
  await a.press('#text', 'Enter');
  await a.waitForSelector('#send-error:has-text("Disponíveis: nenhum")');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
});

test('history pages back as one scrolls up, keeping one\'s place', async () => {
  const roomy = await startServer({ args: ['--rate-limit-scale', '100'] }); // 120 sends at once
  try {
    const { owner: ana, sid, server } = await serverWithMembers(roomy.url, 0);
    const cid = server.channels[0].id;
    for (let i = 1; i <= 120; i++)
      await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: `mensagem ${i}` } });
    const a = await openApp(ana, DESKTOP, roomy.url);
    await a.waitForSelector('.message:has-text("mensagem 120")');
    assert.equal(await a.locator('.message').count(), 50, 'the newest page first');
    await a.evaluate(() => { document.querySelector('#messages').scrollTop = 0; });
    await a.waitForFunction(() => document.querySelectorAll('.message').length === 100);
    assert.equal(await a.$eval('.message .content', (p) => p.textContent), 'mensagem 21');
    assert.ok(await a.evaluate(() => document.querySelector('#messages').scrollTop > 0), 'kept its place');
    await a.evaluate(() => { document.querySelector('#messages').scrollTop = 0; });
    await a.waitForFunction(() => document.querySelectorAll('.message').length === 120);
    assert.deepEqual(a.problems, []);
    await a.context().close();
  } finally {
    const r = await roomy.stop();
    assert.equal(r.code, 0, roomy.stderr);
  }
});

test('a room reads as a conversation: a line per day, "novas" after one\'s read mark, one author\'s messages grouped under their initials', async () => {
  const clocked = await startServer({ args: ['--test-clock'] });
  try {
    const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(clocked.url, 1);
    const cid = server.channels[0].id;
    const say = async (who, content) => (await api(clocked.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: who.token, body: { content } })).body.message;
    const advance = (ms) => api(clocked.url, 'POST', '/api/test/clock', { body: { advanceMs: ms } });
    const first = await say(bia, 'primeira');
    await say(ana, 'lida');
    assert.equal((await api(clocked.url, 'PUT', `/api/users/@me/read-states/${cid}`, { token: ana.token, body: { messageId: first.id } })).status, 200);
    // The next day, early enough that six more minutes stay in it (the page draws its day lines
    // in this machine's time zone).
    await advance(24 * 3600_000 - (new Date().getHours() >= 23 ? 2 * 3600_000 : 0));
    await say(bia, 'segunda');
    await say(bia, 'terceira');
    await say(ana, 'minha');
    await advance(6 * 60_000);
    await say(ana, 'depois');
    const a = await openApp(ana, DESKTOP, clocked.url);
    await a.waitForSelector('.message:has-text("depois")');
    const flow = await a.$$eval('#messages > li', (items) => items.map((li) => (li.classList.contains('message')
      ? `${li.classList.contains('cont') ? '+' : ''}${li.querySelector('.content').textContent}` : `[${li.textContent}]`)));
    assert.equal(flow[0], '[Hoje]');
    assert.match(flow[3], /^\[\d+ de \p{L}+ de \d{4}\]$/u, 'the next day, by its date');
    assert.deepEqual([flow[1], flow[2], ...flow.slice(4)], ['primeira', 'lida', '[novas]', 'segunda', '+terceira', 'minha', 'depois'],
      'grouped by author within 5 minutes; "novas" after the mark, not before one\'s own');
    // Initials on a colour of one's own, once per group.
    const initials = (text) => a.locator(`.message:has-text("${text}") .avatar`);
    assert.equal(await initials('segunda').isVisible(), true);
    assert.match(await initials('segunda').textContent(), /^[A-Z0-9]{1,2}$/);
    assert.equal(await initials('terceira').isVisible(), false, 'a continuation shows no initials');
    const hue = (text) => initials(text).evaluate((n) => getComputedStyle(n).backgroundColor);
    assert.equal(await hue('segunda'), await hue('primeira'));
    // Each person's hue comes from their ID (two IDs may share one: compare the rule, not colours).
    const hueOf = (id) => [...id].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 0);
    const hueVar = (text) => initials(text).evaluate((n) => n.style.getPropertyValue('--hue'));
    assert.equal(await hueVar('segunda'), String(hueOf(bia.user.id)));
    assert.equal(await hueVar('minha'), String(hueOf(ana.user.id)));
    await shoot(a, 'chat-flow');
    // Writing reads what came before: the line goes.
    await a.fill('#text', 'li tudo');
    await a.press('#text', 'Enter');
    await a.waitForSelector('.message:has-text("li tudo")');
    assert.equal(await a.locator('#messages .flow-line.new').count(), 0);
    assert.deepEqual(a.problems, []);
    await a.context().close();
  } finally {
    await clocked.stop();
  }
});

test('a dropped socket loses nothing: 20 messages posted while it is down appear once each, in order, without reading the room again', async () => {
  const roomy = await startServer({ args: ['--rate-limit-scale', '100'] });
  try {
    const { owner: ana, sid, server } = await serverWithMembers(roomy.url, 0);
    const cid = server.channels[0].id;
    await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'antes da queda' } });
    const a = await openApp(ana, DESKTOP, roomy.url);
    await a.waitForSelector('.message:has-text("antes da queda")');
    const reads = [];
    a.on('request', (r) => { if (r.url().includes('/messages?')) reads.push(r.url()); });
    // The page's own WebSocket drops (as when a phone changes network).
    await a.evaluate(() => praca.view.gateway.ws.close());
    await a.waitForSelector('#live:not(.on)');
    for (let i = 1; i <= 20; i++)
      await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: `durante ${i}` } });
    await a.waitForSelector('#live.on');
    await a.waitForFunction(() => document.querySelectorAll('.message').length === 21);
    await quiet(300);
    const shown = await a.$$eval('.message .content', (ps) => ps.map((p) => p.textContent));
    assert.deepEqual(shown, ['antes da queda', ...Array.from({ length: 20 }, (_, i) => `durante ${i + 1}`)]);
    assert.deepEqual(reads, [], 'replayed by the gateway, not read again');
    // A reconnect that cannot be resumed (the server restarted in between is the same case for
    // the page) reads the room again once.
    await a.evaluate(() => { praca.view.gateway.pid = 'desconhecido'; praca.view.gateway.ws.close(); });
    await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'depois de tudo' } });
    await a.waitForSelector('.message:has-text("depois de tudo")');
    assert.equal(await a.locator('.message:has-text("depois de tudo")').count(), 1);
    assert.deepEqual(a.problems, []);
    await a.context().close();
  } finally {
    const r = await roomy.stop();
    assert.equal(r.code, 0, roomy.stderr);
  }
});

test('changes arrive as changes: a join, a role change and a channel rename in a server of 30 channels cost an open page at most one request each', async () => {
  const roomy = await startServer({ args: ['--rate-limit-scale', '100'] });
  try {
    const { owner: ana, sid, server, code } = await serverWithMembers(roomy.url, 0);
    const channels = [server.channels[0].id];
    for (let i = 1; i < 30; i++)
      channels.push((await api(roomy.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: `canal-${i}` } })).body.channel.id);
    const a = await openApp(ana, DESKTOP, roomy.url);
    await a.waitForSelector('#channels button:has-text("canal-29")');
    await quiet(300);
    const seen = [];
    a.on('request', (r) => seen.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`));
    const counted = async (what, change, visible) => {
      seen.length = 0;
      await change();
      await a.waitForFunction(visible);
      await quiet(300);
      assert.ok(seen.length <= 1, `${what}: ${JSON.stringify(seen)}`);
      return [...seen];
    };
    const caio = await register(roomy.url);
    const joined = await counted('a join', () => api(roomy.url, 'POST', `/api/invites/${code}/join`, { token: caio.token }),
      () => /2 conectadas|de 2/.test(document.querySelector('#people-title').textContent));
    assert.deepEqual(joined, [], 'the event carries the member');
    await counted('a role change', () => api(roomy.url, 'POST', `/api/servers/${sid}/roles`, { token: ana.token, body: { name: 'Moderação' } }),
      () => praca.chat.roles.some((r) => r.name === 'Moderação'));
    await counted('a channel rename', () => api(roomy.url, 'PATCH', `/api/servers/${sid}/channels/${channels[5]}`, { token: ana.token, body: { name: 'renomeado' } }),
      () => [...document.querySelectorAll('#channels button')].some((b) => b.textContent.includes('renomeado')));
    const left = await counted('a leave', () => api(roomy.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: caio.token }),
      () => /de 1/.test(document.querySelector('#people-title').textContent));
    assert.deepEqual(left, []);
    assert.deepEqual(a.problems, []);
    await a.context().close();
  } finally {
    const r = await roomy.stop();
    assert.equal(r.code, 0, roomy.stderr);
  }
});

test('messages show Markdown: marks, code, quotes, lists, spoilers, safe links, mentions (one\'s own marked); never HTML', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const text = ['**negrito** _itálico_ ~~riscado~~ `código` ||segredo||', '> citação', '- um', '- dois',
    '```', 'bloco <b>cru</b>', '```', 'veja https://praca.example/x e [isto](javascript:alert(1)) <img src=x onerror=alert(1)>',
    `oi @${bia.user.username} e @${ana.user.username}`].join('\n');
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: text } });
  const b = await openApp(bia);
  await b.waitForSelector('.message .content strong');
  const c = '.message:last-child .content';
  assert.equal(await b.textContent(`${c} strong`), 'negrito');
  assert.equal(await b.textContent(`${c} em`), 'itálico');
  assert.equal(await b.textContent(`${c} s`), 'riscado');
  assert.equal(await b.textContent(`${c} p code`), 'código');
  assert.equal(await b.textContent(`${c} blockquote`), 'citação');
  assert.deepEqual(await b.$$eval(`${c} ul li`, (li) => li.map((x) => x.textContent)), ['um', 'dois']);
  assert.equal(await b.textContent(`${c} pre code`), 'bloco <b>cru</b>', 'a code block is text');
  assert.equal(await b.locator(`${c} img`).count(), 0, 'no HTML from anyone');
  const links = await b.$$eval(`${c} a`, (as) => as.map((a) => [a.getAttribute('href'), a.target, a.rel]));
  assert.deepEqual(links, [['https://praca.example/x', '_blank', 'noopener noreferrer nofollow']], 'javascript: is not a link');
  const spoiler = b.locator(`${c} .spoiler`);
  assert.equal(await spoiler.evaluate((s) => getComputedStyle(s).color), 'rgba(0, 0, 0, 0)', 'hidden until clicked');
  await spoiler.click();
  assert.ok(await spoiler.evaluate((s) => s.classList.contains('shown')));
  assert.deepEqual(await b.$$eval(`${c} .mention`, (ms) => ms.map((m) => [m.textContent, m.classList.contains('self')])),
    [[`@${bia.user.displayName || bia.user.username}`, true], [`@${ana.user.displayName || ana.user.username}`, false]]);
  await shoot(b, 'chat-markdown');
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

test('on a phone the app is screens: servers, then channels, then the room, and back by the button or the browser', async () => {
  const { owner: ana, sid, server } = await serverWithMembers(srv.url, 0);
  const cid = server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'olá do telefone' } });
  const context = await browser.newContext({ viewport: PHONE });
  await context.addCookies([{ name: 'session', value: ana.token, url: srv.url }]);
  const a = await context.newPage();
  await a.goto(`${srv.url}/app`);
  await a.waitForSelector('#live.on');
  const shown = async () => ({ servers: await a.isVisible('nav.servers'), channels: await a.isVisible('nav.channels'), room: await a.isVisible('#room'), back: await a.isVisible('#back') });
  // It opens in the room it shows, with the levels above to go back to.
  await a.waitForSelector('.message:has-text("olá do telefone")');
  assert.deepEqual(await shown(), { servers: false, channels: false, room: true, back: true });
  assert.ok(await a.isVisible('#text'), 'the composer is there');
  await a.screenshot({ path: path.join(SHOTS, 'phone-room-390.png'), fullPage: true });
  await a.click('#back');
  await a.waitForSelector('nav.channels:visible');
  assert.deepEqual(await shown(), { servers: false, channels: true, room: false, back: true });
  await a.screenshot({ path: path.join(SHOTS, 'phone-channels-390.png'), fullPage: true });
  await a.goBack(); // the browser's back gesture
  await a.waitForSelector('nav.servers:visible');
  assert.deepEqual(await shown(), { servers: true, channels: false, room: false, back: false });
  await a.screenshot({ path: path.join(SHOTS, 'phone-servers-390.png'), fullPage: true });
  // And down again by tapping.
  await a.click(`#servers button[data-id="${sid}"]`);
  await a.waitForSelector('nav.channels:visible');
  await a.click(`#channels button[data-id="${cid}"]`);
  await a.waitForSelector('#room:visible');
  assert.deepEqual(await shown(), { servers: false, channels: false, room: true, back: true });
  // 👥 goes one level deeper, to the server's people; back returns to the room.
  await a.click('#people-open');
  await a.waitForSelector('#people li.person:visible');
  assert.equal(await a.isVisible('#channels'), false, 'only the people, not the channels');
  assert.equal(await a.isVisible('#room'), false);
  assert.equal(await a.getAttribute('#back', 'aria-label'), 'Voltar à conversa');
  await a.screenshot({ path: path.join(SHOTS, 'phone-members-390.png'), fullPage: true });
  await a.click('#back');
  await a.waitForSelector('#room:visible');
  await a.goBack();
  await a.waitForSelector('nav.channels:visible');
  await context.close();
});

test('a command nobody answers says so after its deadline, next to the composer; one answered says nothing', async () => {
  const { owner: ana, sid } = await serverWithMembers(srv.url, 0);
  const mute = await appWithBot(srv.url, ana, { name: 'Calado', intents: ['interactions.receive'] });
  const talker = await appWithBot(srv.url, ana, { name: 'Falante', intents: ['interactions.receive'] });
  for (const [info, name] of [[mute, 'calado'], [talker, 'fala']]) {
    assert.equal((await install(srv.url, ana, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
    await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [{ name, description: 'Um comando' }] } });
  }
  const bot = await gatewayConnect(srv.url, { auth: { token: talker.botToken } }, sockets);
  bot.on('INTERACTION_CREATE', (i) => api(srv.url, 'POST', `/api/bot/interactions/${i.id}/respond`, { token: talker.botToken, body: { type: 'message', data: { content: 'respondi' } } }));
  const a = await openApp(ana);
  await commandsReady(a, 2);
  // The interaction's own answer reaches the page after the bot's message: the wait still ends.
  let held = 0;
  await a.route('**/interactions', async (route) => { const r = await route.fetch(); await quiet(1500); held++; await route.fulfill({ response: r }); }, { times: 1 });
  await a.fill('#text', '/fala');
  await a.press('#text', 'Enter');
  await a.waitForSelector('.message:has-text("respondi")');
  await eventually(() => held === 1, 5000, "the held answer delivered");
  await quiet(4000); // past the deadline: an answered command says nothing
  assert.equal(await a.isHidden('#send-error'), true);
  await a.fill('#text', '/calado');
  await a.press('#text', 'Enter');
  await a.waitForSelector('#send-error:has-text("O aplicativo não respondeu a /calado.")', { timeout: 10000 });
  await shoot(a, 'chat-no-answer');
  assert.deepEqual(a.problems, []);
  await a.context().close();
  bot.close();
});

test('typing / opens a palette of the commands and their options; keys choose, choices fill, a wrong option is explained before anything is sent', async () => {
  const { owner: ana, sid } = await serverWithMembers(srv.url, 0);
  const info = await appWithBot(srv.url, ana, { name: 'Tempo', intents: ['interactions.receive'] });
  assert.equal((await install(srv.url, ana, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
  await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [
    { name: 'clima', description: 'O tempo numa cidade', options: [
      { name: 'cidade', description: 'Qual cidade', type: 'string', required: true, choices: [{ name: 'Rio', value: 'rio' }, { name: 'São Paulo', value: 'sao paulo' }] },
      { name: 'dias', description: 'Quantos dias', type: 'integer' }] },
    { name: 'ajuda', description: 'O que o bot faz' }] } });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const got = [];
  bot.on('INTERACTION_CREATE', (i) => { got.push(i.options.map(({ name, value }) => ({ name, value }))); api(srv.url, 'POST', `/api/bot/interactions/${i.id}/respond`, { token: info.botToken, body: { type: 'message', data: { content: `clima em ${i.options[0].value}` } } }); });
  const a = await openApp(ana);
  await commandsReady(a, 2);
  let sent = 0;
  a.on('request', (r) => { if (r.url().endsWith('/interactions')) sent++; });
  const items = () => a.$$eval('#palette .palette-item', (li) => li.map((x) => x.textContent));
  await a.focus('#text');
  await a.keyboard.type('/');
  await a.waitForSelector('#palette:not([hidden])');
  assert.deepEqual(await items(), ['/ajuda O que o bot faz', '/clima O tempo numa cidade']);
  assert.equal(await a.getAttribute('#palette-0', 'aria-selected'), 'true');
  await a.keyboard.press('ArrowUp'); // round to the last
  assert.equal(await a.getAttribute('#palette-1', 'aria-selected'), 'true');
  await a.keyboard.press('Tab');
  assert.equal(await a.inputValue('#text'), '/clima ');
  assert.match(await a.textContent('#palette .palette-head'), /\/clima O tempo numa cidade cidade: Rio \| São Paulo · dias\?: inteiro/);
  assert.deepEqual(await items(), ['cidade texto · Qual cidade', 'dias (opcional) inteiro · Quantos dias'], 'required first');
  await a.keyboard.press('Enter'); // takes the option, sends nothing
  assert.equal(await a.inputValue('#text'), '/clima cidade:');
  assert.deepEqual(await items(), ['Rio', 'São Paulo']);
  await a.keyboard.type('s');
  assert.deepEqual(await items(), ['São Paulo']);
  await shoot(a, 'chat-palette');
  await a.keyboard.press('Enter');
  assert.equal(await a.inputValue('#text'), '/clima cidade:sao paulo ');
  await a.keyboard.type('dias:dois');
  // The palette's head shows the form as it is filled.
  assert.match(await a.textContent('#palette .palette-head'), /cidade: sao paulo · dias: dois/);
  await a.keyboard.press('Enter');
  await a.waitForSelector('#send-error:has-text("dias: deve ser um número inteiro")');
  assert.equal(sent, 0, 'explained before anything is sent');
  await a.fill('#text', '/clima cidade="sao paulo" dias=2');
  await a.press('#text', 'Escape');
  assert.equal(await a.isHidden('#palette'), true);
  await a.press('#text', 'Enter');
  await a.waitForSelector('.message:has-text("clima em sao paulo")');
  assert.deepEqual(got, [[{ name: 'cidade', value: 'sao paulo' }, { name: 'dias', value: 2 }]]);
  // The composer empties once the interaction's own answer is back (the bot's may come first).
  await a.waitForFunction(() => document.querySelector('#text').value === '' && document.querySelector('#palette').hidden);
  // As typed on Discord: opção:valor with spaces, up to the next option.
  await a.fill('#text', '/clima dias:3 cidade:São Paulo');
  await a.press('#text', 'Escape');
  await a.press('#text', 'Enter');
  await eventually(() => got.length === 2, 5000, 'the second command');
  assert.deepEqual(got[1], [{ name: 'dias', value: 3 }, { name: 'cidade', value: 'sao paulo' }]);
  assert.deepEqual(a.problems, []);
  await a.context().close();
  bot.close();
});

test('the pins panel lists the channel\'s pins newest first, follows a pin made on another page, leads to the message and unpins', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const say = async (who, content) => (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: who.token, body: { content } })).body.message;
  const old = await say(ana, 'a regra antiga');
  for (let i = 0; i < 8; i++) await say(bia, `conversa ${i}`);
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages/${old.id}/pin`, { token: ana.token });
  const a = await openApp(ana);
  await a.waitForSelector('.message:has-text("conversa 7")');
  await a.click('#pins-open');
  await a.waitForSelector('#pins .pin:has-text("a regra antiga")');
  assert.equal(await a.getAttribute('#pins-open', 'aria-expanded'), 'true');
  // Ana's other page pins a new one: the open panel follows, newest first.
  const b = await openApp(ana);
  await b.waitForSelector('.message:has-text("conversa 7")');
  await b.hover('.message:has-text("conversa 7")');
  await messageAction(b, '.message:has-text("conversa 7")', 'Fixar');
  await a.waitForFunction(() => [...document.querySelectorAll('#pins .pin .content')].map((c) => c.textContent).join('|') === 'conversa 7|a regra antiga');
  await shoot(a, 'chat-pins');
  // "Ir à mensagem" reads the page around it, and closes the panel.
  await a.click('#pins .pin:has-text("a regra antiga") button:has-text("Ir à mensagem")');
  await a.waitForSelector(`#m-${old.id}.flash`);
  assert.equal(await a.isHidden('#pins'), true);
  await a.click('#pins-open');
  await a.click('#pins .pin:has-text("conversa 7") button:has-text("Desafixar")');
  await a.waitForFunction(() => document.querySelectorAll('#pins .pin').length === 1);
  await a.click('#pins .pin button:has-text("Desafixar")');
  await a.waitForSelector('#no-pins:not([hidden])');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('an error away from any form shows as a toast in view, on a phone too, and goes with ✕', async () => {
  const ana = await register(srv.url);
  const a = await openApp(ana, PHONE);
  await a.fill('#invite-code', 'nao-existe');
  await a.click('#join button[type=submit]');
  const note = a.locator('#toasts .toast');
  await note.waitFor();
  assert.match(await note.textContent(), /Convite/);
  const box = await note.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height && box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
  await shoot(a, 'chat-toast');
  await a.click('#toasts .toast button');
  assert.equal(await note.count(), 0);
  assert.deepEqual(a.problems, []);
  await a.context().close();
});

test('notifications: asked once; a DM and a mention notify while the tab is hidden, nothing while it is in view; a click opens the room', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(['notifications'], { origin: srv.url });
  await context.addCookies([{ name: 'session', value: bia.token, url: srv.url }]);
  // The page's view of the tab and of Notification, as a test can drive them.
  await context.addInitScript(() => {
    window.shown = [];
    window.tabHidden = false;
    Object.defineProperty(document, 'visibilityState', { get: () => (window.tabHidden ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { get: () => window.tabHidden });
    let permission = 'default';
    window.Notification = class {
      static get permission() { return permission; }
      static async requestPermission() { permission = 'granted'; return permission; }
      constructor(title, options) { this.title = title; this.body = options.body; window.shown.push(this); }
      close() {}
    };
  });
  const b = await context.newPage();
  b.problems = [];
  b.on('pageerror', (e) => b.problems.push(e.message));
  await b.goto(`${srv.url}/app`);
  await b.waitForSelector('#live.on');
  await b.waitForSelector('#notify-ask:not([hidden])');
  await shoot(b, 'chat-notify-ask');
  await b.click('#notify-yes');
  await b.waitForSelector('#notify-ask', { state: 'hidden' });
  const say = (content) => api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: ana.token, body: { content } });
  await say(`@${bia.user.username} visível`); // in view: nothing
  await b.waitForSelector('.message:has-text("visível")');
  await b.evaluate(() => { window.tabHidden = true; document.dispatchEvent(new Event('visibilitychange')); });
  await say('sem menção');
  await say(`@${bia.user.username} olha isso`);
  await b.waitForSelector('.message:has-text("olha isso")');
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: bia.user.id } })).body.channel;
  await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: ana.token, body: { content: 'em particular' } });
  await b.waitForFunction(() => window.shown.length === 2);
  const shown = await b.evaluate(() => window.shown.map((n) => ({ title: n.title, body: n.body })));
  const name = ana.user.displayName || ana.user.username;
  assert.deepEqual(shown, [{ title: `${name} em ${server.server.name}`, body: `@${bia.user.username} olha isso` },
                           { title: `${name} (mensagem direta)`, body: 'em particular' }]);
  await b.evaluate(() => window.shown[1].onclick());
  await b.waitForSelector(`#channel-title:has-text("@ ${name}")`);
  await b.waitForSelector('.message:has-text("em particular")');
  // Asked once: a reload does not ask again.
  await b.reload();
  await b.waitForSelector('#live.on');
  assert.equal(await b.isHidden('#notify-ask'), true);
  assert.deepEqual(b.problems, []);
  await context.close();
});

test('dark mode follows the system, and Conta can choose; the page reads well either way', async () => {
  const { owner: ana, sid, server } = await serverWithMembers(srv.url, 0);
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${server.channels[0].id}/messages`, { token: ana.token, body: { content: '**escuro** com `código` e @' + ana.user.username } });
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
  await context.addCookies([{ name: 'session', value: ana.token, url: srv.url }]);
  const a = await context.newPage();
  await a.goto(`${srv.url}/app`);
  await a.waitForSelector('.message strong');
  const colors = () => a.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
  assert.deepEqual(await colors(), ['rgb(23, 25, 26)', 'rgb(236, 235, 231)'], 'dark, from the system');
  await shoot(a, 'chat-dark');
  await a.click('#account-open');
  await a.selectOption('#theme', 'light');
  assert.deepEqual(await colors(), ['rgb(246, 245, 242)', 'rgb(29, 28, 26)'], 'light, chosen');
  await a.reload();
  await a.waitForSelector('.message strong');
  assert.deepEqual(await colors(), ['rgb(246, 245, 242)', 'rgb(29, 28, 26)'], 'the choice is kept');
  await a.click('#account-open');
  await a.selectOption('#theme', '');
  assert.deepEqual(await colors(), ['rgb(23, 25, 26)', 'rgb(236, 235, 231)'], 'back to the system');
  await context.close();
});

test('reply: the answered message is quoted above the composer, the reply shows it, and its quote leads back to it', async () => {
  const roomy = await startServer({ args: ['--rate-limit-scale', '100'] });
  try {
    const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(roomy.url, 1);
    const cid = server.channels[0].id;
    const first = (await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: bia.token, body: { content: 'a pergunta lá de cima' } })).body.message;
    for (let i = 1; i <= 60; i++) // the question leaves the newest page
      await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: bia.token, body: { content: `conversa ${i}` } });
    const a = await openApp(ana, DESKTOP, roomy.url);
    await a.waitForSelector('.message:has-text("conversa 60")');
    await messageAction(a, '.message:has-text("conversa 60")', 'Responder');
    await a.waitForSelector('#reply-bar:not([hidden]):has-text("Respondendo a")');
    await a.press('#text', 'Escape');
    assert.equal(await a.isHidden('#reply-bar'), true, 'Esc gives up');
    // Reply to the question, reached by the history API's around.
    await a.evaluate((m) => praca.startReply(m), first);
    await a.fill('#text', 'a resposta');
    await a.press('#text', 'Enter');
    await a.waitForSelector('.message:has-text("a resposta") .reply:has-text("a pergunta lá de cima")');
    assert.equal(await a.isHidden('#reply-bar'), true, 'sent: no longer replying');
    assert.equal(await a.locator('.message:has-text("a pergunta lá de cima") >> nth=0').count() > 0, true);
    await a.click('.message:has-text("a resposta") .reply');
    await a.waitForSelector(`#m-${first.id}.flash`);
    assert.ok(await a.evaluate((id) => { const r = document.getElementById(`m-${id}`).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }, first.id), 'scrolled to');
    // A quote renders the answered message's Markdown, its spoiler still hidden.
    const marked = (await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: bia.token, body: { content: '**negrito** e ||o segredo||' } })).body.message;
    await a.waitForSelector('.message:has-text("negrito")');
    await a.evaluate((m) => praca.startReply(m), marked);
    await a.waitForSelector('#reply-bar strong:text-is("negrito")');
    assert.doesNotMatch(await a.textContent('#reply-bar'), /\*\*|\|\|/, 'no raw marks');
    await a.fill('#text', 'entendi');
    await a.press('#text', 'Enter');
    const quote = '.message:has-text("entendi") .reply';
    await a.waitForSelector(`${quote} strong:text-is("negrito")`);
    assert.doesNotMatch(await a.textContent(quote), /\*\*|\|\|/, 'no raw marks');
    assert.equal(await a.$eval(`${quote} .spoiler`, (x) => getComputedStyle(x).color), 'rgba(0, 0, 0, 0)', 'the spoiler stays hidden');
    await shoot(a, 'chat-reply');
    assert.deepEqual(a.problems, []);
    await a.context().close();
  } finally {
    const r = await roomy.stop();
    assert.equal(r.code, 0, roomy.stderr);
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

test('rules are asked for before one speaks; @ suggests members and mentionable roles and mentions them', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const set = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: ana.token, body: { requiresRulesAcceptance: true, rules: 'Sem spam.\nRespeito sempre.' } });
  assert.equal(set.status, 200, set.text);
  const b = await openApp(bia);
  await b.waitForSelector('#composer:not([hidden])');
  await b.fill('#text', 'Oi @' + ana.user.username.slice(0, 3));
  await b.waitForSelector(`#mentions button:has-text("@${ana.user.username}")`);
  await b.click(`#mentions button:has-text("@${ana.user.username}")`);
  assert.equal(await b.inputValue('#text'), `Oi @${ana.user.username} `);
  await b.press('#text', 'Enter');
  await b.waitForSelector('#rules:not([hidden])');
  assert.equal(await b.textContent('#rules-text'), 'Sem spam.\nRespeito sempre.');
  await shoot(b, 'chat-rules');
  await b.click('#rules-accept');
  await b.waitForSelector(`.message:has-text("Oi @${ana.user.username}")`);
  assert.ok(await b.isHidden('#rules'));
  const cid = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.channels[0].id;
  const { messages } = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token })).body;
  assert.deepEqual(messages.at(-1).mentions, [ana.user.id], 'a real mention');

  // ":" and two letters offer emoji by name, as on Discord; one chosen replaces what was typed.
  await b.fill('#text', 'que :fo');
  await b.waitForSelector('#mentions button:has-text("🔥 :fogo:")');
  await b.click('#mentions button:has-text("🔥 :fogo:")');
  assert.equal(await b.inputValue('#text'), 'que 🔥 ');
  await b.fill('#text', '');
  // Mentionable roles are offered after the members; a role nobody may mention is not.
  const role = (await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: ana.token, body: { name: 'Moderação', mentionable: true } })).body.role;
  await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: ana.token, body: { name: 'Mordomos' } });
  await b.waitForFunction(() => praca.chat.roles.length === 3); // SERVER_UPDATE read the server again
  await b.fill('#text', 'Chamando @mo');
  await b.waitForSelector('#mentions button:has-text("@Moderação · cargo")');
  assert.equal(await b.locator('#mentions button:has-text("Mordomos")').count(), 0);
  assert.equal(await b.locator('#mentions button:has-text("@everyone")').count(), 0, 'Bia may not mention everyone');
  await b.click('#mentions button:has-text("@Moderação")');
  assert.equal(await b.inputValue('#text'), 'Chamando @Moderação ');
  await b.press('#text', 'Enter');
  await b.waitForSelector('.message:has-text("Chamando @Moderação")');
  const after = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token })).body.messages;
  assert.deepEqual(after.at(-1).mentionedRoleIds, [role.id]);

  // A timeout is shown, with its reason.
  const until = new Date(Date.now() + 3600_000).toISOString();
  await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${bia.user.id}`, { token: ana.token, body: { timeoutUntil: until, timeoutReason: 'esfriar a cabeça' } });
  await b.reload();
  await b.waitForSelector('#timeout:not([hidden])');
  assert.match(await b.textContent('#timeout'), /Você está suspenso neste servidor até .*\(esfriar a cabeça\): pode ler, mas não enviar/);
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

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
    ['Servidor', 'Canais', 'Cargos', 'Membros', 'Convites', 'Moderação', 'Bots'], 'the owner sees every section');
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

test("a bot's Components V2 layout: a container with text, a section and its button, a separator, media a link when it cannot be shown; the button updates it", async () => {
  const { owner: ana, sid, server } = await serverWithMembers(srv.url, 0);
  const info = await appWithBot(srv.url, ana, { name: 'Placar', intents: ['interactions.receive'] });
  assert.equal((await install(srv.url, ana, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
  const cid = server.channels[0].id;
  const board = (points) => ({
    flags: 32768,
    components: [{ type: 17, accentColor: 0x1f6f5c, components: [
      { type: 10, content: 'Placar da rodada' },
      { type: 9, components: [{ type: 10, content: `Ana: ${points} pontos` }], accessory: { type: 2, style: 1, label: 'Mais um', customId: 'mais' } },
      { type: 14, divider: true },
      { type: 12, items: [{ media: { url: 'https://example.com/jogo.png' }, description: 'Foto do jogo' }] },
      { type: 1, components: [{ type: 2, style: 5, label: 'Regras', url: 'https://example.com/regras' }] },
    ] }],
  });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  bot.on('INTERACTION_CREATE', (i) => {
    if (i.customId === 'mais') api(srv.url, 'POST', `/api/bot/interactions/${i.id}/respond`, { token: info.botToken, body: { type: 'update', data: board(4) } });
  });
  const posted = await api(srv.url, 'POST', `/api/bot/servers/${sid}/channels/${cid}/messages`, { token: info.botToken, body: board(3) });
  assert.equal(posted.status, 200, posted.text);
  const a = await openApp(ana);
  const card = `#m-${posted.body.message.id} .container`;
  await a.waitForSelector(`${card} .text-display:has-text("Placar da rodada")`);
  await a.waitForSelector(`${card} .section:has-text("Ana: 3 pontos") button:has-text("Mais um")`);
  assert.equal(await a.locator(`${card} hr.divider`).count(), 1);
  assert.equal(await a.getAttribute(`${card} .media a`, 'href'), 'https://example.com/jogo.png');
  await a.waitForSelector(`${card} .media a:has-text("🖼 Foto do jogo")`); // the proxy could not fetch it: a link
  assert.deepEqual(await a.$$eval('img[src]', (imgs) => imgs.map((i) => new URL(i.src).origin).filter((o) => o !== location.origin)), [], 'nothing loaded from elsewhere');
  await shoot(a, 'chat-components-v2');
  await a.click(`${card} button:has-text("Mais um")`);
  await a.waitForSelector(`${card} .section:has-text("Ana: 4 pontos")`);
  assert.deepEqual(a.problems, [], 'no script errors or CSP violations');
  await a.context().close();
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

test('threads: listed under their channel and a forum; one begun from a message opens beside its channel on a wide screen, as the room on a phone, live on both pages', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const root = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: ana.token, body: { content: 'um tema' } });
  const forum = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'ideias', type: 'forum' } });
  const post = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${forum.body.channel.id}/threads`, { token: ana.token, body: { name: 'Uma ideia', content: 'que tal?' } });
  assert.equal(post.status, 201, post.text);
  assert.equal(post.body.channel.originMessageId, null, 'a forum post began from no message');
  const a = await openApp(ana);
  const b = await openApp(bia);
  await b.waitForSelector('.threads button.thread:has-text("Uma ideia")');
  await messageAction(a, `#m-${root.body.message.id}`, 'Thread');
  await answer(a, 'Criar thread', { text: 'Conversa' });
  // 1280 px: the thread opens beside #geral, which stays the room.
  await a.waitForSelector('#thread-panel:not([hidden]) #thread-title:has-text("Conversa")');
  await a.waitForSelector('#thread-origin:has-text("um tema")');
  await a.waitForSelector('#thread-empty:not([hidden])');
  assert.equal(await a.textContent('#channel-title'), '# geral');
  const box = (p, sel) => p.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right }; });
  assert.ok((await box(a, '#thread-panel')).left >= (await box(a, '#messages')).right, 'beside the conversation');
  assert.equal(await a.evaluate(() => document.activeElement.id), 'thread-text', 'the answer box is ready');
  await a.fill('#thread-text', 'na thread');
  await a.press('#thread-text', 'Enter');
  await a.waitForSelector('#thread-messages .message:has-text("na thread")');
  await a.waitForSelector(`#m-${root.body.message.id} .thread-chip:has-text("Conversa")`);
  assert.equal(await a.locator('#messages .message:has-text("na thread")').count(), 0, 'not in the channel');
  await shoot(a, 'chat-thread-beside');
  // Bia, in #geral: the chip under the message it began from, after SERVER_UPDATE.
  await b.click(`#channels button[data-id="${geral}"]`);
  await b.waitForSelector(`#m-${root.body.message.id} .thread-chip:has-text("Conversa")`);
  await b.click(`#m-${root.body.message.id} .thread-chip`);
  await b.waitForSelector('#thread-messages .message:has-text("na thread")');
  await a.fill('#thread-text', 'de novo');
  await a.click('#thread-composer button[type=submit]');
  await b.waitForSelector('#thread-messages .message:has-text("de novo")'); // live, with its threadId
  assert.equal(await a.locator('#thread-messages .message:has-text("de novo")').count(), 1, 'shown once: the answer and its event');
  // An action on a message beside acts on the thread: a reaction reaches the other page.
  const beside = b.locator('#thread-messages .message:has-text("de novo")');
  await beside.hover();
  await beside.locator('.actions-inline button.reaction.add').click();
  await b.waitForSelector('#emoji-picker[open]');
  await b.fill('#emoji-search', 'joinha');
  await b.click('#emoji-grid button:has-text("👍")');
  await a.waitForSelector('#thread-messages .message:has-text("de novo") button.reaction:has-text("👍 1")');
  // "Abrir como sala": the thread becomes the room, the side column closes.
  await b.click('#thread-full');
  await b.waitForSelector('#channel-title:has-text("↳ Conversa (em #geral)")');
  await b.waitForSelector('#thread-panel', { state: 'hidden' });
  await b.waitForSelector('#messages .message:has-text("de novo")');
  await b.click('.threads button.thread:has-text("Conversa")');
  await b.waitForSelector('.message:has-text("na thread")');
  await b.click(`#channels button[data-id="${geral}"]`);
  await b.waitForSelector('.message:has-text("um tema")');
  assert.equal(await b.locator('.message:has-text("na thread")').count(), 0, 'not in the parent');
  // A phone: the chip opens the thread as the room.
  const phone = await openApp(bia, PHONE);
  await phone.goto(`${srv.url}/app#server=${sid}&channel=${geral}`);
  await phone.click(`#m-${root.body.message.id} .thread-chip`);
  await phone.waitForSelector('#channel-title:has-text("↳ Conversa (em #geral)")');
  await phone.waitForSelector('#messages .message:has-text("de novo")');
  assert.equal(await phone.isHidden('#thread-panel'), true);
  await shoot(phone, 'chat-thread-phone');
  assert.deepEqual(phone.problems, []);
  await phone.context().close();
  await shoot(b, 'chat-threads');
  const listed = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${geral}/threads`, { token: bia.token });
  assert.deepEqual(listed.body.threads.map((t) => [t.name, t.type, t.parentId]), [['Conversa', 'thread', geral]]);
  const voice = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'voz', type: 'voice' } });
  const refused = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${voice.body.channel.id}/threads`, { token: bia.token });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error, 'cid: só canais de texto e fóruns têm threads');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
});

test('a forum: its posts listed, a new post made from the page and opened', async () => {
  const { owner: ana, sid, members: [bia] } = await serverWithMembers(srv.url, 1);
  const forum = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'ideias', type: 'forum' } });
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${forum.body.channel.id}/threads`, { token: ana.token, body: { name: 'Primeira', content: 'oi' } });
  const b = await openApp(bia);
  await b.click('#channels button.forum:has-text("ideias")');
  await b.waitForSelector('#forum:not([hidden]) #forum-posts button:has-text("Primeira")');
  await b.fill('#post-title', 'Minha ideia');
  await b.fill('#post-content', 'um parque na praça');
  await shoot(b, 'chat-forum');
  await b.click('#forum-form button[type=submit]');
  await b.waitForSelector('#channel-title:has-text("↳ Minha ideia (em #ideias)")');
  await b.waitForSelector('.message:has-text("um parque na praça")');
  const posts = await api(srv.url, 'GET', `/api/servers/${sid}/channels/${forum.body.channel.id}/threads`, { token: ana.token });
  assert.deepEqual(posts.body.threads.map((t) => t.name), ['Minha ideia', 'Primeira']);
  await b.click('#channels button.forum:has-text("ideias")');
  await b.click('#forum-posts button:has-text("Primeira")');
  await b.waitForSelector('.message:has-text("oi")');
  // A server opening slowly does not take the person away from the forum they clicked meanwhile.
  let slowed;
  const answered = new Promise((r) => { slowed = r; });
  await b.route('**/api/servers', async (route) => { await quiet(800); await route.continue(); slowed(); }, { times: 1 });
  await b.click(`#servers button[data-id="${sid}"]`);
  await b.click('#channels button.forum:has-text("ideias")');
  await answered;
  await quiet(300); // the answer arrives, and the server's opening goes on from there
  assert.equal(await b.isVisible('#forum-form button[type=submit]'), true, 'the forum stays open');
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

test('direct messages: one started from a message, written and answered live, listed with an unread mark, opened again from the address', async () => {
  const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: bia.token, body: { content: 'alguém aí?' } });
  const a = await openApp(ana);
  const b = await openApp(bia);
  await b.waitForSelector('#no-dms:not([hidden])', { state: 'attached' }); // said on a phone's list; the rail shows none
  await a.waitForSelector('.message:has-text("alguém aí?")');
  await messageAction(a, '.message:has-text("alguém aí?")', 'Conversar');
  await a.waitForSelector(`#channel-title:has-text("@ ${bia.user.displayName}")`);
  await a.waitForSelector(`#dms button[aria-current=true]:has-text("${bia.user.displayName}")`);
  assert.equal(await a.locator('#settings-open:not([hidden]), #invite-make:not([hidden])').count(), 0, "no server's buttons in a DM");
  await a.fill('#text', 'oi Bia, tudo bem?');
  await a.click('#composer button[type=submit]');
  await a.waitForSelector('.message:has-text("oi Bia, tudo bem?")');
  // Bia's page hears of a conversation it did not list, and marks it.
  await b.waitForSelector(`#dms button.unread:has-text("${ana.user.displayName}")`);
  await shoot(b, 'chat-dm-unread');
  await b.click(`#dms button:has-text("${ana.user.displayName}")`);
  await b.waitForSelector('.message:has-text("oi Bia, tudo bem?")');
  assert.equal(await b.locator('#dms button.unread').count(), 0, 'read once opened');
  assert.deepEqual(await menuOf(b, '.message:has-text("oi Bia, tudo bem?")'), ['Reagir', 'Responder', 'Fixar', 'Copiar texto', 'Denunciar'],
    "someone else's message: react, answer, pin, copy");
  // A reaction and a pin in a DM, as in a channel, live on the other page.
  await messageAction(b, '.message:has-text("oi Bia, tudo bem?")', 'Reagir');
  await b.waitForSelector('#emoji-picker[open]');
  await b.click('#emoji-grid button:has-text("👍")');
  await a.waitForSelector('.message:has-text("oi Bia, tudo bem?") button.reaction[aria-pressed=false]:has-text("👍 1")');
  await messageAction(b, '.message:has-text("oi Bia, tudo bem?")', 'Fixar');
  await a.waitForSelector('.message:has-text("oi Bia, tudo bem?") .pin-tag');
  await a.click('#pins-open');
  await a.waitForSelector('#pins .pin:has-text("oi Bia, tudo bem?")');
  await a.click('#pins .pin button:has-text("Desafixar")');
  await b.waitForSelector('.message:has-text("oi Bia, tudo bem?") .pin-tag', { state: 'detached' });
  await b.fill('#text', 'tudo otimo!');
  await b.click('#composer button[type=submit]');
  await a.waitForSelector('.message:has-text("tudo otimo!")'); // live on Ana's open DM
  // ↑ in the empty composer edits one's last message; the other page follows.
  await b.waitForSelector('.message:has-text("tudo otimo!") .actions-inline button[aria-label="Editar esta mensagem"]');
  await b.focus('#text');
  await b.keyboard.press('ArrowUp');
  await b.fill('.message textarea.edit', 'tudo ótimo!');
  await b.press('.message textarea.edit', 'Enter');
  await a.waitForSelector('.message:has-text("tudo ótimo!"):has-text("(editada)")');
  // Back in the composer once the edit's own answer is in (the other page may hear it first).
  await b.waitForFunction(() => document.activeElement && document.activeElement.id === 'text');
  // Deleting one's own DM message asks first, then goes from both pages.
  await b.fill('#text', 'mensagem errada');
  await b.press('#text', 'Enter');
  await a.waitForSelector('.message:has-text("mensagem errada")');
  await messageAction(b, '.message:has-text("mensagem errada")', 'Apagar');
  await answer(b, 'Apagar');
  await a.waitForSelector('.message:has-text("mensagem errada")', { state: 'detached' });
  await b.waitForSelector('.message:has-text("mensagem errada")', { state: 'detached' });
  await b.fill('#text', '/eco x=1');
  await b.click('#composer button[type=submit]');
  await b.waitForSelector('#send-error:has-text("Comandos só funcionam nos canais de um servidor.")');
  await shoot(a, 'chat-dm');
  // The address names the DM: a reload opens it again; a server opens as before.
  await a.reload();
  await a.waitForSelector('#live.on');
  await a.waitForSelector('.message:has-text("tudo ótimo!")');
  await a.click(`#servers button[data-id="${sid}"]`);
  await a.waitForSelector('.message:has-text("alguém aí?")');
  assert.equal(await a.locator('#dms button[aria-current=true]').count(), 0);
  const dms = (await api(srv.url, 'GET', '/api/users/@me/dms', { token: ana.token })).body.dms;
  assert.deepEqual(dms.map((d) => d.userId), [bia.user.id]);
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
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

test('unread is kept on the server: marks shown on opening the page, cleared by reading, still cleared after a reload', async () => {
  const { owner: ana, members: [bia], sid: first } = await serverWithMembers(srv.url, 1);
  const other = (await api(srv.url, 'POST', '/api/servers', { token: ana.token, body: { name: 'Outro' } })).body;
  const code = (await api(srv.url, 'POST', `/api/servers/${other.server.id}/invites`, { token: ana.token, body: {} })).body.code;
  assert.equal((await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: bia.token })).status, 200);
  await api(srv.url, 'POST', `/api/servers/${other.server.id}/channels/${other.channels[0].id}/messages`, { token: ana.token, body: { content: 'enquanto você dormia' } });
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: bia.user.id } })).body.channel;
  await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: ana.token, body: { content: 'oi, sumida' } });
  const b = await openApp(bia);
  await b.waitForSelector(`#servers button[data-id="${first}"][aria-current=true]`);
  await b.waitForSelector(`#servers button.unread[data-id="${other.server.id}"]`);
  await b.waitForSelector(`#dms button.unread[data-id="${dm.id}"]`);
  await b.waitForFunction(() => document.title === '(2) Praça', null, { timeout: 5000 }); // a channel and a DM wait
  await shoot(b, 'chat-unread');
  await b.click(`#servers button[data-id="${other.server.id}"]`);
  await b.waitForSelector('.message:has-text("enquanto você dormia")');
  await b.waitForFunction(() => document.title === '(1) Praça', null, { timeout: 5000 });
  const unread = async () => (await api(srv.url, 'GET', '/api/users/@me/unread', { token: bia.token })).body.unread.map((u) => u.channelId);
  await eventually(async () => JSON.stringify(await unread()) === JSON.stringify([dm.id]) || unread(), 5000, 'the channel read, marked on the server');
  await b.reload();
  await b.waitForSelector('#live.on');
  await b.waitForSelector(`#dms button.unread[data-id="${dm.id}"]`);
  assert.equal(await b.locator(`#servers button.unread[data-id="${other.server.id}"]`).count(), 0, 'read before the reload');
  await b.click(`#dms button[data-id="${dm.id}"]`);
  await b.waitForSelector('.message:has-text("oi, sumida")');
  await b.waitForFunction(() => document.title === 'Praça', null, { timeout: 5000 });
  await eventually(async () => (await unread()).length === 0 || unread(), 5000, 'the DM read');
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

test('a reload and a new login restore the room without reading another: the first channel keeps its unread mark', async () => {
  const { owner: ana, members: [bia], sid, server } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const avisos = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'avisos' } })).body.channel.id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${avisos}/messages`, { token: ana.token, body: { content: 'leia-me' } });
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: ana.token, body: { content: 'no geral' } });
  const marks = [];
  const watch = (page) => page.on('request', (r) => { if (r.method() === 'PUT' && r.url().includes('/read-states/')) marks.push(r.url().split('/').pop()); });
  // Bia was last in #avisos: the page opens there, and #geral stays unread, on the page and on the server.
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.addCookies([{ name: 'session', value: bia.token, url: srv.url }]);
  const b = await context.newPage();
  watch(b);
  await b.goto(`${srv.url}/app#server=${sid}&channel=${avisos}`);
  await b.waitForSelector('.message:has-text("leia-me")');
  await b.waitForSelector(`#channels button.unread[data-id="${geral}"]`);
  const unread = async () => (await api(srv.url, 'GET', '/api/users/@me/unread', { token: bia.token })).body.unread.map((u) => u.channelId);
  await eventually(async () => JSON.stringify(await unread()) === JSON.stringify([geral]), 5000, '#avisos read, #geral not');
  await b.reload();
  await b.waitForSelector('.message:has-text("leia-me")');
  await b.waitForSelector(`#channels button.unread[data-id="${geral}"]`);
  await quiet(1500); // a mark would leave within a second
  assert.deepEqual([...new Set(marks)], [avisos], 'only the room shown was marked read');
  assert.deepEqual(await unread(), [geral]);
  await context.close();
  // A new login opens the first channel, and another channel's mark stays.
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${avisos}/messages`, { token: ana.token, body: { content: 'mais um aviso' } });
  const fresh = await openApp(bia);
  await fresh.waitForSelector('.message:has-text("no geral")');
  await fresh.waitForSelector(`#channels button.unread[data-id="${avisos}"]`);
  await eventually(async () => JSON.stringify(await unread()) === JSON.stringify([avisos]), 5000, '#geral read once shown, #avisos not');
  assert.deepEqual(fresh.problems, []);
  await fresh.context().close();
});

test('the outbox: a send without a network waits, shown pending across a reload, and goes once when it can; an answer lost is not a second message', async () => {
  const { owner: ana, members: [bia], sid, server } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const a = await openApp(ana);
  const b = await openApp(bia);
  await commandsReady(a, 0);
  // The page's sends fail as a dead network makes them fail (the socket may well stay up).
  let mode = 'down';
  const sends = [];
  await a.context().route('**/api/servers/*/channels/*/messages', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    sends.push(JSON.parse(route.request().postData()));
    if (mode === 'down') return route.abort('internetdisconnected');
    if (mode === 'lose-answer') { await route.fetch(); mode = 'up'; return route.abort('connectionreset'); } // made, answer lost
    return route.continue();
  });
  await a.fill('#text', 'sem rede');
  await a.press('#text', 'Enter');
  await a.waitForSelector('.outbox-item:has-text("sem rede") .outbox-state:has-text("Não enviada")');
  assert.equal(await a.inputValue('#text'), '', 'the composer is free for the next one');
  assert.equal(await a.locator('#send-error:visible').count(), 0, 'no browser text anywhere');
  assert.doesNotMatch(await a.textContent('body'), /Failed to fetch/);
  await shoot(a, 'chat-outbox');
  // Kept across a reload, still pending.
  await a.reload();
  await a.waitForSelector('#live.on');
  await a.waitForSelector('.outbox-item:has-text("sem rede")');
  // The network comes back with the answer lost once: the retry's nonce makes it one message.
  mode = 'lose-answer';
  await a.click('.outbox-item:has-text("sem rede") button:has-text("Tentar agora")');
  await b.waitForSelector('.message:has-text("sem rede")');
  await a.waitForSelector('.outbox-item', { state: 'detached', timeout: 15000 });
  await a.waitForSelector('.message:has-text("sem rede")');
  const nonces = new Set(sends.map((x) => x.nonce));
  assert.equal(nonces.size, 1, 'every try carried the same nonce');
  assert.ok(sends.length >= 3 && sends.every((x) => x.enforceNonce === true));
  const listed = (await api(srv.url, 'GET', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token })).body.messages;
  assert.equal(listed.filter((m) => m.content === 'sem rede').length, 1, 'one message');
  await quiet(300);
  assert.equal(await b.locator('.message:has-text("sem rede")').count(), 1);
  assert.equal(await a.locator('.message:has-text("sem rede")').count(), 1);
  // Cancelled, it never goes.
  mode = 'down';
  await a.fill('#text', 'melhor não');
  await a.press('#text', 'Enter');
  await a.click('.outbox-item:has-text("melhor não") button[aria-label="Cancelar o envio"]');
  mode = 'up';
  await a.reload();
  await a.waitForSelector('#live.on');
  await quiet(500);
  assert.equal(await a.locator('.outbox-item').count(), 0);
  assert.equal(sends.filter((x) => x.content === 'melhor não').length, 1, 'tried once, then cancelled');
  assert.deepEqual(a.problems.filter((p) => !/Failed to load resource/.test(p)), []);
  await a.context().close();
  await b.context().close();
});

test('a person banned or kicked leaves the server on their open page at once, told why', async () => {
  const { owner: ana, members: [bia], sid } = await serverWithMembers(srv.url, 1);
  const other = (await api(srv.url, 'POST', '/api/servers', { token: ana.token, body: { name: 'Outro lugar' } })).body;
  const code = (await api(srv.url, 'POST', `/api/servers/${other.server.id}/invites`, { token: ana.token, body: {} })).body.code;
  await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: bia.token });
  const b = await openApp(bia);
  await b.click(`#servers button[data-id="${sid}"]`);
  await b.waitForSelector(`#servers button[data-id="${sid}"][aria-current=true]`);
  await b.waitForSelector('#composer:not([hidden])');
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${bia.user.id}`, { token: ana.token, body: { reason: 'spam' } })).status, 200);
  await b.waitForSelector(`#servers button[data-id="${sid}"]`, { state: 'detached' });
  await b.waitForSelector('#toasts .toast:has-text("Você foi banido de Servidor de teste.")');
  await b.waitForSelector(`#servers button[data-id="${other.server.id}"][aria-current=true]`);
  await b.waitForSelector('#server-title:text-is("Outro lugar")');
  // Kicked from the last one: the page is left with no server.
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${other.server.id}/members/${bia.user.id}`, { token: ana.token })).status, 200);
  await b.waitForSelector(`#servers button[data-id="${other.server.id}"]`, { state: 'detached' });
  await b.waitForSelector('#live.on');
  assert.equal(await b.locator('#servers button').count(), 0);
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

test('mentions are counted per room and server, live and after a reload, and cleared by reading', async () => {
  const { owner: ana, members: [bia], sid, server } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const avisos = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'avisos' } })).body.channel.id;
  const other = (await api(srv.url, 'POST', '/api/servers', { token: ana.token, body: { name: 'Outro' } })).body;
  const code = (await api(srv.url, 'POST', `/api/servers/${other.server.id}/invites`, { token: ana.token, body: {} })).body.code;
  await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: bia.token });
  const say = (where, cid, content) => api(srv.url, 'POST', `/api/servers/${where}/channels/${cid}/messages`, { token: ana.token, body: { content } });
  const b = await openApp(bia);
  await b.click(`#servers button[data-id="${sid}"]`);
  await b.waitForSelector(`#channels button[data-id="${geral}"][aria-current=true]`);
  await say(sid, avisos, `@${bia.user.username} olha isto`);
  await say(sid, avisos, 'sem menção');
  await say(sid, avisos, `@${bia.user.username} e isto`);
  await say(other.server.id, other.channels[0].id, '@everyone reunião');
  await b.waitForSelector(`#channels button[data-id="${avisos}"] .badge:text-is("2")`);
  await b.waitForSelector(`#servers button[data-id="${other.server.id}"] .badge:text-is("1")`);
  await b.waitForSelector(`#servers button[data-id="${sid}"] .badge:text-is("2")`); // its rooms' mentions, open or not
  await shoot(b, 'chat-mentions');
  await b.reload();
  await b.waitForSelector('#live.on');
  await b.waitForSelector(`#servers button[data-id="${other.server.id}"] .badge:text-is("1")`);
  await b.click(`#servers button[data-id="${sid}"]`);
  await b.waitForSelector(`#channels button[data-id="${avisos}"] .badge:text-is("2")`);
  await b.click(`#channels button[data-id="${avisos}"]`);
  await b.waitForSelector('.message:has-text("e isto")');
  assert.equal(await b.locator(`#channels button[data-id="${avisos}"] .badge`).count(), 0, 'read, no count');
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

test('a channel, or the whole server, is marked read without opening it, and stays read after a reload', async () => {
  const { owner: ana, members: [bia], sid, server } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const make = async (name) => (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name } })).body.channel.id;
  const [avisos, jogos, musica] = [await make('avisos'), await make('jogos'), await make('musica')];
  const b = await openApp(bia);
  await b.waitForSelector(`#channels button[data-id="${geral}"][aria-current=true]`);
  for (const cid of [avisos, jogos, musica])
    await api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: 'novidade' } });
  await b.waitForFunction(() => document.querySelectorAll('#channels button.channel.unread').length === 3);
  assert.equal(await b.isVisible('#server-read'), true);
  await shoot(b, 'chat-mark-read');
  await b.click('#channels button[aria-label="Marcar avisos como lida"]');
  await b.waitForFunction(() => document.querySelectorAll('#channels button.channel.unread').length === 2);
  assert.equal(await b.locator('#channels button[aria-label="Marcar avisos como lida"]').count(), 0);
  const unread = async () => (await api(srv.url, 'GET', '/api/users/@me/unread', { token: bia.token })).body.unread.map((u) => u.channelId).sort();
  await eventually(async () => JSON.stringify(await unread()) === JSON.stringify([jogos, musica].sort()) || unread(), 5000, 'avisos read on the server');
  await b.click('#server-read');
  await b.waitForFunction(() => document.querySelectorAll('#channels button.channel.unread').length === 0);
  assert.equal(await b.isHidden('#server-read'), true);
  await eventually(async () => (await unread()).length === 0 || unread(), 5000, 'all read on the server');
  await b.reload();
  await b.waitForSelector('#live.on');
  await b.waitForSelector(`#channels button[data-id="${musica}"]`);
  assert.equal(await b.locator('#channels button.channel.unread').count(), 0);
  assert.deepEqual(b.problems, []);
  await b.context().close();
});

test('who is typing shows above the composer on the other page, and goes when the message comes; a /command says nothing', async () => {
  const { owner: ana, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const a = await openApp(ana);
  const b = await openApp(bia);
  for (const p of [a, b]) await p.waitForSelector(`#channel-title:has-text("${server.channels[0].name}")`);
  await a.fill('#text', '/eco');
  await quiet(500);
  assert.equal(await b.textContent('#typing'), '', 'a command is not announced');
  await a.fill('#text', 'já vou escrever');
  await b.waitForSelector(`#typing:has-text("${ana.user.displayName} está digitando…")`);
  await shoot(b, 'chat-typing');
  await a.click('#composer button[type=submit]');
  await b.waitForSelector('.message:has-text("já vou escrever")');
  assert.equal(await b.textContent('#typing'), '', 'gone with the message');
  for (const p of [a, b]) {
    assert.deepEqual(p.problems, [], 'no script errors or CSP violations');
    await p.context().close();
  }
});

test('files: an image pasted, its progress, shown on the other page and opened in the viewer; a document as a card', async () => {
  const s = await serverWithMembers(srv.url, 1);
  const ana = s.owner;
  const bia = s.members[0];
  const a = await openApp(ana);
  const b = await openApp(bia);
  await a.waitForSelector('#composer:not([hidden])');
  await b.waitForSelector('#composer:not([hidden])');
  // A picture drawn on a canvas, pasted into the composer as a screenshot would be.
  await a.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 360;
    const g = canvas.getContext('2d');
    const grad = g.createLinearGradient(0, 0, 640, 360);
    grad.addColorStop(0, '#1f6f5c');
    grad.addColorStop(1, '#e8c547');
    g.fillStyle = grad;
    g.fillRect(0, 0, 640, 360);
    g.fillStyle = '#fff';
    g.font = 'bold 48px sans-serif';
    g.fillText('Praça', 240, 200);
    const blob = await new Promise((r) => canvas.toBlob(r, 'image/png'));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], 'captura.png', { type: 'image/png' }));
    document.querySelector('#text').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  });
  await a.waitForSelector('#pending-files:not([hidden]) .pending-file progress');
  assert.equal(await a.textContent('#pending-files .pending-file .name'), 'captura.png');
  await a.fill('#text', 'olha isso');
  await shoot(a, 'chat-file-pending');
  await a.press('#text', 'Enter');
  await a.waitForFunction(() => document.querySelector('#pending-files').hidden);
  // On the other page: the picture in place, at its proportions, from its thumbnail.
  const img = '#messages .message .attachment-image img';
  await b.waitForSelector(img);
  await b.waitForFunction((sel) => { const i = document.querySelector(sel); return i && i.complete && i.naturalWidth > 0; }, img);
  assert.match(await b.getAttribute(img, 'src'), /\/api\/attachments\/.+\/captura\.png\?thumbnail=1$/);
  assert.equal(await b.getAttribute(img, 'width'), '400');
  assert.equal(await b.getAttribute(img, 'height'), '225');
  await b.click('#messages .attachment-image');
  await b.waitForFunction(() => { const i = document.querySelector('#viewer-image'); return document.querySelector('#viewer').open && i.complete && i.naturalWidth === 640; });
  await shoot(b, 'chat-file-viewer');
  await b.keyboard.press('Escape');
  await b.waitForFunction(() => !document.querySelector('#viewer').open);
  await shoot(b, 'chat-file-inline');

  // A document chosen with the button: a card with its name, size and a download link.
  await a.setInputFiles('#file-input', { name: 'notas.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n') });
  await a.waitForSelector('#pending-files .pending-file');
  await a.press('#text', 'Enter');
  const card = '#messages .attachment-card a.name';
  await b.waitForSelector(card);
  assert.equal(await b.textContent(card), 'notas.pdf');
  await shoot(b, 'chat-file-card');
  const href = await b.getAttribute(card, 'href');
  const got = await b.evaluate(async (u) => { const r = await fetch(u); return { status: r.status, disposition: r.headers.get('content-disposition') }; }, href);
  assert.equal(got.status, 200);
  assert.match(got.disposition, /^attachment; filename="notas.pdf"/);
  assert.deepEqual(a.problems, []);
  assert.deepEqual(b.problems, []);
  await a.context().close();
  await b.context().close();
});

test('the API reference as a page: /docs renders docs/api.md with its contents, and fits a phone', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${srv.url}/docs`);
  await page.waitForSelector('#toc a[href="#attachments"]');
  const md = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const sections = md.split('\n').filter((l) => /^#{2,3} /.test(l)).length;
  assert.equal(await page.$$eval('#toc a', (a) => a.length), sections, 'every ## and ### heading in the contents');
  assert.ok(await page.$$eval('.docs-body table', (t) => t.length) >= 10);
  assert.ok(await page.$$eval('.docs-body pre code', (c) => c.length) >= 10);
  // Nothing in the document runs: its text is text.
  assert.equal(await page.$$eval('.docs-body script, .docs-body img', (n) => n.length), 0);
  await page.click('#toc a[href="#attachments"]');
  await page.waitForFunction(() => location.hash === '#attachments' && document.getElementById('attachments').getBoundingClientRect().top < 100);
  // The page is long: the screen's view of it, not all of it.
  await page.screenshot({ path: path.join(SHOTS, 'docs-1280.png') });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: path.join(SHOTS, 'docs-390.png') });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width, 'no sideways scrolling on a phone');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a deferred command: the page shows the bot thinking, then its answer in the same place', async () => {
  const { owner: ana, sid } = await serverWithMembers(srv.url, 0);
  const info = await appWithBot(srv.url, ana, { name: 'Lento', intents: ['interactions.receive'] });
  assert.equal((await install(srv.url, ana, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
  await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [{ name: 'pensa', description: 'Demora um pouco' }] } });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  let interaction = null;
  bot.on('INTERACTION_CREATE', async (i) => {
    await api(srv.url, 'POST', `/api/bot/interactions/${i.id}/respond`, { token: info.botToken, body: { type: 'defer' } });
    interaction = i; // the test answers when it has seen the thinking state
  });
  const a = await openApp(ana);
  await commandsReady(a, 1);
  await a.fill('#text', '/pensa');
  await a.press('#text', 'Enter');
  await a.waitForSelector('.message .thinking:has-text("está pensando")');
  assert.match(await a.textContent('.message .thinking'), /^lento_bot está pensando…$|^Lento está pensando…$/);
  await shoot(a, 'chat-thinking');
  const thinkingId = await a.getAttribute('.message:has(.thinking)', 'data-id');
  // Well past the page's own wait for an answer: the defer was the answer.
  await new Promise((r) => setTimeout(r, 4000));
  assert.equal(await a.isHidden('#send-error'), true, 'no "did not answer" for a deferred command');
  const edit = await api(srv.url, 'PATCH', `/api/interactions/${interaction.id}/${interaction.token}/messages/@original`, { body: { content: 'Pensei: 42' } });
  assert.equal(edit.status, 200, edit.text);
  await a.waitForSelector(`#m-${thinkingId} .content:has-text("Pensei: 42")`);
  assert.equal(await a.$$eval('.message .thinking', (n) => n.length), 0);
  assert.deepEqual(a.problems, []);
  await a.context().close();
});

test('apps on the page: suggestions while an option is typed, a message\'s and a person\'s Apps menu, a denied command absent until the admin allows it in Comandos', async () => {
  const { owner: ana, sid, members: [bob] } = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, ana, { name: 'Guia', intents: ['interactions.receive'] });
  assert.equal((await install(srv.url, ana, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete.status, 200);
  await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [
    { name: 'busca', description: 'Procura uma cidade', options: [{ name: 'termo', description: 'O começo do nome', type: 'string', required: true, autocomplete: true }] },
    { name: 'faxina', description: 'Limpa o canal', defaultMemberPermissions: 0 },
    { type: 'message', name: 'Citar' },
    { type: 'user', name: 'Saudar' }] } });
  const CITIES = ['Salvador', 'Salto', 'Santos', 'Recife'];
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  const respond = (i, body) => api(srv.url, 'POST', `/api/bot/interactions/${i.id}/respond`, { token: info.botToken, body });
  const asked = [];
  const quoted = new Map();
  bot.on('INTERACTION_CREATE', (i) => {
    if (i.type === 'autocomplete') {
      const typed = i.options.find((o) => o.focused).value.toLowerCase();
      asked.push(typed);
      respond(i, { type: 'autocomplete', data: { choices: CITIES.filter((c) => c.toLowerCase().startsWith(typed)).map((c) => ({ name: c, value: c.toLowerCase() })) } });
    } else if (i.commandType === 'message') {
      quoted.set(i.target.id, i.target.content);
      respond(i, { type: 'modal', data: { customId: `citar:${i.target.id}`, title: 'Citar', components: [
        { type: 1, components: [{ type: 3, customId: 'tom', label: 'Em que tom', placeholder: 'Escolha um', options: [{ label: 'Sério', value: 'serio' }, { label: 'Brincando', value: 'brincando' }] }] },
        { type: 1, components: [{ type: 4, customId: 'nota', label: 'Uma nota', style: 2, required: false, maxLength: 200 }] }] } });
    } else if (i.type === 'modal_submit') {
      const v = Object.fromEntries(i.values.map((x) => [x.customId, x.values || x.value]));
      respond(i, { type: 'message', data: { content: `citou (${v.tom[0]}): “${quoted.get(i.customId.slice(6))}” ${v.nota}`.trim() } });
    }
    else if (i.commandType === 'user') respond(i, { type: 'message', data: { content: `olá, ${i.target.user.username}!` } });
    else respond(i, { type: 'message', data: { content: `${i.commandName}: ${i.options.map((o) => o.value).join(' ')}` } });
  });
  const b = await openApp(bob);
  await commandsReady(b, 3);
  const items = () => b.$$eval('#palette .palette-item', (li) => li.map((x) => x.textContent));
  await b.focus('#text');
  await b.keyboard.type('/');
  await b.waitForSelector('#palette:not([hidden])');
  assert.deepEqual(await items(), ['/busca Procura uma cidade'], 'a denied command and menu commands stay out');

  // Suggestions while typing: asked after a pause, never two at once, shown and taken.
  await b.keyboard.type('busca termo=sa', { delay: 40 });
  await b.waitForFunction(() => [...document.querySelectorAll('#palette .palette-item')].map((x) => x.textContent).join() === 'Salvador,Salto,Santos');
  await shoot(b, 'chat-autocomplete');
  await b.keyboard.type('l', { delay: 40 });
  await b.waitForFunction(() => [...document.querySelectorAll('#palette .palette-item')].map((x) => x.textContent).join() === 'Salvador,Salto');
  assert.ok(asked.length <= 3, `asked after pauses, not per key: ${asked}`);
  assert.equal(asked[asked.length - 1], 'sal');
  await b.keyboard.press('Enter');
  assert.equal(await b.inputValue('#text'), '/busca termo:salvador ');
  await b.keyboard.press('Enter');
  await b.waitForSelector('.message:has-text("busca: salvador")');

  // A message's Apps menu runs the message command on it.
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${(await api(srv.url, 'GET', `/api/servers/${sid}`, { token: ana.token })).body.channels[0].id}/messages`, { token: ana.token, body: { content: 'bom dia, gente' } });
  const said = b.locator('.message:has-text("bom dia, gente")');
  await said.hover();
  await said.locator('.actions-inline button.more').click();
  await b.waitForSelector('.menu [role=menuitem]:has-text("Apps › Citar")');
  await shoot(b, 'chat-message-apps');
  await b.click('.menu [role=menuitem]:has-text("Citar")');
  assert.equal(await b.$('.menu'), null, 'the menu closes');
  // Its form: a select and a paragraph; the select is required, so the form waits for it.
  await b.waitForSelector('#modal[open] select');
  await b.fill('#modal textarea', 'com carinho');
  await b.selectOption('#modal select', 'brincando');
  await shoot(b, 'chat-modal-select');
  await b.click('#modal-send');
  await b.waitForSelector('.message:has-text("citou (brincando): “bom dia, gente” com carinho")');

  // A person's menu: a direct message, or a user command on them.
  await b.click(`#people .person[data-id="${ana.user.id}"]`);
  await b.click('.menu [role=menuitem]:has-text("Apps › Saudar")');
  await b.waitForSelector(`.message:has-text("olá, ${ana.user.username}!")`);

  // The admin allows /faxina to bob in Comandos; bob's palette lists it once the page reads again.
  const a = await openApp(ana);
  await openSettings(a, 'Bots');
  const faxina = a.locator('#command-settings details:has(summary:has-text("/faxina"))');
  await faxina.locator('summary').click();
  assert.match(await faxina.locator('summary').textContent(), /Padrão: só administradores · 0 regras/);
  await faxina.locator('select[aria-label="Tipo de alvo"]').selectOption('member');
  await faxina.locator('select[aria-label="Alvo"]').selectOption(bob.user.id);
  await faxina.locator('button:has-text("Adicionar")').click();
  await a.waitForSelector(`#command-settings details:has(summary:has-text("/faxina")) li:has-text("Membro ${bob.user.displayName || bob.user.username}: pode")`);
  await shoot(a, 'chat-commands-settings');
  await b.reload();
  await b.waitForSelector('#live.on');
  await b.waitForFunction(() => praca.chat.commands.some((c) => c.name === 'faxina'));
  assert.deepEqual(a.problems, []);
  assert.deepEqual(b.problems, []);
  await a.context().close();
  await b.context().close();
  bot.close();
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

test('a search answered in part ends with a way to go on, which adds the older results', async () => {
  const { owner: ana, members, sid, server } = await serverWithMembers(srv.url, 2);
  const geral = server.channels[0].id;
  // 30 messages with the word, sent by three people (each within their own send limit).
  for (let i = 0; i < 30; i++) {
    const who = [ana, ...members][i % 3];
    const r = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: who.token, body: { content: `relatório número ${i}` } });
    assert.equal(r.status, 200, r.text);
  }
  const a = await openApp(ana);
  await a.waitForSelector(`#channels button[data-id="${geral}"]`);
  await a.fill('#search', 'relatório');
  await a.press('#search', 'Enter');
  await a.waitForSelector('#search-more');
  assert.equal(await a.textContent('#search-title'), '25+ resultados para “relatório”');
  await a.$eval('#search-more', (b) => b.scrollIntoView({ block: 'nearest' }));
  await shoot(a, 'chat-search-more');
  await a.click('#search-more');
  await a.waitForSelector('#search-title:has-text("30 resultados")');
  assert.equal(await a.$$eval('#search-results li[data-id]', (n) => n.length), 30);
  assert.equal(await a.isVisible('#search-more'), false, 'nothing older');
  assert.deepEqual(a.problems, []);
  await a.context().close();
});

test('a search typed before the server is drawn names its channels and authors once it is', async () => {
  const { owner: ana, sid } = await serverWithMembers(srv.url, 0);
  const avisos = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'avisos' } })).body.channel.id;
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${avisos}/messages`, { token: ana.token, body: { content: 'orçamento aprovado' } });
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.addCookies([{ name: 'session', value: ana.token, url: srv.url }]);
  // The server's tree held back until the results are on screen.
  let release;
  const held = new Promise((r) => { release = r; });
  await context.route((url) => url.pathname === `/api/servers/${sid}` && url.search === '?threads=1', async (route) => { await held; await route.continue(); });
  const a = await context.newPage();
  await a.goto(`${srv.url}/app`);
  await a.waitForSelector('#live.on');
  await a.fill('#search', 'orçamento');
  await a.press('#search', 'Enter');
  await a.waitForSelector('#search-panel:not([hidden]) #search-results li');
  assert.deepEqual(await a.$$eval('#search-results li .head .muted', (n) => n.map((x) => x.textContent)), [], 'no channel known yet');
  assert.equal(await a.textContent('#search-results li .head strong'), 'alguém', 'no member known yet');
  release();
  await a.waitForSelector('#search-results li .head .muted');
  assert.deepEqual(await a.$$eval('#search-results li .head .muted', (n) => n.map((x) => x.textContent)), ['#avisos']);
  assert.equal(await a.textContent('#search-results li .head strong'), ana.user.displayName || ana.user.username);
  await context.close();
});

test('search from the room: results from every channel one can read, each leading to its message', async () => {
  const { owner: ana, sid, server } = await serverWithMembers(srv.url, 0);
  const geral = server.channels[0].id;
  const avisos = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: ana.token, body: { name: 'avisos' } })).body.channel.id;
  const sent = await api(srv.url, 'POST', `/api/servers/${sid}/channels/${avisos}/messages`, { token: ana.token, body: { content: 'A reunião de planejamento é na quinta' } });
  for (let i = 0; i < 5; i++) await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: ana.token, body: { content: `conversa ${i}` } });
  await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: ana.token, body: { content: 'planejamento do trimestre, rascunho' } });
  const a = await openApp(ana);
  // The room drawn, as a person sees it before searching: its channels name the results.
  await a.waitForSelector(`#channels button[data-id="${avisos}"]`);
  await a.fill('#search', 'planejamento');
  await a.press('#search', 'Enter');
  await a.waitForSelector('#search-panel:not([hidden]) #search-results li');
  assert.equal(await a.textContent('#search-title'), '2 resultados para “planejamento”');
  assert.deepEqual(await a.$$eval('#search-results li .head .muted', (n) => n.map((x) => x.textContent)), ['#geral', '#avisos']);
  await shoot(a, 'chat-search');
  await a.click(`#search-results li[data-id="${sent.body.message.id}"] button:has-text("Ir à mensagem")`);
  await a.waitForSelector(`#m-${sent.body.message.id}`);
  assert.match(await a.textContent('#channel-title'), /avisos/);
  assert.equal(await a.isHidden('#search-panel'), true);
  await a.fill('#search', 'inexistente');
  await a.press('#search', 'Enter');
  await a.waitForSelector('#search-title:has-text("Nada encontrado")');
  assert.deepEqual(a.problems, []);
  await a.context().close();
});
