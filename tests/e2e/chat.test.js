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
const { SHOTS, PHONE, DESKTOP, shoot, answer, openSettings, commandsReady, menuOf, messageAction } = pages;

const { P } = require('./permissions');
const sockets = [];
const srv = sharedServer({}, sockets);
const browser = pages.sharedBrowser();
const openApp = (who, viewport = DESKTOP, base = srv.url) => pages.openApp(browser, base, who, viewport);

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
  await a.clock.install(); // the page's wait for an answer is run through, not slept through
  await a.fill('#text', '/pensa');
  await a.press('#text', 'Enter');
  await a.waitForSelector('.message .thinking:has-text("está pensando")');
  assert.match(await a.textContent('.message .thinking'), /^lento_bot está pensando…$|^Lento está pensando…$/);
  await shoot(a, 'chat-thinking');
  const thinkingId = await a.getAttribute('.message:has(.thinking)', 'data-id');
  // Well past the page's own wait for an answer (3.5 s): the defer was the answer.
  await a.clock.runFor(5000);
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

  // Suggestions while typing: asked after a pause, never two at once, shown and taken. The keys
  // go as fast as the browser takes them (a delay between them, on a busy machine, may itself
  // be a pause of the page's 150 ms).
  await b.keyboard.type('busca termo=sa');
  await b.waitForFunction(() => [...document.querySelectorAll('#palette .palette-item')].map((x) => x.textContent).join() === 'Salvador,Salto,Santos');
  await shoot(b, 'chat-autocomplete');
  await b.keyboard.type('l');
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
