// A forum: its posts, each a thread to open, and a form for a new one.
import { act } from './chat-actions.js';
import { channelPermissions, PERM } from './chat-perms.js';
import { openChannel } from './chat-room.js';
import { chat, forumOpened } from './chat-store.js';
import { showPanel } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { t } from './i18n.js';

// A forum: its posts, each a thread to open, and a form for a new one.
export function openForum(c) {
  forumOpened(c.id);
  $('#forum-title').textContent = `💬 ${c.name}`;
  $('#forum-error').hidden = true;
  const posts = chat.threads.filter((t) => t.parentId === c.id);
  $('#forum-posts').replaceChildren(...posts.map((p) => el('li', {}, el('button', { type: 'button', class: 'link', text: p.name, onclick: () => openChannel(p.id) }))));
  if (!posts.length) $('#forum-posts').append(el('li', { class: 'muted', text: t('forum.empty') }));
  const perms = channelPermissions(chat.server, chat.roles, chat.mine, c);
  $('#forum-form').hidden = !(perms & PERM.ENVIAR_MENSAGENS);
  for (const b of document.querySelectorAll('#channels button'))
    b.setAttribute('aria-current', b.dataset.id === c.id ? 'true' : 'false');
  showPanel('#forum');
}

export async function postInForum(event) {
  event.preventDefault();
  $('#forum-error').hidden = true;
  try {
    const { channel } = await api('POST', `/api/servers/${chat.sid}/channels/${chat.forum}/threads`, { name: $('#post-title').value, content: $('#post-content').value });
    $('#forum-form').reset();
    await act.loadServer(chat.sid);
    await openChannel(channel.id);
  } catch (e) {
    showError($('#forum-error'), e);
  }
}
