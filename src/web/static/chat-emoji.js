// The reaction picker: any of the common emoji, found by their Portuguese names, the person's
// recent ones first (kept in this browser). A reaction must be one Unicode emoji (the server
// checks); these are.
import { $, el } from './common.js';
import { EMOJI } from './emoji-names.js';
import { t } from './i18n.js';


const RECENT_KEY = 'praca-recent-emoji';
const RECENT_MAX = 8;

function recentEmoji() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]');
    return Array.isArray(list) ? list.filter((e) => EMOJI.some(([x]) => x === e)).slice(0, RECENT_MAX) : [];
  } catch (_) {
    return [];
  }
}

function rememberEmoji(emoji) {
  const list = [emoji, ...recentEmoji().filter((e) => e !== emoji)].slice(0, RECENT_MAX);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

// Opens the picker for a message; resolves with the emoji chosen, or null.
export function pickEmoji() {
  const dialog = $('#emoji-picker');
  const search = $('#emoji-search');
  const paint = () => {
    const q = search.value.trim().toLowerCase();
    const recent = q ? [] : recentEmoji();
    const found = EMOJI.filter(([e, name]) => !q || name.includes(q) || e === q).map(([e]) => e);
    const all = [...recent, ...found.filter((e) => !recent.includes(e))];
    $('#emoji-grid').replaceChildren(...all.map((e) => el('button', {
      type: 'button', class: 'emoji', text: e, title: (EMOJI.find(([x]) => x === e) || ['', ''])[1],
      'aria-label': t('emoji.react.with', { emoji: e }), onclick: () => dialog.close(e),
    })));
    $('#emoji-none').hidden = all.length > 0;
  };
  search.value = '';
  search.oninput = paint;
  search.onkeydown = (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      const first = $('#emoji-grid button');
      if (first) dialog.close(first.textContent);
    }
  };
  paint();
  dialog.returnValue = '';
  dialog.showModal();
  search.focus();
  return new Promise((resolve) => dialog.addEventListener('close', () => {
    const chosen = dialog.returnValue || null;
    if (chosen) rememberEmoji(chosen);
    resolve(chosen);
  }, { once: true }));
}
