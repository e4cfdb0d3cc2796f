// Rooms in /app, in headless Chromium: pins, replies, threads and forums, direct messages,
// unread marks and mentions kept on the server, the outbox, being removed from a server,
// notifications and search. Screenshots land in tests/e2e/screenshots/.
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
  await a.waitForSelector('#thread-messages .message:has-text("de novo")');
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
  const phone = await pages.openApp(browser, srv.url, bia, PHONE, `#server=${sid}&channel=${geral}`);
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
  assert.deepEqual(await menuOf(b, '.message:has-text("oi Bia, tudo bem?")'), ['Reagir', 'Responder', 'Fixar', 'Salvar para depois', 'Encaminhar', 'Lembrar-me', 'Copiar texto', 'Denunciar'],
    "someone else's message: react, answer, pin, save, copy");
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
