// The page's frame: toasts for what went wrong away from any form, and which panel the third
// column shows.
import { $, el } from './common.js';
import { has, t } from './i18n.js';

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
export function flash(box, text) {
  $(box).textContent = text;
  $(box).hidden = false;
  setTimeout(() => { $(box).hidden = true; }, 4000);
}
