// How a room's messages read as a conversation: a line for each new day, a "novas mensagens"
// line after the person's read mark, messages of one author within minutes grouped under one
// name, and each author's initials on a colour of their own.
import { chat } from './chat-store.js';
import { view } from './chat-ui.js';
import { $, el } from './common.js';
import { locale, t } from './i18n.js';

const GROUP_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

function dayLabel(iso, now = new Date()) {
  const d = new Date(iso);
  const midnight = (x) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((midnight(now) - midnight(d)) / DAY_MS);
  if (days === 0) return t('day.today');
  if (days === 1) return t('day.yesterday');
  return d.toLocaleDateString(locale(), { day: 'numeric', month: 'long', year: 'numeric' });
}

// The person's picture when the page knows one; else the initials of a name (two letters at
// most, whole characters: an emoji or an accent is never cut in half) on a hue the user's ID
// picks, so one person keeps one colour everywhere. `large` asks for the 256-pixel copy.
export function avatar(userId, name, kind = 'avatar', large = false) {
  const face = chat.faces.get(userId);
  if (face) {
    return el('span', { class: `${kind} has-face`, 'aria-hidden': 'true' },
      el('img', { src: `${face}?size=${large ? 256 : 64}`, alt: '', loading: large ? 'eager' : 'lazy', decoding: 'async' }));
  }
  const words = String(name || '?').trim().split(/[\s_.-]+/).map((w) => w.match(/[\p{L}\p{N}]/gu) || []).filter((w) => w.length);
  const letters = (words.length > 1 ? words[0][0] + words[1][0] : (words[0] || ['?']).slice(0, 2).join('')).toUpperCase();
  let hue = 0;
  for (const ch of String(userId)) hue = (hue * 31 + ch.charCodeAt(0)) % 360;
  const node = el('span', { class: kind, 'aria-hidden': 'true', text: letters });
  node.style.setProperty('--hue', String(hue)); // through the DOM: the CSP refuses style attributes
  return node;
}

// What goes before message item li, given the message item before it (or null): a day line, the
// new-messages line, or nothing, with li marked as a continuation of its author's group.
export function placeInFlow(prev, li) {
  const newDay = !prev || new Date(prev.dataset.at).toDateString() !== new Date(li.dataset.at).toDateString();
  if (newDay) li.before(el('li', { class: 'flow-line day', text: dayLabel(li.dataset.at) }));
  const fresh = view.newAfter && li.dataset.id > view.newAfter && li.dataset.from !== chat.me.id && !$('#messages .flow-line.new');
  if (fresh) li.before(el('li', { class: 'flow-line new', text: t('flow.new') }));
  li.classList.toggle('cont', !newDay && !fresh && prev.dataset.from === li.dataset.from && !li.querySelector('.reply') &&
                             Date.parse(li.dataset.at) - Date.parse(prev.dataset.at) < GROUP_MS);
}

// The whole list again: after a page of history, a jump, or a deletion.
export function paintFlow() {
  const list = $('#messages');
  for (const d of list.querySelectorAll('.flow-line')) d.remove();
  let prev = null;
  for (const li of list.querySelectorAll('.message')) {
    placeInFlow(prev, li);
    prev = li;
  }
}

// The line goes once the person writes (what came before is read), or another room opens.
export function clearNewLine() {
  view.newAfter = null;
  if ($('#messages .flow-line.new')) paintFlow();
}

// The last message item of the list (lines only ever come before a message), or null.
export function lastMessageItem() {
  let last = $('#messages').lastElementChild;
  while (last && last.classList.contains('outbox-item')) last = last.previousElementSibling; // waiting, not shown yet
  return last && last.classList.contains('message') ? last : null;
}

// The newest message shown, or "0" (before every ID) when none is.
export function lastShownId() {
  const last = lastMessageItem();
  return last ? last.dataset.id : '0';
}

// Opening room cid: the line goes after the person's mark there, if something came since.
export function newLineFor(cid) {
  view.newAfter = chat.unread.has(cid) ? chat.readMarks.get(cid) || null : null;
}
