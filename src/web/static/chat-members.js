// The server's members in the settings: what the person may do with each (roles, a timeout, a
// kick), as the API allows it. The people column is chat-people.js.
import { ask, askText } from './chat-dialog.js';
import { startDm } from './chat-dms.js';
import { showMessage } from './chat-messages.js';
import { basePermissions, PERM } from './chat-perms.js';
import { loadServer, loadServers, paintServer } from './chat-servers.js';
import { flash, statusLabel } from './chat-ui.js';
import { chat, memberAdded, memberRemoved, presenceApplied } from './chat-store.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';


const TIMEOUT_MS = 10 * 60 * 1000;

async function memberAction(fn, done) {
  $('#settings-error').hidden = true;
  try {
    await fn();
    await loadServer(chat.sid);
    paintMembers();
    flash('#members-done', done);
  } catch (err) {
    showError($('#settings-error'), err);
  }
}

function memberRoles(m, who) {
  const path = (r) => `/api/servers/${chat.sid}/members/${m.userId}/roles/${r.id}`;
  const roles = chat.roles.filter((r) => r.id !== chat.server.id && !r.managed).sort((a, b) => b.position - a.position);
  return roles.map((r) => {
    const box = el('input', { type: 'checkbox', 'data-role': r.id });
    box.checked = m.roleIds.includes(r.id);
    box.addEventListener('change', () => memberAction(() => api(box.checked ? 'PUT' : 'DELETE', path(r)),
      t(box.checked ? 'member.role.given' : 'member.role.taken', { who, role: r.name })));
    return el('label', { class: 'check' }, box, r.name);
  });
}

function memberRow(m, can) {
  const who = m.nickname || m.user.displayName || m.user.username;
  const owner = m.userId === chat.server.ownerId;
  const held = m.timeoutUntil && new Date(m.timeoutUntil) > new Date();
  const row = el('li', { class: 'member', 'data-id': m.userId },
    el('span', { class: `status ${m.status}`, role: 'img', 'aria-label': statusLabel(m.status), title: statusLabel(m.status) }),
    el('strong', { text: who }),
    el('span', { class: 'muted small', text: ` @${m.user.username}${m.user.isBot ? ' · bot' : ''}${m.user.imported ? t('member.imported') : ''}${owner ? t('member.owner') : ''}${held ? t('member.held.until', { when: new Date(m.timeoutUntil).toLocaleString(locale()) }) : ''}` }));
  if (owner || m.userId === chat.me.id) return row;
  const actions = el('div', { class: 'member-actions' });
  if (!m.user.isBot) actions.append(el('button', { type: 'button', class: 'secondary small-button', text: t('action.dm'), onclick: () => startDm(m.userId) }));
  if (can & PERM.GERENCIAR_CARGOS) actions.append(...memberRoles(m, who));
  const path = `/api/servers/${chat.sid}/members/${m.userId}`;
  if (can & PERM.MODERAR_MEMBROS) {
    actions.append(el('button', { type: 'button', class: 'secondary small-button', text: held ? t('member.unhold') : t('member.hold'),
      onclick: () => memberAction(() => api('PATCH', path, { timeoutUntil: held ? null : new Date(Date.now() + TIMEOUT_MS).toISOString() }),
        held ? t('member.unheld', { who }) : t('member.held', { who })) }));
  }
  if (can & PERM.MODERAR_MEMBROS) {
    actions.append(el('button', { type: 'button', class: 'secondary small-button', text: t('member.nickname'), 'aria-label': t('member.nickname.label', { who }), onclick: async () => {
      const nickname = await askText(t('member.nickname.of', { name: m.user.displayName || m.user.username }), t('member.nickname.field'),
                                     { value: m.nickname || '', maxLength: 32 });
      if (nickname === null) return;
      memberAction(() => api('PATCH', path, { nickname: nickname.trim() || null }),
        nickname.trim() ? t('member.nickname.set', { name: m.user.username, nickname: nickname.trim() }) : t('member.nickname.unset', { name: m.user.username }));
    } }));
  }
  if (can & PERM.EXPULSAR_MEMBROS) {
    actions.append(el('button', { type: 'button', class: 'danger small-button', text: t('member.kick'),
      onclick: async () => (await ask(t('member.kick.ask', { who }), t('member.kick.text'), { confirm: t('member.kick'), danger: true })) &&
        memberAction(() => api('DELETE', path), t('member.kicked', { who })) }));
  }
  if (can & PERM.BANIR_MEMBROS) {
    actions.append(el('button', { type: 'button', class: 'danger small-button', text: t('member.ban'), onclick: async () => {
      const reason = await askText(t('member.ban.ask', { who }), t('member.ban.reason'),
                                   { text: t('member.ban.text'), confirm: t('member.ban'), maxLength: 512 });
      if (reason === null) return;
      memberAction(() => api('PUT', `/api/servers/${chat.sid}/bans/${m.userId}`, reason.trim() ? { reason: reason.trim() } : {}), t('member.banned', { who }));
    } }));
  }
  row.append(actions);
  return row;
}

export function paintMembers() {
  const can = basePermissions(chat.server, chat.roles, chat.mine);
  $('#members-list').replaceChildren(...chat.members.map((m) => memberRow(m, can)));
}

// GUILD_MEMBER_ADD and GUILD_MEMBER_REMOVE change one member in place, with no request: the
// event carries the member (chat-store.js). Another server's are nothing to this page until it
// is opened.
export function memberJoined(m) {
  const changed = memberAdded(m);
  if (changed === 'mine-elsewhere') loadServers().catch(() => {}); // joined elsewhere (another tab)
  else if (changed) membersRepainted();
}

export function memberLeft(m) {
  if (memberRemoved(m)) membersRepainted();
}

function membersRepainted() {
  paintServer(); // what I may do may have changed with my own member
  for (const m of chat.messages.values()) showMessage(m);
  if (!$('#members-settings').hidden && !$('#settings').hidden) paintMembers();
}

// PRESENCE_UPDATE (servers of up to 1,000 people): someone in the open server connected, left
// or changed their status, as the settings' member list shows it. The people column follows
// its own list (chat-people.js).
export function presenceChanged(u) {
  if (!presenceApplied(u)) return;
  if (!$('#members-settings').hidden && !$('#settings').hidden) paintMembers();
}
