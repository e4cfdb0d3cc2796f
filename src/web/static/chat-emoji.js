// The reaction picker: any of the common emoji, found by their Portuguese names, and in a tab of
// its own the open server's emoji, found by theirs; the person's recent ones first (kept in this
// browser). A Unicode reaction must be one emoji (the server checks); these are. Resolves with
// the emoji (a string), {customEmojiId} for a server's own, or null.
import { chat } from './chat-store.js';
import { $, el } from './common.js';
import { EMOJI } from './emoji-names.js';
import { t } from './i18n.js';
import { customEmojiImage } from './markdown.js';

const RECENT_KEY = 'praca-recent-emoji';
const RECENT_MAX = 8;
const CUSTOM = 'custom:'; // a server emoji's recent entry and the dialog's value: custom:<id>

function recentEmoji() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]');
    const known = (e) => EMOJI.some(([x]) => x === e) || (e.startsWith(CUSTOM) && chat.emojis.some((x) => CUSTOM + x.id === e));
    return Array.isArray(list) ? list.filter((e) => typeof e === 'string' && known(e)).slice(0, RECENT_MAX) : [];
  } catch (_) {
    return [];
  }
}

function rememberEmoji(value) {
  const list = [value, ...recentEmoji().filter((e) => e !== value)].slice(0, RECENT_MAX);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

function emojiButton(value, dialog) {
  if (value.startsWith(CUSTOM)) {
    const e = chat.emojis.find((x) => CUSTOM + x.id === value);
    return el('button', { type: 'button', class: 'emoji custom', title: `:${e.name}:`, 'data-value': value,
      'aria-label': t('emoji.react.with', { emoji: `:${e.name}:` }), onclick: () => dialog.close(value) }, customEmojiImage(e.id, e.name));
  }
  return el('button', { type: 'button', class: 'emoji', text: value, title: (EMOJI.find(([x]) => x === value) || ['', ''])[1], 'data-value': value,
    'aria-label': t('emoji.react.with', { emoji: value }), onclick: () => dialog.close(value) });
}

// The server's emoji whose name holds q, as a text's insertion would write them.
export function serverEmojiMatching(q) {
  return chat.dm ? [] : chat.emojis.filter((e) => !q || e.name.includes(q));
}

export function pickEmoji() {
  const dialog = $('#emoji-picker');
  const search = $('#emoji-search');
  const own = serverEmojiMatching('').length > 0;
  let tab = 'all';
  const paint = () => {
    const q = search.value.trim().toLowerCase().replace(/^:|:$/g, '');
    const recent = q ? [] : recentEmoji().filter((e) => (tab === 'server') === e.startsWith(CUSTOM));
    const found = tab === 'server'
      ? serverEmojiMatching(q).map((e) => CUSTOM + e.id)
      : EMOJI.filter(([e, name]) => !q || name.includes(q) || e === q).map(([e]) => e);
    const all = [...recent, ...found.filter((e) => !recent.includes(e))];
    $('#emoji-grid').replaceChildren(...all.map((v) => emojiButton(v, dialog)));
    $('#emoji-none').hidden = all.length > 0;
    for (const [id, name] of [['#emoji-tab-all', 'all'], ['#emoji-tab-server', 'server']]) $(id).setAttribute('aria-selected', String(tab === name));
  };
  $('#emoji-tabs').hidden = !own;
  $('#emoji-tab-all').onclick = () => { tab = 'all'; paint(); };
  $('#emoji-tab-server').onclick = () => { tab = 'server'; paint(); };
  search.value = '';
  search.oninput = paint;
  search.onkeydown = (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      const first = $('#emoji-grid button');
      if (first) dialog.close(first.dataset.value);
    }
  };
  paint();
  dialog.returnValue = '';
  dialog.showModal();
  search.focus();
  return new Promise((resolve) => dialog.addEventListener('close', () => {
    const chosen = dialog.returnValue || null;
    if (chosen) rememberEmoji(chosen);
    resolve(!chosen ? null : chosen.startsWith(CUSTOM) ? { customEmojiId: chosen.slice(CUSTOM.length) } : chosen);
  }, { once: true }));
}
