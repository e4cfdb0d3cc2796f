// The open room: its newest page of history, older pages as one scrolls up, the page around a
// message one jumps to, and the message the composer answers.
import { provide } from './chat-actions.js';
import { loadChannelCommands } from './chat-apps.js';
import { newLineFor, paintFlow } from './chat-flow.js';
import { messageItem, messagesPath, nameOf, quoteNodes } from './chat-messages.js';
import { channelPermissions } from './chat-perms.js';
import { paintOutbox } from './chat-outbox.js';
import { togglePins } from './chat-pins.js';
import { closeThread } from './chat-thread.js';
import { markRead, paintUnread } from './chat-read.js';
import { chat, historyRead, olderRead, permissionsFound, roomOf, roomOpened } from './chat-store.js';
import { followPeople } from './chat-people.js';
import { paintTyping, tellViewing } from './chat-typing.js';
import { showPanel, toast, view } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { t } from './i18n.js';

export const HISTORY_PAGE = 50;
// The page's state lives in chat-store.js.

// The panel shown in the third column.
export function openPanel() {
  return ['#settings', '#account', '#forum', '#room'].find((p) => !$(p).hidden) || '#room';
}

// behind: opened by the page itself while the person looks at settings or Conta, which stay.
export async function openChannel(cid, { behind = false } = {}) {
  stopReply();
  closeThread();
  newLineFor(cid); // from the unread mark, before opening clears it
  roomOpened(cid);
  tellViewing();
  followPeople();
  if (!behind) showPanel('#room');
  const { room, parent } = roomOf(cid);
  permissionsFound(channelPermissions(chat.server, chat.roles, chat.mine, parent));
  $('#channel-title').textContent = room.type === 'thread' ? t('room.thread.title', { name: room.name, parent: parent.name }) : `# ${room.name}`;
  $('#pins-open').hidden = $('#people-open').hidden = $('#channel-notify').hidden = false;
  togglePins(false);
  for (const b of document.querySelectorAll('#channels button'))
    b.setAttribute('aria-current', b.dataset.id === cid ? 'true' : 'false');
  paintUnread();
  if (room.type !== 'thread') loadChannelCommands(chat.sid, cid); // its overrides may differ
  let page;
  try {
    page = await api('GET', `${messagesPath()}?limit=${HISTORY_PAGE}`);
  } catch (e) {
    if (cid === chat.cid) throw e;
    return; // another room opened meanwhile (one left: a ban, a kick): this one's answer is no one's
  }
  const { messages, hasMore } = page;
  if (cid !== chat.cid) return;
  showHistory(messages, hasMore);
  history.replaceState(history.state, '', `#server=${chat.sid}&channel=${cid}`);
}

// After a reconnect that could not be resumed: the open room's newest page read again (one
// request), so no message sent meanwhile is missing.
export async function refreshRoom() {
  const cid = chat.cid;
  if (!cid || chat.forum) return;
  try {
    const { messages, hasMore } = await api('GET', `${messagesPath()}?limit=${HISTORY_PAGE}`);
    if (cid === chat.cid) showHistory(messages, hasMore);
  } catch (e) {
    toast(e);
  }
}

// A room's newest page, scrolled to its end.
export function showHistory(messages, hasMore) {
  paintTyping();
  historyRead(messages, hasMore);
  $('#messages').replaceChildren(...messages.map(messageItem));
  paintFlow();
  $('#no-messages').hidden = messages.length > 0;
  paintOutbox();
  $('#composer').hidden = false;
  $('#messages').scrollTop = $('#messages').scrollHeight;
  if (messages.length) markRead(chat.cid, messages[messages.length - 1].id);
}

// Scrolled to the top: the page before, kept where the reader was.
export async function loadOlder() {
  if (!chat.hasMore || view.loadingOlder || !chat.oldest) return;
  view.loadingOlder = true;
  const cid = chat.cid;
  try {
    const { messages, hasMore } = await api('GET', `${messagesPath()}?limit=${HISTORY_PAGE}&beforeId=${chat.oldest}`);
    if (cid !== chat.cid) return;
    const list = $('#messages');
    const from = list.scrollHeight - list.scrollTop;
    olderRead(messages, hasMore);
    list.prepend(...messages.map(messageItem));
    paintFlow();
    list.scrollTop = list.scrollHeight - from;
  } catch (e) {
    showError($('#send-error'), e);
  } finally {
    view.loadingOlder = false;
  }
}

// Replying: the message answered shows above the composer until sent, or cancelled (✕, Esc).
export function startReply(m) {
  view.replyTo = m;
  $('#reply-to').replaceChildren(t('reply.to'), ' ', el('strong', { text: nameOf(m.fromId) }), ': ', ...quoteNodes((m.content || '').slice(0, 80)));
  $('#reply-bar').hidden = false;
  $('#text').focus();
}

export function stopReply() {
  view.replyTo = null;
  $('#reply-bar').hidden = true;
}

// A reply's quote leads to the original: shown already, it is scrolled to; else the messages
// around it are read (one request).
export async function jumpTo(id) {
  let target = document.getElementById(`m-${id}`);
  if (!target) {
    try {
      const { messages, hasMore } = await api('GET', `${messagesPath()}?around=${id}&limit=${HISTORY_PAGE}`);
      showHistory(messages, hasMore);
    } catch (e) {
      return showError($('#send-error'), e);
    }
    target = document.getElementById(`m-${id}`);
  }
  if (!target) return;
  target.scrollIntoView({ block: 'center' });
  target.classList.remove('flash');
  void target.offsetWidth; // the highlight again, if it was just shown
  target.classList.add('flash');
}

provide({ jumpTo, openChannel, startReply });
