// The people column: the open channel's member list as the gateway keeps it (members:subscribe,
// then MEMBER_LIST_UPDATE), connected first, grouped by hoisted role, then offline, each by
// name. The page holds at most three ranges of 100 rows; "Mostrar mais" moves on to the next,
// so a server of any size costs the page only what it shows. After a reconnect it subscribes
// again and gets the rows as they are then.
import { act } from './chat-actions.js';
import { personMenu } from './chat-apps.js';
import { statusLabel, view } from './chat-ui.js';
import { chat, roomOf } from './chat-store.js';
import { $, el } from './common.js';
import { language, t } from './i18n.js';

const RANGE = 100;
const RANGES = 3;

const people = { key: '', starts: [0], summary: null, rows: new Map(), asked: 0 };

// The channel whose list the column shows: the open room's (a thread's parent), else the
// server's first text channel.
function listChannel() {
  const { parent } = chat.cid ? roomOf(chat.cid) : {};
  if (parent && parent.type !== 'voice') return parent.id;
  const first = chat.channels.find((c) => c.type === 'text');
  return first ? first.id : null;
}

// Subscribes to the list of the open server's channel, unless already following it (again when
// `again`: a new connection holds no subscription).
export async function followPeople(again = false) {
  const channelId = chat.sid && !chat.dm ? listChannel() : null;
  const key = channelId ? `${chat.sid}/${channelId}` : '';
  if (!view.gateway || !view.live || (key === people.key && !again)) return;
  if (key !== people.key) Object.assign(people, { key, starts: [0], summary: null, rows: new Map() });
  const asked = ++people.asked;
  const payload = key ? { serverId: chat.sid, channelId, ranges: people.starts.map((s) => [s, s + RANGE - 1]) } : { serverId: null };
  const answer = await view.gateway.emitWithAck('members:subscribe', payload).catch(() => null);
  if (asked !== people.asked || !key) return; // a later subscription, or none wanted
  if (!answer || answer.error) {
    people.key = ''; // asked again on the next room or reconnect
    $('#people-title').textContent = t('app.people-title');
    $('#people').replaceChildren(el('li', { class: 'muted small', text: answer && language() === 'pt' ? answer.error : t('people.unavailable') }));
    return;
  }
  people.rows = new Map();
  listArrived(answer);
}

// The ack and each MEMBER_LIST_UPDATE: the counts, and the ranges that changed, whole.
export function listArrived(u) {
  if (`${u.serverId}/${u.channelId}` !== people.key) return;
  people.summary = { memberCount: u.memberCount, onlineCount: u.onlineCount, groups: u.groups };
  for (const r of u.ranges) people.rows.set(r.range[0], r.rows);
  paintPeople();
}

function groupTitle(id, count) {
  const role = chat.roles.find((r) => r.id === id);
  const name = id === 'online' ? t('people.online') : id === 'offline' ? t('people.offline') : role ? role.name : t('rules.kind.role');
  return `${name} — ${count}`;
}

function personRow(m) {
  const member = { userId: m.userId, nickname: m.name, user: { id: m.userId, username: m.username, isBot: m.isBot, displayName: m.name } };
  const menu = (e) => { if (e.type === 'click' || e.key === 'Enter' || e.key === ' ') { e.preventDefault(); personMenu(e.currentTarget, member, act.startDm); } };
  const top = chat.roles.filter((r) => m.roleIds.includes(r.id) && r.color).sort((a, b) => b.position - a.position)[0];
  const name = el('span', { class: m.status === 'offline' ? 'muted' : '', text: m.name });
  if (top && m.status !== 'offline') name.style.color = `#${top.color.toString(16).padStart(6, '0')}`; // the CSSOM, which the page's CSP allows
  const said = activityText(m.activity);
  return el('li', { class: 'person', 'data-id': m.userId, tabindex: '0', 'aria-haspopup': 'menu', title: `${m.name} (@${m.username})`, onclick: menu, onkeydown: menu },
    el('span', { class: `status ${m.status}`, role: 'img', 'aria-label': statusLabel(m.status), title: statusLabel(m.status) }),
    said ? el('span', { class: 'person-text' }, name, el('span', { class: 'person-activity', text: said })) : name,
    m.isBot ? el('span', { class: 'bot-tag', text: 'BOT' }) : '',
    chat.imported.has(m.userId) ? el('span', { class: 'imported-tag', text: t('message.imported'), title: t('message.imported.title') }) : '');
}

// A row's status text (its emoji first), unless it has run out: the list is not told when one
// ends, so the page hides it past its expiresAt.
function activityText(a) {
  if (!a || !a.name || (a.expiresAt && Date.parse(a.expiresAt) <= Date.now())) return '';
  return a.emoji ? `${a.emoji} ${a.name}` : a.name;
}

function moveTo(first) {
  people.starts = Array.from({ length: RANGES }, (_, i) => first + i * RANGE);
  followPeople(true);
}

// The column from what is held: the title, the rows of the ranges held, and a way on.
export function paintPeople() {
  if (!chat.sid) return;
  followPeople(); // nothing when already following this room's list
  const s = people.summary;
  $('#people-title').textContent = s ? t('people.count', { online: s.onlineCount, all: s.memberCount }) : t('app.people-title');
  const items = [];
  const counts = new Map((s ? s.groups : []).map((g) => [g.id, g.count]));
  for (const start of people.starts) {
    for (const row of people.rows.get(start) || []) {
      items.push(row.group ? el('li', { class: 'people-group nav-title', text: groupTitle(row.group.id, counts.get(row.group.id) || 0) })
        : personRow(row.member));
    }
  }
  const rows = s ? s.memberCount + s.groups.length : 0;
  const end = people.starts[people.starts.length - 1] + RANGE;
  if (people.starts[0] > 0) items.unshift(el('li', {}, el('button', { type: 'button', class: 'people-more', text: t('people.top'), onclick: () => moveTo(0) })));
  if (rows > end) {
    items.push(el('li', {}, el('button', { type: 'button', class: 'people-more', text: t('people.more', { n: rows - end }),
      onclick: () => (people.starts.length < RANGES ? (people.starts.push(end), followPeople(true)) : moveTo(people.starts[1])) })));
  }
  $('#people').replaceChildren(...items);
  if ($('#people-box').hidden) $('#people-box').open = matchMedia('(min-width: 720px)').matches; // folded on a phone, above the room
  $('#people-box').hidden = false;
}
