// Read state kept on the server: what is unread when the page opens, and the person's mark moved
// as they read (a room opened, a message arriving in the open room), at most once a second.
import { chat, readMarked, readStatesRead, roomRead, serverRead } from './chat-store.js';
import { view } from './chat-ui.js';
import { $, api, el } from './common.js';
import { t, tn } from './i18n.js';

const READ_EVERY_MS = 1000;
const reading = { timer: 0, pending: new Map() }; // room id → the newest message seen there

export async function loadUnread() {
  const { unread } = await api('GET', '/api/users/@me/unread');
  readStatesRead(unread);
  paintUnread();
}

export function markRead(cid, messageId) {
  if (!cid || !messageId) return;
  readMarked(cid, messageId);
  reading.pending.set(cid, messageId);
  if (!reading.timer) reading.timer = setTimeout(sendMarks, READ_EVERY_MS);
}

async function sendMarks() {
  reading.timer = 0;
  const marks = [...reading.pending];
  reading.pending.clear();
  for (const [cid, messageId] of marks)
    await api('PUT', `/api/users/@me/read-states/${cid}`, { messageId }).catch(() => {}); // the next read tries again
}

// Marked read without being opened: one room, or every room of the open server, up to the newest
// message the page knows of there.
function markRoomRead(cid) {
  const newest = chat.newest.get(cid);
  if (newest) markRead(cid, newest.id);
  roomRead(cid);
}

export function markServerRead(sid) {
  for (const [cid, newest] of chat.newest) if (newest.serverId === sid && chat.unread.has(cid)) markRoomRead(cid);
  serverRead(sid);
  paintUnread();
}

// A ✓ beside each unread channel of the open server, and "mark all" when there is one.
function paintMarkRead() {
  for (const b of document.querySelectorAll('#channels .mark-read')) b.remove();
  let any = false;
  for (const b of document.querySelectorAll('#channels button.channel.unread')) {
    any = true;
    const name = b.childNodes[0].textContent.replace(/^(# |↳ )/, ''); // not its count
    b.after(el('button', { type: 'button', class: 'mark-read', text: '✓', title: t('read.mark'), 'aria-label': t('read.mark.label', { name }),
                           onclick: () => { markRoomRead(b.dataset.id); paintUnread(); } }));
  }
  $('#server-read').hidden = !any;
}

// Mentions waiting: a room's own, or a server's over its rooms.
function mentionsIn(id) {
  let n = 0;
  for (const [room, m] of chat.mentions) if (room === id || m.serverId === id) n += m.count;
  return n;
}

// A red count beside a room, on a server's icon and on a conversation, as Discord shows them.
function paintBadge(button, n) {
  let badge = button.querySelector('.badge');
  if (!n) return badge?.remove();
  if (!badge) button.append(badge = el('span', { class: 'badge' }));
  badge.textContent = n > 99 ? '99+' : String(n);
  badge.setAttribute('aria-label', n > 99 ? t('read.mentions.many') : tn('read.mentions', n));
}

export function paintUnread() {
  for (const b of document.querySelectorAll('#channels button.channel, #channels button.thread, #dms button')) {
    b.classList.toggle('unread', chat.unread.has(b.dataset.id));
    paintBadge(b, mentionsIn(b.dataset.id));
  }
  for (const b of document.querySelectorAll('#servers button')) {
    b.classList.toggle('unread', chat.unread.has(b.dataset.id));
    paintBadge(b, mentionsIn(b.dataset.id));
  }
  paintMarkRead();
  paintTitle();
  if (navigator.setAppBadge) { // an installed app's icon counts them too, where the browser allows
    const n = [...chat.mentions.values()].reduce((sum, m) => sum + m.count, 0);
    (n ? navigator.setAppBadge(n) : navigator.clearAppBadge()).catch(() => {});
  }
}

// The tab's title counts what waits: rooms with unread messages, and messages that came to the
// open room while the tab was hidden.
export function paintTitle() {
  const rooms = [...chat.unread].filter((id) => !chat.servers.some((s) => s.id === id)).length;
  const n = rooms + view.unseenHere;
  document.title = n ? `(${n}) Praça` : 'Praça';
}
