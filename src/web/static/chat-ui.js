// The page's frame: toasts for what went wrong away from any form, and which panel the third
// column shows.
import { $, el } from './common.js';
import { has, t } from './i18n.js';

// What the views keep for themselves, beside the store's state (which only chat-store.js writes).
export const view = {
  gateway: null, // the live connection (sio.js)
  live: false, // it is up
  loads: 0, // reads of the open server started, so only the last one applies
  memberLoads: 0, // the same for reads of its members alone
  loadingOlder: false,
  holdTimer: 0, // when the verification level's wait ends
  unseenHere: 0, // messages that came to the open room while the tab was hidden
  replyTo: null, // the message the composer answers
  newAfter: null, // the open room's "novas mensagens" line follows this message ID (chat-flow.js)
  settingsTab: null, // the settings section shown (chat-settings.js)
};

const TOAST_MS = 8000;

// A presence status as the page says it (online, idle, dnd, offline), for a dot's label.
export const statusLabel = (status) => (has(`status.${status}`) ? t(`status.${status}`) : status);

const TOASTS_MAX = 3;

export function toast(err) {
  const box = $('#toasts');
  const note = el('div', { class: 'toast', role: 'alert' }, el('span', { text: err instanceof Error ? err.message : String(err) }));
  const close = () => note.remove();
  note.append(el('button', { type: 'button', class: 'link-button', 'aria-label': t('toast.close'), text: '✕', onclick: close }));
  box.append(note);
  while (box.children.length > TOASTS_MAX) box.firstChild.remove();
  setTimeout(close, TOAST_MS);
}

export function showPanel(id) {
  for (const p of ['#settings', '#account', '#forum', '#room']) $(p).hidden = p !== id;
}

// A form's note that something was done, shown for a few seconds.
// A second note within those seconds starts them again rather than going with the first's.
const flashTimers = new Map();

export function flash(box, text) {
  $(box).textContent = text;
  $(box).hidden = false;
  clearTimeout(flashTimers.get(box));
  flashTimers.set(box, setTimeout(() => { $(box).hidden = true; flashTimers.delete(box); }, 4000));
}
