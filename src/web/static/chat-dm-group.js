// A group conversation (up to 10 people): named by its name or by its people, its people listed
// in the channels column with what one may do there (bring someone, rename it, leave; its owner
// removes someone), made from the DMs list or from a pair's conversation, and kept as DM_UPDATE
// and DM_REMOVE tell.
import { act } from './chat-actions.js';
import { ask, askPeople, askText } from './chat-dialog.js';
import { avatar } from './chat-flow.js';
import { chat } from './chat-store.js';
import { toast } from './chat-ui.js';
import { api, el } from './common.js';
import { locale, t } from './i18n.js';

export const GROUP_MAX = 10;
const personName = (p) => p.displayName || p.username;

export function dmName(d) {
  if (!d.group) return d.displayName || d.username;
  if (d.name) return d.name;
  const names = d.people.map(personName);
  return names.length ? new Intl.ListFormat(locale(), { style: 'short', type: 'conjunction' }).format(names) : t('group.alone');
}

// The others of a conversation, as the page names authors: [{id, name}].
export function dmPeople(d) {
  return d.group ? d.people.map((p) => ({ id: p.id, name: personName(p) })) : [{ id: d.userId, name: dmName(d) }];
}

// Whom one may bring: the other people of one's conversations and of the server last read.
function candidates(except) {
  const found = new Map();
  const add = (id, name, username) => {
    if (id && id !== chat.me.id && !except.has(id) && !found.has(id)) found.set(id, { id, name, username });
  };
  for (const d of chat.dms) {
    if (d.group) for (const p of d.people) add(p.id, personName(p), p.username);
    else if (!d.deleted) add(d.userId, d.displayName || d.username, d.username);
  }
  for (const m of chat.members) if (!m.user.isBot) add(m.userId, m.nickname || personName(m.user), m.user.username);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name, locale()));
}

// A new group: the people chosen (those of `seed` already), a name if one is given.
export async function makeGroup(seed = []) {
  const chosen = await askPeople(t('group.new'), candidates(new Set()), { max: GROUP_MAX - 1, confirm: t('group.create'), nameLabel: t('group.name'), checked: seed });
  if (!chosen) return;
  try {
    const { channel } = await api('POST', '/api/users/@me/dms', { userIds: chosen.ids, name: chosen.name });
    await act.loadDms();
    await act.openDm(channel.id);
  } catch (e) {
    toast(e);
  }
}

async function bringTo(d) {
  const inside = new Set(d.people.map((p) => p.id));
  const chosen = await askPeople(t('group.add.title'), candidates(inside), { max: GROUP_MAX - 1 - inside.size, confirm: t('group.add.confirm') });
  if (!chosen) return;
  try {
    for (const id of chosen.ids) await api('PUT', `/api/dms/${d.id}/members/${id}`);
  } catch (e) {
    toast(e);
  }
  await act.loadDms(); // DM_UPDATE says so too; this page need not wait for it
}

async function rename(d) {
  const name = await askText(t('group.rename.title'), t('group.name'), { value: d.name || '', maxLength: 100, text: t('group.rename.text') });
  if (name === null) return;
  try {
    await api('PATCH', `/api/dms/${d.id}`, { name: name.trim() });
    await act.loadDms();
  } catch (e) {
    toast(e);
  }
}

async function removeFrom(d, p) {
  if (!(await ask(t('group.remove.ask', { name: personName(p) }), t('group.remove.text'), { confirm: t('group.remove.confirm'), danger: true }))) return;
  try {
    await api('DELETE', `/api/dms/${d.id}/members/${p.id}`);
    await act.loadDms();
  } catch (e) {
    toast(e);
  }
}

async function leave(d) {
  if (!(await ask(t('group.leave.ask', { name: dmName(d) }), t('group.leave.text'), { confirm: t('group.leave'), danger: true }))) return;
  try {
    await api('DELETE', `/api/dms/${d.id}/members/@me`);
    await act.groupLeft(d.id); // DM_REMOVE says so too, when the page is connected
  } catch (e) {
    toast(e);
  }
}

const button = (text, run, cls = 'secondary') => el('button', { type: 'button', class: `${cls} small-button`, text, onclick: run });

// The channels column of a group: who is in it, and what one may do there.
export function groupNav(d) {
  const mine = d.ownerId === chat.me.id;
  const everyone = [{ id: chat.me.id, displayName: chat.me.displayName, username: chat.me.username }, ...d.people];
  const rows = everyone.map((p) => el('li', { class: 'group-person' }, avatar(p.id, personName(p)),
    el('span', { class: 'group-person-name', text: p.id === chat.me.id ? t('group.you', { name: personName(p) }) : personName(p) }),
    p.id === d.ownerId ? el('span', { class: 'bot-tag', text: t('group.owner') }) : '',
    mine && p.id !== chat.me.id
      ? el('button', { type: 'button', class: 'link-button small', text: '✕', 'aria-label': t('group.remove.label', { name: personName(p) }), onclick: () => removeFrom(d, p) })
      : ''));
  return [el('li', { class: 'nav-title', text: t('group.people', { n: everyone.length, max: GROUP_MAX }) }), ...rows,
    el('li', { class: 'group-actions' },
      everyone.length < GROUP_MAX ? button(t('group.add'), () => bringTo(d)) : '',
      button(t('group.rename'), () => rename(d)),
      button(t('group.leave'), () => leave(d), 'danger'))];
}
