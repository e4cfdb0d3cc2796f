// Browser notifications for what is meant for the person: a DM, or a message that mentions them
// (by name, by one of their roles in the open server, or @everyone), as their notification
// settings say (chat-notify-settings.js). Asked for once, from a button (browsers only ask after
// a click); never shown while the tab is in view. Allowed, the device subscribes to Web Push
// (chat-push.js), and a click on a push's notification opens its room here (the worker says
// which).
import { dmName, loadDms, openDm } from './chat-dms.js';
import { openChannel } from './chat-room.js';
import { tellsMe } from './chat-notify-settings.js';
import { pushActive, subscribeDevice } from './chat-push.js';
import { openServer } from './chat-servers.js';
import { doNotDisturb } from './chat-status.js';
import { chat } from './chat-store.js';
import { toast } from './chat-ui.js';
import { $ } from './common.js';
import { t } from './i18n.js';

const NOTIFY_KEY = 'praca-notify-asked';

function notifySupported() {
  return typeof Notification !== 'undefined';
}

// The question, once: shown until answered, either way, in this browser.
function paintNotifyAsk() {
  $('#notify-ask').hidden = !notifySupported() || Notification.permission !== 'default' || !!localStorage.getItem(NOTIFY_KEY);
}

export function wireNotify() {
  $('#notify-yes').addEventListener('click', async () => {
    localStorage.setItem(NOTIFY_KEY, 'yes');
    const answer = await Notification.requestPermission().catch(() => 'denied');
    paintNotifyAsk();
    if (answer === 'granted') subscribeDevice().catch((e) => console.warn('push: not subscribed:', e));
  });
  $('#notify-no').addEventListener('click', () => {
    localStorage.setItem(NOTIFY_KEY, 'no');
    paintNotifyAsk();
  });
  paintNotifyAsk();
  // Each visit: the subscription checked again (a new key, a device that lost it).
  subscribeDevice().catch((e) => console.warn('push: not subscribed:', e));
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (e) => {
      if (e.data && typeof e.data.open === 'string') openFromHash(new URLSearchParams(e.data.open.split('#')[1] || ''));
    });
  }
}

function meantForMe(m) {
  const mine = m.serverId === chat.sid && chat.mine ? chat.mine.roleIds : [];
  return tellsMe(m.serverId, m.channelId, {
    mentioned: (m.mentions || []).includes(chat.me.id),
    roleMentioned: (m.mentionedRoleIds || []).some((r) => mine.includes(r)),
    everyone: !!m.mentionsEveryone,
  });
}

// Opens the room a notification names: a DM (listed first when it is new) or a server's room.
function openRoom(serverId, channelId, roomId) {
  window.focus();
  const opened = !serverId ? (chat.dms.some((d) => d.id === channelId) ? Promise.resolve() : loadDms()).then(() => openDm(channelId))
    : serverId === chat.sid ? openChannel(roomId)
      : openServer(serverId).then(() => openChannel(roomId));
  return opened.catch(toast);
}

function openFromHash(hash) {
  if (hash.get('dm')) openRoom(null, hash.get('dm'));
  else if (hash.get('server') && hash.get('channel')) openRoom(hash.get('server'), null, hash.get('channel'));
}

// MESSAGE_CREATE by someone else: a notification when it is for me and the tab is not in view.
export function notifyArrived(m) {
  if (!notifySupported() || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  if (pushActive()) return; // the push for it comes through the service worker
  if (m.fromId === chat.me.id || chat.blocked.has(m.fromId) || doNotDisturb() || !meantForMe(m)) return;
  const where = m.serverId ? (chat.servers.find((s) => s.id === m.serverId) || {}).name : null;
  const dm = m.serverId ? null : chat.dms.find((d) => d.id === m.channelId);
  const who = dm ? dmName(dm) : chat.names.get(m.fromId) || t('notify.someone'); // the open server's names
  const n = new Notification(where ? t('notify.in', { who, where }) : t('notify.dm', { who }), {
    body: (m.content || t('rules.no.text')).slice(0, 200), tag: m.threadId || m.channelId,
  });
  n.onclick = () => {
    openRoom(m.serverId, m.channelId, m.threadId || m.channelId);
    n.close();
  };
}
