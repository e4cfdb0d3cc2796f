// A thread beside its channel, as Discord and Slack open one: from 1100 px the chip under the
// message it began from opens it in the room's side column (the conversation narrows), with the
// message it began from, its newest page, live, and a box to answer in it; "Abrir" makes it the
// room. On a narrower screen the thread opens as the room itself.
import { act, provide } from './chat-actions.js';
import { messageItem, messagesPath, nameOf, quoteNodes, showMessage } from './chat-messages.js';
import { nonce } from './chat-outbox.js';
import { markRead } from './chat-read.js';
import { besideClosed, besideOpened, chat, roomOf } from './chat-store.js';
import { $, api, el, showError } from './common.js';
import { t } from './i18n.js';

const WIDE = '(min-width: 1100px)';
const PAGE = 50;

export function closeThread() {
  $('#thread-panel').hidden = true;
  $('#thread-messages').replaceChildren();
  besideClosed();
}

async function openThread(tid) {
  const { room } = roomOf(tid);
  if (!room || !matchMedia(WIDE).matches || chat.dm) {
    await act.openChannel(tid);
    return;
  }
  $('#pins').hidden = $('#search-panel').hidden = true; // one side panel at a time
  $('#pins-open').setAttribute('aria-expanded', 'false');
  $('#thread-title').textContent = `🧵 ${room.name}`;
  $('#thread-error').hidden = true;
  $('#thread-panel').hidden = false;
  const origin = chat.messages.get(room.originMessageId);
  $('#thread-origin').replaceChildren(...(origin ? [el('strong', { text: nameOf(origin.fromId) }), ': ', ...quoteNodes(origin.content)] : []));
  $('#thread-origin').hidden = !origin;
  try {
    const { messages } = await api('GET', `${messagesPath(tid)}?limit=${PAGE}`);
    if (room.parentId !== chat.cid) return; // another room opened meanwhile
    besideOpened(tid, messages);
    $('#thread-messages').replaceChildren(...messages.map(messageItem));
    $('#thread-empty').hidden = messages.length > 0;
    $('#thread-messages').scrollTop = $('#thread-messages').scrollHeight;
    if (messages.length) markRead(tid, messages[messages.length - 1].id);
    $('#thread-text').focus();
  } catch (e) {
    showError($('#thread-error'), e);
  }
}

// A message that came to the thread beside: read, as the room's are while shown.
export function besideArrived(m) {
  markRead(chat.beside.id, m.id);
}

// An answer in the thread, shown when the server took it. The text stays in the box when it
// could not go; sent again unchanged, it keeps its nonce, so it is never there twice.
const trying = { content: null, nonce: null };

async function send(e) {
  e.preventDefault();
  const box = $('#thread-text');
  const content = box.value.trim();
  if (!content || !chat.beside) return;
  const tid = chat.beside.id;
  if (trying.content !== content) Object.assign(trying, { content, nonce: nonce() });
  $('#thread-error').hidden = true;
  try {
    const { message } = await api('POST', messagesPath(tid), { content, nonce: trying.nonce, enforceNonce: true });
    if (box.value.trim() === content) box.value = '';
    trying.content = null;
    if (chat.beside && chat.beside.id === tid) showMessage(message);
  } catch (err) {
    showError($('#thread-error'), err);
  }
}

export function wireThread() {
  $('#thread-close').addEventListener('click', closeThread);
  $('#thread-full').addEventListener('click', () => chat.beside && act.openChannel(chat.beside.id));
  $('#thread-composer').addEventListener('submit', send);
  $('#thread-text').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) send(e);
    if (e.key === 'Escape') closeThread();
  });
}

provide({ openThread });
