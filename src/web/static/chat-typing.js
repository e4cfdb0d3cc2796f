// Typing indicators: the composer tells the room when the person types (at most once every 8 s
// per room, never for a /command), and the room shows who else is typing: for 10 s after each
// TYPING_START, or until that person's message arrives.
import { messagesPath, nameOf } from './chat-messages.js';
import { chat } from './chat-store.js';
import { view } from './chat-ui.js';
import { $, api } from './common.js';
import { t } from './i18n.js';

const TYPING_EVERY_MS = 8000;
const TYPING_SHOWN_MS = 10000;
const typing = { saidAt: new Map(), who: new Map() }; // room → when it was told; user → {room, timer}

export function typingSaid() {
  const text = $('#text').value.trim();
  if (!chat.cid || !text || text.startsWith('/')) return;
  if (Date.now() - (typing.saidAt.get(chat.cid) || 0) < TYPING_EVERY_MS) return;
  typing.saidAt.set(chat.cid, Date.now());
  api('POST', messagesPath().replace(/messages$/, 'typing')).catch(() => {}); // only a hint
}

// Tells the gateway which room this page shows: a server's typing reaches only the pages that
// show its room, and Web Push tells nothing of a room being read. Again after each reconnect (a
// new connection starts with none), and when the tab hides (none) or shows again.
export function tellViewing() {
  const shown = document.visibilityState === 'hidden' ? null : chat.cid || null;
  if (view.gateway && view.live) view.gateway.emitWithAck('channel:view', { channelId: shown }).catch(() => {});
}

// A message sent: the next keystroke starts a new "typing".
export function typingSent(room) {
  typing.saidAt.delete(room);
}

export function typingArrived(t) {
  if (t.userId === chat.me.id) return;
  typingStopped(t.userId, false);
  const timer = setTimeout(() => typingStopped(t.userId), TYPING_SHOWN_MS);
  typing.who.set(t.userId, { room: t.threadId || t.channelId, timer });
  paintTyping();
}

export function typingStopped(userId, paint = true) {
  const was = typing.who.get(userId);
  if (!was) return;
  clearTimeout(was.timer);
  typing.who.delete(userId);
  if (paint) paintTyping();
}

export function paintTyping() {
  const names = [...typing.who].filter(([, w]) => w.room === chat.cid).map(([id]) => nameOf(id));
  $('#typing').textContent =
    names.length === 0 ? '' :
    names.length === 1 ? t('typing.one', { name: names[0] }) :
    names.length <= 3 ? t('typing.some', { names: names.slice(0, -1).join(', '), last: names.at(-1) }) :
    t('typing.many');
}
