// Browser notifications for what is meant for the person: a DM, or a message that mentions them
// (by name, by one of their roles in the open server, or @everyone). Asked for once, from a
// button (browsers only ask after a click); never shown while the tab is in view.
import { dmName, loadDms, openDm } from './chat-dms.js';
import { openChannel } from './chat-room.js';
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
    await Notification.requestPermission().catch(() => 'denied');
    paintNotifyAsk();
  });
  $('#notify-no').addEventListener('click', () => {
    localStorage.setItem(NOTIFY_KEY, 'no');
    paintNotifyAsk();
  });
  paintNotifyAsk();
}

function meantForMe(m) {
  if (!m.serverId) return true; // a DM
  if (m.mentionsEveryone || (m.mentions || []).includes(chat.me.id)) return true;
  const mine = m.serverId === chat.sid && chat.mine ? chat.mine.roleIds : [];
  return (m.mentionedRoleIds || []).some((r) => mine.includes(r));
}

// MESSAGE_CREATE by someone else: a notification when it is for me and the tab is not in view.
export function notifyArrived(m) {
  if (!notifySupported() || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  if (m.fromId === chat.me.id || chat.blocked.has(m.fromId) || doNotDisturb() || !meantForMe(m)) return;
  const where = m.serverId ? (chat.servers.find((s) => s.id === m.serverId) || {}).name : null;
  const dm = m.serverId ? null : chat.dms.find((d) => d.id === m.channelId);
  const who = dm ? dmName(dm) : chat.names.get(m.fromId) || t('notify.someone'); // the open server's names
  const n = new Notification(where ? t('notify.in', { who, where }) : t('notify.dm', { who }), {
    body: (m.content || t('rules.no.text')).slice(0, 200), tag: m.threadId || m.channelId,
  });
  n.onclick = () => {
    window.focus();
    // A DM someone just began may not be listed yet: the list first.
    const opened = !m.serverId ? (chat.dms.some((d) => d.id === m.channelId) ? Promise.resolve() : loadDms()).then(() => openDm(m.channelId))
      : m.serverId === chat.sid ? openChannel(m.threadId || m.channelId)
        : openServer(m.serverId).then(() => openChannel(m.threadId || m.channelId));
    opened.catch(toast);
    n.close();
  };
}
