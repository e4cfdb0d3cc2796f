// The app's service worker (served at /sw.js with this build's version and files set in).
//  - The shell: /app and every static file, kept per version (praca-shell-VERSION); a new
//    version installs beside the old one and waits until the page says to take over, then the
//    old one's files are deleted.
//  - /app: from the network, or the kept one without it. Static files: the kept ones.
//  - What the page read last (the account, the servers, a room's newest messages, the
//    conversations, unread counts): from the network, a copy kept (praca-data); without a
//    network, the copy, so the last rooms read show, read only. Forgotten on sign-out and on
//    any 401.
//  - Everything else (writes, the gateway, history further back) goes to the network as it is.
const VERSION = '__PRACA_VERSION__';
const FILES = [__PRACA_FILES__];
const SHELL = `praca-shell-${VERSION}`;
const DATA = 'praca-data';
const ROOMS_KEPT = 20; // rooms whose newest messages are kept

// GET routes whose last answer is kept for reading without a network.
const KEPT = [
  /^\/api\/users\/@me$/, /^\/api\/users\/@me\/(dms|unread|blocks)$/, /^\/api\/servers$/,
  /^\/api\/servers\/[^/]+$/, /^\/api\/servers\/[^/]+\/(members|commands)$/,
];
const ROOM = /^\/api\/(servers\/[^/]+\/channels|dms)\/[^/]+\/messages$/;

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(SHELL).then((c) => c.addAll(['/app', ...FILES])));
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith('praca-shell-') && key !== SHELL) await caches.delete(key);
    await self.clients.claim();
  })());
});

// From the page: take over (a new version), or what it read before this worker was there.
self.addEventListener('message', (e) => {
  if (e.data === 'take-over') self.skipWaiting();
  if (e.data && Array.isArray(e.data.read)) e.waitUntil(keepRead(e.data.read));
});

async function keepRead(reads) {
  for (const { path, text } of reads) {
    const url = new URL(path, self.location.origin);
    if (url.origin !== self.location.origin || typeof text !== 'string' || !kept(url)) continue;
    const answer = new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
    await keep(new Request(url.href), url, answer);
  }
}

const kept = (url) => KEPT.some((r) => r.test(url.pathname)) ||
  (ROOM.test(url.pathname) && /^\?limit=\d+$/.test(url.search));

async function fromNetworkKeeping(request, url) {
  try {
    const answer = await fetch(request);
    if (answer.status === 401) await caches.delete(DATA);
    else if (answer.ok) await keep(request, url, answer.clone());
    return answer;
  } catch (e) {
    const copy = await caches.match(request, { cacheName: DATA });
    if (copy) return copy;
    throw e;
  }
}

async function keep(request, url, answer) {
  const data = await caches.open(DATA);
  await data.put(request, answer);
  if (!ROOM.test(url.pathname)) return;
  const rooms = (await data.keys()).filter((r) => ROOM.test(new URL(r.url).pathname));
  for (const old of rooms.slice(0, Math.max(0, rooms.length - ROOMS_KEPT))) await data.delete(old);
}

self.addEventListener('fetch', (e) => {
  const { request } = e;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && url.pathname.startsWith('/api/auth/logout')) { // and -everywhere
    e.waitUntil(caches.delete(DATA));
    return;
  }
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate' && url.pathname === '/app') {
    e.respondWith(fetch(request).catch(async (err) => (await caches.match('/app', { cacheName: SHELL })) || Promise.reject(err)));
  } else if (url.pathname.startsWith('/static/')) {
    e.respondWith(caches.match(request, { cacheName: SHELL, ignoreSearch: true }).then((hit) => hit || fetch(request)));
  } else if (url.pathname.startsWith('/api/') && kept(url)) {
    e.respondWith(fromNetworkKeeping(request, url));
  }
});

// Web Push (api/web_push.c): a DM or a mention while no page of Praça shows its room. One
// notification per room (its tag), saying how many came; a click opens that room in a page
// already open, or in a new one. The words are the browser's language's (the worker has no
// catalogue of its own).
const WORDS = {
  pt: { more: (n) => `${n} mensagens novas`, files: (n) => (n === 1 ? '📎 1 arquivo' : `📎 ${n} arquivos`), reminder: '⏰ Lembrete' },
  en: { more: (n) => `${n} new messages`, files: (n) => (n === 1 ? '📎 1 file' : `📎 ${n} files`), reminder: '⏰ Reminder' },
};
const words = () => (String(self.navigator.language || '').toLowerCase().startsWith('pt') ? WORDS.pt : WORDS.en);

function roomUrl(n) {
  return n.serverId ? `/app#server=${n.serverId}&channel=${n.threadId || n.channelId}` : `/app#dm=${n.channelId}`;
}

function titleOf(n) {
  if (n.serverId) return `${n.author.name} (#${n.roomName} · ${n.serverName})`;
  return n.roomName ? `${n.author.name} (${n.roomName})` : n.author.name;
}

// A reminder the person set (REMINDER_DUE): its words, opening its message's room when it has one.
function showReminder(n) {
  return self.registration.showNotification(words().reminder, {
    body: n.text, tag: `reminder-${n.messageId || n.text}`, icon: '/static/icon-192.png', badge: '/static/icon-192.png',
    data: { url: n.channelId ? roomUrl(n) : '/app', count: 1 },
  });
}

async function showPush(n) {
  if (n && n.v === 1 && n.kind === 'reminder') return showReminder(n);
  if (!n || n.v !== 1 || !n.author) return;
  const room = n.threadId || n.channelId;
  const earlier = await self.registration.getNotifications({ tag: room });
  const count = earlier.reduce((sum, x) => sum + ((x.data && x.data.count) || 1), 0) + 1;
  const text = n.text || (n.attachments ? words().files(n.attachments) : '');
  await self.registration.showNotification(titleOf(n), {
    body: count > 1 ? `${words().more(count)}\n${text}` : text,
    tag: room, renotify: true, icon: '/static/icon-192.png', badge: '/static/icon-192.png',
    data: { url: roomUrl(n), count },
  });
  if (self.navigator.setAppBadge) {
    const shown = await self.registration.getNotifications();
    await self.navigator.setAppBadge(shown.reduce((sum, x) => sum + ((x.data && x.data.count) || 1), 0)).catch(() => {});
  }
}

self.addEventListener('push', (e) => {
  let n = null;
  try { n = e.data ? e.data.json() : null; } catch { /* not ours */ }
  e.waitUntil(showPush(n));
});

self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = (e.notification.data && e.notification.data.url) || '/app';
  e.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const page = pages.find((c) => new URL(c.url).pathname === '/app');
    if (!page) return self.clients.openWindow(url);
    page.postMessage({ open: url });
    return page.focus();
  })());
});

// The push service replaced the subscription: the new one goes to the server (the old one is
// forgotten there when it answers 404 or 410).
self.addEventListener('pushsubscriptionchange', (e) => {
  e.waitUntil((async () => {
    const key = await fetch('/api/push/key', { credentials: 'same-origin' }).then((r) => r.json());
    const sub = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.publicKey });
    const { endpoint, keys } = sub.toJSON();
    await fetch('/api/users/@me/push-subscriptions', { method: 'PUT', credentials: 'same-origin',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoint, keys }) });
  })());
});
