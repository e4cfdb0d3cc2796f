// Searching what was said: a box in the room's head searches the open server (or the open DM)
// with words, "phrases" and filters (from:, in:, has:, mentions:, before:, after:); each result
// leads to its message, in its channel.
import { mentionOf, nameOf } from './chat-messages.js';
import { togglePins } from './chat-pins.js';
import { jumpTo, openChannel } from './chat-room.js';
import { chat } from './chat-store.js';
import { closeThread } from './chat-thread.js';
import { $, api, el, showError } from './common.js';
import { locale, t, tn } from './i18n.js';
import { markdownNodes, parseMarkdown } from './markdown.js';

function resultItem(m) {
  const when = new Date(m.createdAt).toLocaleString(locale(), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  const room = chat.dm ? null : chat.allChannels.find((c) => c.id === (m.threadId || m.channelId));
  const go = async () => {
    $('#search-panel').hidden = true;
    const where = m.threadId || m.channelId;
    if (!chat.dm && where !== chat.cid) await openChannel(where);
    jumpTo(m.id);
  };
  return el('li', { class: 'pin', 'data-id': m.id },
    el('div', { class: 'head' }, el('strong', { text: m.webhook ? m.webhook.name : nameOf(m.fromId) }),
      room ? el('span', { class: 'muted small', text: `#${room.name}` }) : '', el('time', { datetime: m.createdAt, text: when })),
    m.content ? el('div', { class: 'content' }, ...markdownNodes(parseMarkdown(m.content), mentionOf)) : el('em', { class: 'muted', text: t('rules.no.text') }),
    el('div', { class: 'pin-actions' }, el('button', { type: 'button', class: 'link-button small', text: t('pins.jump'), onclick: go })));
}

// The results shown, and where they were searched: drawn again when the server's tree or its
// members arrive after them (a search typed as the page opens names its channels and authors).
let shown = null;

// A search the server answered in part (a page, or a window of a search by filters alone) ends
// with a button that goes on from where it stopped.
function paintResults() {
  const { messages, next, q } = shown;
  const more = next
    ? [el('li', { class: 'search-more' }, el('button', { type: 'button', class: 'secondary small-button', id: 'search-more', text: t('search.older'), onclick: searchOlder }))]
    : [];
  $('#search-results').replaceChildren(...messages.map(resultItem), ...more);
  $('#search-title').textContent = messages.length
    ? tn(next ? 'search.found.more' : 'search.found', messages.length, { q })
    : t(next ? 'search.none.yet' : 'search.none', { q });
}

const searchPath = (q, before) => (chat.dm ? `/api/dms/${chat.cid}/messages/search` : `/api/servers/${chat.sid}/messages/search`) +
  `?q=${encodeURIComponent(q)}${before ? `&before=${before}` : ''}`;

async function searchOlder() {
  const was = shown;
  try {
    const { messages, next } = await api('GET', searchPath(was.q, was.next));
    if (shown !== was) return; // another search began meanwhile
    shown = { ...was, messages: [...was.messages, ...messages], next };
    paintResults();
  } catch (err) {
    showError($('#send-error'), err);
  }
}

export function repaintSearch() {
  if (shown && !$('#search-panel').hidden && shown.sid === chat.sid && !chat.dm) paintResults();
}

async function search(e) {
  e.preventDefault();
  const q = $('#search').value.trim();
  if (!q) return;
  const sid = chat.sid;
  try {
    const { messages, next } = await api('GET', searchPath(q));
    shown = { messages, next, q, sid };
    paintResults();
    togglePins(false);
    closeThread();
    $('#search-panel').hidden = false;
    $('#saved-panel').hidden = true;
  } catch (err) {
    showError($('#send-error'), err);
  }
}

export function wireSearch() {
  $('#search-form').addEventListener('submit', search);
  $('#search-close').addEventListener('click', () => { $('#search-panel').hidden = true; });
}
