// What a person set for later: messages scheduled from the composer's ＋ ("Agendar mensagem"),
// reminders set from a message's menu ("Lembrar-me"), both listed atop the 🔖 panel (edited,
// moved, cancelled), and a reminder's arrival (REMINDER_DUE) as a toast, or a notification while
// the tab is hidden, with a way to its message.
import { act } from './chat-actions.js';
import { askChoice, askText, askWith } from './chat-dialog.js';
import { dmName } from './chat-dm-group.js';
import { chat } from './chat-store.js';
import { toast } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';

const HOUR = 3600e3;
const when = (iso) => new Date(iso).toLocaleString(locale(), { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

// "2026-11-30T15:00" for a datetime-local input, in this browser's time.
function localInput(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60e3);
  return d.toISOString().slice(0, 16);
}

function timeField(id, ms, maxDays) {
  const input = el('input', { type: 'datetime-local', id, required: '' });
  input.value = localInput(ms);
  input.min = localInput(Date.now());
  input.max = localInput(Date.now() + maxDays * 24 * HOUR);
  return input;
}

// The next round hour at least an hour away.
const inAnHour = () => Math.ceil((Date.now() + HOUR) / HOUR) * HOUR;

// Where the open room is, as the API names it.
function here() {
  return chat.dm ? { channelId: chat.cid } : { serverId: chat.sid, channelId: chat.cid };
}

// From the composer's ＋: its text (or one typed here), sent by the server at the time chosen.
export async function scheduleMessage() {
  const text = el('textarea', { id: 'later-text', rows: '3', maxlength: '4000', required: '' });
  text.value = $('#text').value.trim();
  const at = timeField('later-at', inAnHour(), 30);
  const fields = [el('label', { for: 'later-text', text: t('later.text') }), text, el('label', { for: 'later-at', text: t('later.at') }), at];
  if (!(await askWith(t('later.schedule'), fields, { confirm: t('later.schedule.confirm') }))) return;
  try {
    const { scheduled } = await api('POST', '/api/users/@me/scheduled-messages', { ...here(), content: text.value.trim(), sendAt: new Date(at.value).toISOString() });
    if ($('#text').value.trim() === text.value.trim()) $('#text').value = '';
    toast(t('later.scheduled', { when: when(scheduled.sendAt) }));
    paintLater();
  } catch (e) {
    showError($('#send-error'), e);
  }
}

// From a message's menu: a reminder about it, at one of the usual moments.
export async function remindAbout(m) {
  const now = new Date();
  const tomorrow9 = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9).getTime();
  const monday9 = new Date(now.getFullYear(), now.getMonth(), now.getDate() + ((8 - now.getDay()) % 7 || 7), 9).getTime();
  const choices = [[20 * 60e3, t('later.in.minutes', { n: 20 })], [HOUR, t('later.in.hour')], [3 * HOUR, t('later.in.hours', { n: 3 })],
    [tomorrow9 - now.getTime(), t('later.tomorrow')], [monday9 - now.getTime(), t('later.monday')]];
  const asked = await askChoice(t('later.remind'), t('later.when'), choices.map(([ms, label]) => [String(ms), label]),
    { wordsLabel: t('later.note'), maxLength: 500, confirm: t('later.remind.confirm') });
  if (!asked) return;
  try {
    const { reminder } = await api('POST', '/api/users/@me/reminders',
      { messageId: m.id, note: asked.words || null, remindAt: new Date(Date.now() + Number(asked.choice)).toISOString() });
    toast(t('later.reminded', { when: when(reminder.remindAt) }));
    paintLater();
  } catch (e) {
    showError($('#send-error'), e);
  }
}

// "/lembrete 20m ligar para a Bia" (or "/remind 2h …", in minutes, hours or days): a reminder in
// one's own words, as Slack's /remind; it comes before any bot's command of that name. A function
// to run it, or null when the text is no such command.
const UNITS = { m: 60e3, min: 60e3, h: HOUR, d: 24 * HOUR };
export function reminderCommand(text) {
  if (!/^\/(lembrete|remind)(\s|$)/i.test(text)) return null;
  const parts = /^\/\S+\s+(\d{1,4})\s*(min|m|h|d)\s+(.+)$/is.exec(text);
  return async () => {
    if (!parts) throw new Error(t('later.command.usage'));
    const { reminder } = await api('POST', '/api/users/@me/reminders',
      { note: parts[3].trim().slice(0, 500), remindAt: new Date(Date.now() + Number(parts[1]) * UNITS[parts[2].toLowerCase()]).toISOString() });
    toast(t('later.reminded', { when: when(reminder.remindAt) }));
    paintLater();
  };
}

// Where a scheduled message goes, as the page can name it.
function whereTo(s) {
  if (!s.serverId) {
    const dm = chat.dms.find((d) => d.id === s.channelId);
    return dm ? `@ ${dmName(dm)}` : t('saved.in.dm');
  }
  const server = chat.servers.find((x) => x.id === s.serverId);
  const channel = s.serverId === chat.sid ? chat.allChannels.find((c) => c.id === s.channelId) : null;
  return [server && server.name, channel && `#${channel.name}`].filter(Boolean).join(' · ');
}

async function change(path, body) {
  try {
    await api('PATCH', path, body);
    paintLater();
  } catch (e) {
    toast(e);
  }
}

async function cancel(path) {
  try {
    await api('DELETE', path);
    paintLater();
  } catch (e) {
    toast(e);
  }
}

async function moveTime(s) {
  const at = timeField('later-at', Math.max(Date.parse(s.sendAt), inAnHour()), 30);
  if (await askWith(t('later.move'), [el('label', { for: 'later-at', text: t('later.at') }), at], { confirm: t('dialog.save') })) {
    change(`/api/users/@me/scheduled-messages/${s.id}`, { sendAt: new Date(at.value).toISOString() });
  }
}

function scheduledItem(s) {
  const path = `/api/users/@me/scheduled-messages/${s.id}`;
  const editText = async () => {
    const text = await askText(t('later.edit'), t('later.text'), { value: s.content, maxLength: 4000, required: true, confirm: t('dialog.save') });
    if (text !== null) change(path, { content: text });
  };
  return el('li', { class: 'pin later-item', 'data-id': s.id },
    el('div', { class: 'head' }, el('strong', { text: `🕒 ${when(s.sendAt)}` }), el('span', { class: 'muted small', text: whereTo(s) })),
    el('div', { class: 'content', text: s.content }),
    s.state === 'failed' ? el('div', { class: 'error', text: t('later.failed', { why: s.error }) }) : '',
    el('div', { class: 'pin-actions' },
      el('button', { type: 'button', class: 'link-button small', text: t('later.edit'), onclick: editText }),
      el('button', { type: 'button', class: 'link-button small', text: s.state === 'failed' ? t('later.retry') : t('later.move'), onclick: () => moveTime(s) }),
      el('button', { type: 'button', class: 'link-button small', text: t('later.cancel'), onclick: () => cancel(path) })));
}

function reminderItem(r) {
  return el('li', { class: 'pin later-item', 'data-id': r.id },
    el('div', { class: 'head' }, el('strong', { text: `⏰ ${when(r.remindAt)}` })),
    el('div', { class: 'content', text: r.note || t('later.about.message') }),
    el('div', { class: 'pin-actions' },
      r.messageId && r.channelId ? el('button', { type: 'button', class: 'link-button small', text: t('pins.jump'),
        onclick: () => act.goToMessage({ id: r.messageId, serverId: r.serverId, channelId: r.channelId, threadId: r.threadId }).catch(toast) }) : '',
      el('button', { type: 'button', class: 'link-button small', text: t('later.cancel'), onclick: () => cancel(`/api/users/@me/reminders/${r.id}`) })));
}

function section(id, title, items) {
  return items.length ? el('section', { class: 'later-section', id }, el('h3', { class: 'muted small', text: `${title} (${items.length})` }), el('ol', { class: 'pins-list' }, ...items)) : '';
}

// The scheduled messages and reminders atop the open 🔖 panel.
export async function paintLater() {
  if ($('#saved-panel').hidden) return;
  try {
    const [{ scheduled }, { reminders }] = await Promise.all([api('GET', '/api/users/@me/scheduled-messages'), api('GET', '/api/users/@me/reminders')]);
    $('#later').replaceChildren(section('later-scheduled', t('later.scheduled.title'), scheduled.map(scheduledItem)),
                                section('later-reminders', t('later.reminders.title'), reminders.map(reminderItem)));
  } catch (e) {
    showError($('#send-error'), e);
  }
}

// REMINDER_DUE: told in the page, and by a notification while the tab is hidden.
export function reminderDue({ reminder, message }) {
  const text = reminder.note || (message ? message.preview : t('later.about.message'));
  const open = () => message && act.goToMessage(message).catch(toast);
  toast(`⏰ ${t('later.due', { text })}`);
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted' && document.visibilityState !== 'visible') {
    const n = new Notification(t('later.due.title'), { body: text.slice(0, 200), tag: `reminder-${reminder.id}` });
    n.onclick = () => { window.focus(); open(); n.close(); };
  }
  paintLater();
}
