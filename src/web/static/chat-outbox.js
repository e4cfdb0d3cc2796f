// The outbox: a message sent without a network (or while the server cannot answer) waits here,
// kept in localStorage across reloads and shown at the end of its room as pending, with its own
// retry and cancel. It goes again when the connection comes back, on a timer meanwhile, and on
// the next page; its nonce (enforceNonce) makes any retry the same message, never a second.
import { chat } from './chat-store.js';
import { $, api, el, showError } from './common.js';
import { t } from './i18n.js';

const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30000;
const key = () => `praca.outbox.${chat.me.id}`;
const items = new Map(); // nonce → {nonce, path, roomId, body, failed, tries, sending}
let timer = 0;
let shown = null; // showMessage, given by whoever draws messages (no import circle)

function save() {
  const kept = [...items.values()].map(({ nonce, path, roomId, body }) => ({ nonce, path, roomId, body }));
  try { localStorage.setItem(key(), JSON.stringify(kept)); } catch { /* private mode: memory only */ }
}

// What a previous page left unsent comes back, and goes as soon as it can.
export function loadOutbox(showMessage) {
  shown = showMessage;
  let kept = [];
  try { kept = JSON.parse(localStorage.getItem(key()) || '[]'); } catch { /* none */ }
  for (const k of Array.isArray(kept) ? kept : []) items.set(k.nonce, { ...k, failed: true, tries: 0, sending: false });
  paintOutbox();
  retryOutbox();
}

// A send's nonce: the same message however often it is tried again.
export function nonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return 'p' + [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// Retryable: no answer at all, or a server that could not take it now (5xx, 429).
const retryable = (e) => e.network || e.status >= 500 || e.status === 429;

// refused(error): the sender's own answer to a refusal (true when it took care of it).
export function queueSend(path, roomId, body, refused = () => false) {
  const item = { nonce: nonce(), path, roomId, body: { ...body, enforceNonce: true }, failed: false, tries: 0, sending: false, refused };
  item.body.nonce = item.nonce;
  items.set(item.nonce, item);
  save();
  paintOutbox();
  return attempt(item);
}

async function attempt(item) {
  if (item.sending || !items.has(item.nonce)) return;
  item.sending = true;
  paintItem(item);
  try {
    const { message } = await api('POST', item.path, item.body);
    items.delete(item.nonce);
    save();
    document.getElementById(`p-${item.nonce}`)?.remove();
    if (message.channelId === chat.cid && shown) shown(message);
  } catch (e) {
    item.sending = false;
    if (!retryable(e)) { // refused: said above the composer, the text given back to edit
      items.delete(item.nonce);
      save();
      document.getElementById(`p-${item.nonce}`)?.remove();
      if (item.roomId === chat.cid) {
        if (!$('#text').value) $('#text').value = item.body.content || '';
        if (!(item.refused && item.refused(e))) showError($('#send-error'), e);
      }
      return;
    }
    item.failed = true;
    item.tries++;
    paintItem(item);
    later();
  }
}

function later() {
  if (timer || ![...items.values()].some((i) => i.failed)) return;
  const tries = Math.min(...[...items.values()].map((i) => i.tries));
  timer = setTimeout(() => { timer = 0; retryOutbox(); }, Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** Math.max(0, tries - 1)));
}

// Every waiting message tried again, oldest first (the connection is back, or the timer rang).
export async function retryOutbox() {
  for (const item of [...items.values()]) if (!item.sending) await attempt(item);
}

function paintItem(item) {
  const li = document.getElementById(`p-${item.nonce}`);
  if (!li) return;
  const state = li.querySelector('.outbox-state');
  state.replaceChildren();
  if (item.sending || !item.failed) state.append(t('outbox.sending'));
  else state.append(t('outbox.failed'), ' ',
    el('button', { type: 'button', class: 'link-button small', text: t('outbox.retry'), onclick: () => attempt(item) }), ' ',
    el('button', { type: 'button', class: 'link-button small cancel', text: t('dialog.cancel'), 'aria-label': t('outbox.cancel.label'), onclick: () => cancel(item) }));
}

function cancel(item) {
  items.delete(item.nonce);
  save();
  document.getElementById(`p-${item.nonce}`)?.remove();
}

// The open room's waiting messages, after its last message.
export function paintOutbox() {
  const list = $('#messages');
  for (const li of list.querySelectorAll('.outbox-item')) if (!items.has(li.dataset.nonce) || items.get(li.dataset.nonce).roomId !== chat.cid) li.remove();
  for (const item of items.values()) {
    if (item.roomId !== chat.cid || document.getElementById(`p-${item.nonce}`)) continue;
    list.append(el('li', { class: 'outbox-item', id: `p-${item.nonce}`, 'data-nonce': item.nonce, 'aria-live': 'polite' },
      el('div', { class: 'content', text: item.body.content || '' }),
      el('div', { class: 'outbox-state muted small', role: 'status' })));
    paintItem(item);
  }
  if (list.querySelector('.outbox-item')) {
    $('#no-messages').hidden = true;
    list.scrollTop = list.scrollHeight;
  }
}
