// Direct messages: one's conversations with other people (a pair's, or a group's:
// chat-dm-group.js), listed under the servers and opened like a channel (history paged upward,
// the composer, live messages, reactions and pins), and a new one started from someone's message
// or member row. A DM has no commands.
import { provide } from './chat-actions.js';
import { dmName, dmPeople, groupNav, makeGroup } from './chat-dm-group.js';
import { avatar, newLineFor } from './chat-flow.js';
import { messagesPath } from './chat-messages.js';
import { togglePins } from './chat-pins.js';
import { paintUnread } from './chat-read.js';
import { HISTORY_PAGE, showHistory, stopReply } from './chat-room.js';
import { go } from './chat-screens.js';
import { paintVerificationHold } from './chat-servers.js';
import { chat, dmChanged, dmOpened, dmsRead } from './chat-store.js';
import { closeThread } from './chat-thread.js';
import { showPanel, toast } from './chat-ui.js';
import { $, api, el } from './common.js';
import { t } from './i18n.js';

export { dmName };

export async function loadDms() {
  dmsRead((await api('GET', '/api/users/@me/dms')).dms);
  $('#dms').replaceChildren(...chat.dms.map((d) => el('li', {}, el('button', {
    type: 'button', class: d.group ? 'server dm group' : 'server dm', title: d.group ? dmName(d) : `${dmName(d)} (@${d.username})`, 'data-id': d.id,
    'aria-current': chat.dm && chat.dm.id === d.id ? 'true' : false, onclick: () => { go('room'); openDm(d.id); },
  }, avatar(d.userId || d.id, dmName(d), 'server-mark'), el('span', { class: 'server-name', text: dmName(d) })))));
  $('#no-dms').hidden = chat.dms.length > 0;
  paintUnread();
  const open = chat.dm && chat.dms.find((d) => d.id === chat.dm.id);
  if (open) paintDm(open); // a group renamed, someone in or out
}

export async function startDm(userId) {
  try {
    const { channel } = await api('POST', '/api/users/@me/dms', { userId });
    await loadDms();
    go('room');
    await openDm(channel.id);
  } catch (e) {
    toast(e);
  }
}

// The channels column says whom the conversation is with (a group: who is in it, and what one may
// do there); a server's buttons go.
function paintDmNav(d) {
  $('#server-title').textContent = d.group ? t('group.title') : t('dm.title');
  if (d.group) $('#channels').replaceChildren(...groupNav(d));
  else {
    $('#channels').replaceChildren(el('li', { class: 'muted small', text: t('dm.only.you', { name: dmName(d), username: d.username }) }),
      el('li', {}, el('button', { type: 'button', class: 'secondary small-button', text: t('group.from.pair'), onclick: () => makeGroup([d.userId]) })));
  }
  for (const id of ['#invite-make', '#settings-open', '#server-leave', '#invite-box', '#timeout', '#verification-hold', '#people-box']) {
    const node = document.querySelector(id);
    if (node) node.hidden = true;
  }
  for (const b of document.querySelectorAll('#servers button')) b.setAttribute('aria-current', 'false');
  for (const b of document.querySelectorAll('#dms button')) b.setAttribute('aria-current', b.dataset.id === d.id ? 'true' : 'false');
}

export async function openDm(cid) {
  stopReply();
  closeThread();
  const d = chat.dms.find((x) => x.id === cid);
  if (!d) return;
  newLineFor(cid); // from the unread mark, before opening clears it
  dmOpened(d, dmPeople(d));
  paintVerificationHold(); // no server: nothing to wait for
  showPanel('#room');
  paintDm(d);
  paintUnread();
  $('#pins-open').hidden = false; // pins, as a channel has
  $('#people-open').hidden = true; // a group lists its people in the channels column
  $('#channel-notify').hidden = true; // a DM always tells, unless "não perturbe"
  togglePins(false);
  const { messages, hasMore } = await api('GET', `${messagesPath()}?limit=${HISTORY_PAGE}`);
  if (cid !== chat.cid) return;
  showHistory(messages, hasMore);
  history.replaceState(history.state, '', `#dm=${cid}`);
}

// The open conversation's name, people and column, as last read.
function paintDm(d) {
  dmChanged(d, dmPeople(d));
  paintDmNav(d);
  $('#channel-title').textContent = d.group ? `👥 ${dmName(d)}` : `@ ${dmName(d)}`;
  $('#text').placeholder = t('dm.placeholder', { name: dmName(d) });
}

// A message in a conversation this page does not list yet (someone wrote first): the list again.
export function dmArrived(m) {
  if (!chat.dms.some((d) => d.id === m.channelId)) loadDms().catch(() => {});
}

provide({ startDm, openDm, loadDms });

export function wireGroups() {
  $('#group-new').addEventListener('click', () => makeGroup());
}
