// The person's saved messages ("Salvos"): "Salvar para depois" in a message's menu keeps it; the
// 🔖 panel lists them, the last saved first, each a way to its message (in whatever server or
// conversation it is) and to take it back. Another page of theirs saving or taking back one is
// told (SAVED_UPDATE), so the panel follows.
import { provide } from './chat-actions.js';
import { openDm } from './chat-dms.js';
import { mentionOf, nameOf } from './chat-messages.js';
import { jumpTo, openChannel } from './chat-room.js';
import { openServer } from './chat-servers.js';
import { chat } from './chat-store.js';
import { paintLater } from './chat-later.js';
import { closeThread } from './chat-thread.js';
import { toast } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';
import { markdownNodes, parseMarkdown } from './markdown.js';

let next = null; // where the following page starts

export async function saveMessage(m) {
  try {
    await api('PUT', `/api/users/@me/saved/${m.id}`);
    toast(t('saved.done'));
  } catch (e) {
    showError($('#send-error'), e);
  }
}

async function unsave(id) {
  try {
    await api('DELETE', `/api/users/@me/saved/${id}`);
    $(`#saved-list li[data-id="${id}"]`)?.remove();
    $('#no-saved').hidden = $('#saved-list').children.length > 0;
  } catch (e) {
    showError($('#send-error'), e);
  }
}

// Its room, wherever it is, then the message.
async function goTo(m) {
  toggleSaved(false);
  const room = m.threadId || m.channelId;
  if (!m.serverId) {
    if (!chat.dm || chat.cid !== room) await openDm(room);
  } else if (m.serverId !== chat.sid) {
    await openServer(m.serverId, room);
  } else if (chat.cid !== room) {
    await openChannel(room);
  }
  jumpTo(m.id);
}

function where(m) {
  if (!m.serverId) return t('saved.in.dm');
  const server = chat.servers.find((s) => s.id === m.serverId);
  const channel = m.serverId === chat.sid ? chat.allChannels.find((c) => c.id === m.channelId) : null;
  return [server && server.name, channel && `#${channel.name}`].filter(Boolean).join(' · ');
}

function savedItem({ savedAt, authorName, message: m }) {
  const when = new Date(m.createdAt).toLocaleString(locale(), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  return el('li', { class: 'pin', 'data-id': m.id, 'data-saved-at': savedAt },
    el('div', { class: 'head' }, el('strong', { text: m.webhook ? m.webhook.name : chat.names.get(m.fromId) || authorName || nameOf(m.fromId) }),
      el('span', { class: 'muted small', text: where(m) }), el('time', { datetime: m.createdAt, text: when })),
    m.content ? el('div', { class: 'content' }, ...markdownNodes(parseMarkdown(m.content), mentionOf)) : el('em', { class: 'muted', text: t('rules.no.text') }),
    el('div', { class: 'pin-actions' },
      el('button', { type: 'button', class: 'link-button small', text: t('pins.jump'), onclick: () => goTo(m).catch(toast) }),
      el('button', { type: 'button', class: 'link-button small', text: t('saved.remove'), onclick: () => unsave(m.id) })));
}

async function paintSaved(more = false) {
  try {
    const page = await api('GET', `/api/users/@me/saved${more && next ? `?before=${encodeURIComponent(next)}` : ''}`);
    if ($('#saved-panel').hidden) return;
    const items = page.saved.map(savedItem);
    if (more) $('#saved-list').append(...items);
    else $('#saved-list').replaceChildren(...items);
    next = page.next;
    $('#saved-more').hidden = !next;
    $('#no-saved').hidden = $('#saved-list').children.length > 0;
  } catch (e) {
    showError($('#send-error'), e);
  }
}

// The saved, the pins and a search's results share the room's side: one at a time.
export function toggleSaved(open = $('#saved-panel').hidden) {
  $('#saved-panel').hidden = !open;
  if (open) {
    $('#pins').hidden = true;
    $('#search-panel').hidden = true;
    closeThread();
  }
  $('#saved-open').setAttribute('aria-expanded', String(open));
  if (open) {
    paintSaved();
    paintLater();
  }
}

export function wireSaved() {
  $('#saved-open').addEventListener('click', () => toggleSaved());
  $('#saved-close').addEventListener('click', () => toggleSaved(false));
  $('#saved-more').addEventListener('click', () => paintSaved(true));
}

// SAVED_UPDATE from another page of mine: the open panel reads the list again.
export function savedChanged() {
  if (!$('#saved-panel').hidden) paintSaved();
}

provide({ saveMessage, goToMessage: goTo });
