// The server's own emoji in its settings (GERENCIAR_SERVIDOR): upload one (its name taken from
// the file's until one is typed), rename, delete after asking. The list is the open server's
// tree's, read again after each change (and on SERVER_UPDATE from another page).
import { ask, askText } from './chat-dialog.js';
import { loadServer } from './chat-servers.js';
import { chat } from './chat-store.js';
import { flash } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { t, tn } from './i18n.js';
import { customEmojiImage } from './markdown.js';

const EMOJI_MAX = 100; // the default --server-emoji-max: the API says when a server's is reached

// A file's name as an emoji's: letters without accents, digits and _.
export function emojiNameOf(fileName) {
  const base = String(fileName).replace(/\.[^.]*$/, '').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return base.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 32);
}

export function paintEmojiSettings() {
  $('#emoji-count').textContent = tn('emoji.count', chat.emojis.length, { max: EMOJI_MAX });
  $('#emoji-list').replaceChildren(...chat.emojis.map((e) => el('li', { 'data-id': e.id },
    el('span', { class: 'emoji-row' }, customEmojiImage(e.id, e.name), el('code', { text: `:${e.name}:` }),
      e.animated ? el('span', { class: 'badge kind', text: t('emoji.animated') }) : ''),
    el('span', { class: 'row-actions' },
      el('button', { type: 'button', class: 'link-button small', text: t('emoji.rename'), 'aria-label': t('emoji.rename.label', { name: e.name }), onclick: () => rename(e) }),
      el('button', { type: 'button', class: 'link-button small danger-link', text: t('delete'), 'aria-label': t('emoji.delete.label', { name: e.name }), onclick: () => remove(e) })))));
}

async function changed(message) {
  await loadServer(chat.sid);
  paintEmojiSettings();
  flash('#emojis-done', message);
}

async function rename(e) {
  const name = await askText(t('emoji.rename.title', { name: e.name }), t('app.label.emoji-name'), { value: e.name, required: true, maxLength: 32 });
  if (!name || name === e.name) return;
  $('#settings-error').hidden = true;
  try {
    const { emoji } = await api('PATCH', `/api/servers/${chat.sid}/emojis/${e.id}`, { name });
    await changed(t('emoji.renamed', { name: emoji.name }));
  } catch (err) {
    showError($('#settings-error'), err);
  }
}

async function remove(e) {
  if (!(await ask(t('emoji.delete.ask', { name: e.name }), t('emoji.delete.text'), { confirm: t('delete'), danger: true }))) return;
  $('#settings-error').hidden = true;
  try {
    await api('DELETE', `/api/servers/${chat.sid}/emojis/${e.id}`);
    await changed(t('emoji.deleted', { name: e.name }));
  } catch (err) {
    showError($('#settings-error'), err);
  }
}

export function wireEmojiSettings() {
  $('#emoji-file').addEventListener('change', () => {
    const file = $('#emoji-file').files[0];
    $('#emoji-file-name').textContent = file ? file.name : '';
    if (file && !$('#emoji-name').value) $('#emoji-name').value = emojiNameOf(file.name);
  });
  $('#emoji-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    $('#settings-error').hidden = true;
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ name: $('#emoji-name').value }));
    form.append('files[0]', $('#emoji-file').files[0]);
    try {
      const { emoji } = await api('POST', `/api/servers/${chat.sid}/emojis`, form);
      $('#emoji-form').reset();
      $('#emoji-file-name').textContent = '';
      await changed(t('emoji.uploaded', { name: emoji.name }));
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
}
