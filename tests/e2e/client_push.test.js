// Web Push from the page: allowed to notify, /app subscribes its device through the service
// worker and hands the subscription to the server; a DM then reaches the push service, and the
// worker, handed that push, shows one notification for the room and counts the next. The 🔔 of a
// server and of a channel set what reaches the person, and a muted channel is marked in the list.
// (Headless Chromium has no push service of its own: PushManager is answered by the one the test
// runs, web-push-testing, through a function the page calls.)
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, serverWithMembers, eventually, metric } = require('./helpers');
const { startPushService } = require('./push_service');
const pages = require('./browser');
const { shoot } = pages;

const browser = pages.sharedBrowser();
let srv, push;
test.before(async () => {
  srv = await startServer({ single: true, args: ['--allow-private-endpoints', '--rate-limit-scale', '100', '--metrics-listen', '127.0.0.1:0'] });
  push = await startPushService();
});
test.after(async () => {
  await push.close();
  const r = await srv.stop();
  if (r.code !== 0) throw new Error(`praca exited ${r.code}: ${srv.stderr}`);
});

// who's /app with the service worker allowed, notifications allowed, and PushManager answered by
// the test's push service.
async function openApp(who, { viewport = pages.DESKTOP, locale = 'pt-BR' } = {}) {
  const context = await browser.newContext({ viewport, serviceWorkers: 'allow', locale });
  await context.grantPermissions(['notifications'], { origin: srv.url });
  await context.addCookies([{ name: 'session', value: who.token, url: srv.url }]);
  const subs = [];
  await context.exposeFunction('pushServiceSubscribe', async (key) => {
    const sub = await push.subscribe(key);
    subs.push(sub);
    return { endpoint: sub.endpoint, keys: sub.keys };
  });
  await context.addInitScript(() => {
    if (typeof PushManager === 'undefined') return;
    let current = null;
    const bytes = (b64) => Uint8Array.from(atob(b64.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
    PushManager.prototype.getSubscription = async () => current;
    PushManager.prototype.subscribe = async ({ applicationServerKey }) => {
      const made = await window.pushServiceSubscribe(applicationServerKey);
      current = { endpoint: made.endpoint, options: { applicationServerKey: bytes(applicationServerKey) },
        toJSON: () => made, unsubscribe: async () => { current = null; return true; } };
      return current;
    };
  });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(e.message));
  await page.goto(`${srv.url}/app`);
  await page.waitForSelector('#live.on');
  page.subs = subs;
  return page;
}

// The service worker's registration ID, for the browser's own way of handing it a push.
async function pushTo(page, payload) {
  const cdp = await page.context().newCDPSession(page);
  const regs = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => regs.push(...e.registrations.filter((r) => !r.isDeleted)));
  await cdp.send('ServiceWorker.enable');
  await eventually(() => regs.length > 0, 10000, 'the worker registered');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: srv.url, registrationId: regs[0].registrationId, data: payload });
}

const shown = (page) => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
  .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url, count: n.data && n.data.count })));

test('allowed to notify, the page subscribes its device; a DM reaches it, and the worker shows it by room', async () => {
  const { owner: ana, members: [bia] } = await serverWithMembers(srv.url, 1);
  const page = await openApp(bia);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 20000 });
  await eventually(async () => (await api(srv.url, 'GET', '/api/users/@me/push-subscriptions', { token: bia.token })).body.subscriptions.length === 1,
    20000, 'the device subscribed');
  const [sub] = page.subs;
  const listed = (await api(srv.url, 'GET', '/api/users/@me/push-subscriptions', { token: bia.token })).body.subscriptions;
  assert.equal(listed[0].endpoint, sub.endpoint);
  // Ana writes to Bia: the push service gets it, encrypted for this device.
  const dm = (await api(srv.url, 'POST', '/api/users/@me/dms', { token: ana.token, body: { userId: bia.user.id } })).body.channel;
  for (const text of ['Oi, Bia!', 'Tem um minuto?'])
    assert.equal((await api(srv.url, 'POST', `/api/dms/${dm.id}/messages`, { token: ana.token, body: { content: text } })).status, 200);
  await eventually(() => push.messages(sub).length === 2, 5000, 'two pushes');
  await eventually(async () => (await metric(srv, 'praca_web_push_requests_total', 'outcome="accepted"')) === 2, 5000, 'counted');
  assert.equal(await metric(srv, 'praca_web_push_messages_total', 'outcome="queued"'), 2);
  assert.equal(await metric(srv, 'praca_web_push_gone_total'), 0);
  // The worker, handed both as the browser would, shows one notification for the room.
  const [n1, n2] = push.messages(sub);
  await pushTo(page, JSON.stringify(n1));
  await pushTo(page, JSON.stringify(n2));
  await eventually(async () => (await shown(page)).some((n) => n.count === 2), 5000, 'the room\'s notification counted twice');
  const all = await shown(page);
  assert.equal(all.length, 1, JSON.stringify(all));
  assert.deepEqual(all[0], { title: ana.user.displayName, body: '2 mensagens novas\nTem um minuto?', tag: dm.id, url: `/app#dm=${dm.id}`, count: 2 });
  // Signing out forgets the device.
  await page.evaluate(async () => { const m = await import('/static/chat-push.js'); await m.forgetDevice(); });
  assert.deepEqual((await api(srv.url, 'GET', '/api/users/@me/push-subscriptions', { token: bia.token })).body.subscriptions, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the 🔔 of a server and of a channel set what reaches the person; a muted channel is marked', async () => {
  const { sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const page = await openApp(bia);
  await page.click('#server-notify');
  await page.waitForSelector('dialog.ask[open]');
  assert.match(await page.textContent('dialog.ask[open] h2'), /Notificações de Servidor de teste/);
  assert.equal(await page.isChecked('#notify-level-mentions'), true, 'a server tells mentions by default');
  await page.check('#notify-level-all');
  await page.check('#notify-everyone');
  await shoot(page, 'notify-server');
  await page.click('dialog.ask[open] button:text-is("Salvar")');
  await page.waitForSelector('dialog.ask', { state: 'detached' });
  const mine = async () => (await api(srv.url, 'GET', '/api/users/@me/notification-settings', { token: bia.token })).body.settings;
  await eventually(async () => (await mine())[sid]?.level === 'all', 5000, 'the server set to all');
  assert.equal((await mine())[sid].suppressEveryone, true);
  // The channel: muted for 8 hours, then shown muted in the list.
  await page.click('#channel-notify');
  await page.waitForSelector('dialog.ask[open] #notify-mute');
  assert.match(await page.textContent('label[for="notify-level-default"]'), /Como o servidor \(Todas as mensagens\)/);
  await page.selectOption('#notify-mute', '8');
  await shoot(page, 'notify-channel');
  await page.click('dialog.ask[open] button:text-is("Salvar")');
  await page.waitForSelector(`#channels button[data-id="${cid}"].muted-room`);
  const until = (await mine())[cid].mutedUntil;
  assert.ok(until > Date.now() + 7.9 * 3600 * 1000 && until < Date.now() + 8.1 * 3600 * 1000, String(until));
  assert.equal(await page.getAttribute(`#channels button[data-id="${cid}"]`, 'title'), 'Silenciado');
  // Opened again, it says until when.
  await page.click('#channel-notify');
  await page.waitForSelector('dialog.ask[open] #notify-mute');
  assert.equal(await page.inputValue('#notify-mute'), 'keep');
  assert.match(await page.textContent('#notify-mute option[value="keep"]'), /^Silenciado até /);
  await page.selectOption('#notify-mute', '0');
  await page.click('dialog.ask[open] button:text-is("Salvar")');
  await page.waitForSelector(`#channels button[data-id="${cid}"]:not(.muted-room)`);
  assert.equal((await mine())[cid], undefined);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('in English, the dialog speaks English', async () => {
  const { members: [bia] } = await serverWithMembers(srv.url, 1);
  const page = await openApp(bia, { locale: 'en-US' });
  await page.click('#server-notify');
  await page.waitForSelector('dialog.ask[open]');
  assert.match(await page.textContent('dialog.ask[open]'), /Notify me of.*All messages.*Only mentions.*Nothing/s);
  assert.match(await page.textContent('dialog.ask[open]'), /Suppress @everyone and @here/);
  await shoot(page, 'notify-server-en');
  await page.keyboard.press('Escape');
  await page.context().close();
});
