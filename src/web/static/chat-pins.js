// The open channel's pins, in a panel under its title: what was pinned, newest first, each a way
// to the message, and to unpin it for those who may. Read when opened, and again when a pin of
// that channel changes while it is open.
import { act } from './chat-actions.js';
import { provide } from './chat-actions.js';
import { mentionOf, nameOf, togglePin } from './chat-messages.js';
import { PERM } from './chat-perms.js';
import { chat } from './chat-store.js';
import { closeThread } from './chat-thread.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';
import { markdownNodes, parseMarkdown } from './markdown.js';

async function paintPins() {
  const cid = chat.cid;
  const path = chat.dm ? `/api/dms/${cid}/pins` : `/api/servers/${chat.sid}/channels/${cid}/pins`;
  try {
    const { messages } = await api('GET', path);
    if (cid !== chat.cid || $('#pins').hidden) return;
    $('#pins-list').replaceChildren(...messages.map(pinItem));
    $('#no-pins').hidden = messages.length > 0;
  } catch (e) {
    showError($('#send-error'), e);
  }
}

function pinItem(m) {
  const when = new Date(m.createdAt).toLocaleString(locale(), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  const item = el('li', { class: 'pin', 'data-id': m.id },
    el('div', { class: 'head' }, el('strong', { text: nameOf(m.fromId) }), el('time', { datetime: m.createdAt, text: when })),
    m.content ? el('div', { class: 'content' }, ...markdownNodes(parseMarkdown(m.content), mentionOf)) : el('em', { class: 'muted', text: t('rules.no.text') }));
  const actions = el('div', { class: 'pin-actions' },
    el('button', { type: 'button', class: 'link-button small', text: t('pins.jump'), onclick: () => { togglePins(false); act.jumpTo(m.id); } }));
  if (chat.dm || chat.perms & PERM.FIXAR_MENSAGENS)
    actions.append(el('button', { type: 'button', class: 'link-button small', text: t('action.unpin'), onclick: () => togglePin(m) }));
  item.append(actions);
  return item;
}

// The pins and a search's results share the room's side (a column from 1100 px): one at a time.
export function togglePins(open = $('#pins').hidden) {
  $('#pins').hidden = !open;
  if (open) {
    $('#search-panel').hidden = true;
    $('#saved-panel').hidden = true;
    closeThread();
  }
  $('#pins-open').setAttribute('aria-expanded', String(open));
  if (open) paintPins();
}

// CHANNEL_PINS_UPDATE: the panel follows while it shows that channel.
export function pinsChanged(p) {
  if (p.channelId === chat.cid && !$('#pins').hidden) paintPins();
}

provide({ pinsChanged });
