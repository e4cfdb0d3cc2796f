// What reaches me from a server or a channel (PUT …/notification-settings): every message, only
// mentions or nothing; muted for 1 h, 8 h, 24 h or until turned back; a server's @everyone and
// role mentions silenced. Opened from the server's 🔔 and the room's 🔔 (a thread's is its
// channel's); a muted channel is marked 🔕 in the list. The page's own notifications follow the
// same rule as the server's pushes (tellsMe, as domain/notify_rules.c decides).
import { askWith } from './chat-dialog.js';
import { pushSupported, subscribeDevice } from './chat-push.js';
import { chat, notifySettingChanged, notifySettingsRead, roomOf } from './chat-store.js';
import { toast } from './chat-ui.js';
import { api, el } from './common.js';
import { locale, t } from './i18n.js';

const DEFAULTS = { level: 'default', mutedUntil: 0, suppressEveryone: false, suppressRoles: false };
const settingOf = (scope) => chat.notify.get(scope) || DEFAULTS;
const mutedNow = (s, now = Date.now()) => s.mutedUntil === -1 || s.mutedUntil > now;

export async function loadNotifySettings() {
  const { settings } = await api('GET', '/api/users/@me/notification-settings');
  notifySettingsRead(settings);
  paintMutes();
}

// Whether a message in server sid's channel cid tells me: facts are {mentioned, roleMentioned,
// everyone}. A DM always does (the caller checks "não perturbe").
export function tellsMe(sid, cid, { mentioned, roleMentioned, everyone }) {
  if (!sid) return true;
  const server = settingOf(sid), channel = settingOf(cid);
  if (mutedNow(server) || mutedNow(channel)) return false;
  const level = channel.level !== 'default' ? channel.level : server.level !== 'default' ? server.level : 'mentions';
  if (level !== 'mentions') return level === 'all';
  return mentioned || (roleMentioned && !server.suppressRoles) || (everyone && !server.suppressEveryone);
}

// The channels of the open server that are silenced (theirs or the server's), marked in the list.
export function paintMutes() {
  const serverMuted = !!chat.sid && mutedNow(settingOf(chat.sid));
  for (const b of document.querySelectorAll('#channels button[data-id]')) {
    const { parent } = roomOf(b.dataset.id);
    const muted = serverMuted || mutedNow(settingOf(parent ? parent.id : b.dataset.id));
    b.classList.toggle('muted-room', muted);
    if (muted) b.title = t('notify.muted');
    else b.removeAttribute('title');
  }
}

function levelField(current, levels) {
  const box = el('fieldset', { class: 'ask-choices' }, el('legend', { text: t('notify.level') }));
  for (const [value, label] of levels) {
    const input = el('input', { type: 'radio', name: 'notify-level', id: `notify-level-${value}`, value });
    input.checked = current === value;
    box.append(el('div', { class: 'ask-choice' }, input, el('label', { for: input.id, text: label })));
  }
  return box;
}

function muteField(s) {
  const options = [['0', t('notify.mute.none')], ['1', t('notify.mute.1')], ['8', t('notify.mute.8')],
    ['24', t('notify.mute.24')], ['-1', t('notify.mute.forever')]];
  if (mutedNow(s) && s.mutedUntil !== -1) {
    const until = new Date(s.mutedUntil).toLocaleString(locale(), { weekday: 'short', hour: '2-digit', minute: '2-digit' });
    options.unshift(['keep', t('notify.mute.until', { time: until })]);
  }
  const select = el('select', { id: 'notify-mute' }, ...options.map(([value, name]) => el('option', { value, text: name })));
  select.value = !mutedNow(s) ? '0' : s.mutedUntil === -1 ? '-1' : 'keep';
  return [el('label', { for: 'notify-mute', text: t('notify.mute') }), select];
}

function checkField(id, label, on) {
  const input = el('input', { type: 'checkbox', id });
  input.checked = on;
  return el('div', { class: 'ask-choice' }, input, el('label', { for: id, text: label }));
}

// This device: told with Praça closed, or a way to make it so.
function deviceField() {
  const line = el('p', { class: 'muted small', 'aria-live': 'polite' });
  const paint = (key) => { line.textContent = t(key); };
  if (!pushSupported()) paint('notify.device.none');
  else if (Notification.permission === 'denied') paint('notify.device.blocked');
  else if (Notification.permission === 'granted') paint('notify.device.on');
  else {
    paint('notify.device.off');
    line.append(' ', el('button', { type: 'button', class: 'link-button small', id: 'notify-device', text: t('notify.device.enable'),
      onclick: async (e) => {
        e.target.disabled = true;
        const answer = await Notification.requestPermission().catch(() => 'denied');
        paint(answer === 'granted' ? 'notify.device.on' : 'notify.device.blocked');
        if (answer === 'granted') subscribeDevice().catch(toast);
      } }));
  }
  return line;
}

// The dialog's fields are read after it closed (and left the page): by reference.
async function ask(scope, path, title, fields, isServer) {
  const s = settingOf(scope);
  const [muteLabel, mute] = muteField(s);
  if (!(await askWith(title, [...fields, muteLabel, mute, deviceField()]))) return;
  const box = (id) => fields.map((f) => f.querySelector(`#${id}`)).find(Boolean);
  const level = fields[0].querySelector('input[name="notify-level"]:checked');
  const body = { level: level ? level.value : 'default' };
  if (mute.value !== 'keep') body.muteHours = Number(mute.value);
  if (isServer) {
    body.suppressEveryone = box('notify-everyone').checked;
    body.suppressRoles = box('notify-roles').checked;
  }
  try {
    const saved = await api('PUT', path, body);
    notifySettingChanged(scope, saved);
    paintMutes();
  } catch (e) {
    toast(e);
  }
}

export function askServerNotify() {
  const sid = chat.sid, s = settingOf(sid);
  const levels = [['all', t('notify.level.all')], ['mentions', t('notify.level.mentions')], ['nothing', t('notify.level.nothing')]];
  return ask(sid, `/api/servers/${sid}/notification-settings`, t('notify.settings.server', { name: chat.server.name }),
    [levelField(s.level === 'default' ? 'mentions' : s.level, levels),
      checkField('notify-everyone', t('notify.everyone'), s.suppressEveryone),
      checkField('notify-roles', t('notify.roles'), s.suppressRoles)], true);
}

// The open room's channel (a thread's parent).
export function askChannelNotify() {
  const { room, parent } = roomOf(chat.cid);
  const channel = parent || room;
  const server = settingOf(chat.sid).level;
  const levels = [['default', t('notify.level.default', { level: t(`notify.level.${server === 'default' ? 'mentions' : server}`) })],
    ['all', t('notify.level.all')], ['mentions', t('notify.level.mentions')], ['nothing', t('notify.level.nothing')]];
  return ask(channel.id, `/api/servers/${chat.sid}/channels/${channel.id}/notification-settings`,
    t('notify.settings.channel', { name: channel.name }), [levelField(settingOf(channel.id).level, levels)], false);
}
