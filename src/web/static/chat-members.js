// The server's members in its settings: who they are, whether they are connected now, and what
// the person may do with each (roles, a timeout, a kick), as the API allows it.
'use strict';

const STATUS_LABELS = { online: 'online', idle: 'ausente', dnd: 'não perturbe', offline: 'offline' };
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
      `${who} ${box.checked ? 'agora tem' : 'não tem mais'} o cargo ${r.name}.`));
    return el('label', { class: 'check' }, box, r.name);
  });
}

function memberRow(m, can) {
  const who = m.nickname || m.user.displayName || m.user.username;
  const owner = m.userId === chat.server.ownerId;
  const held = m.timeoutUntil && new Date(m.timeoutUntil) > new Date();
  const row = el('li', { class: 'member', 'data-id': m.userId },
    el('span', { class: `status ${m.status}`, role: 'img', 'aria-label': STATUS_LABELS[m.status] || m.status, title: STATUS_LABELS[m.status] || m.status }),
    el('strong', { text: who }),
    el('span', { class: 'muted small', text: ` @${m.user.username}${m.user.isBot ? ' · bot' : ''}${owner ? ' · dono' : ''}${held ? ` · suspenso até ${new Date(m.timeoutUntil).toLocaleString('pt-BR')}` : ''}` }));
  if (owner || m.userId === chat.me.id) return row;
  const actions = el('div', { class: 'member-actions' });
  if (!m.user.isBot) actions.append(el('button', { type: 'button', class: 'secondary small-button', text: 'Conversar', onclick: () => startDm(m.userId) }));
  if (can & PERM.GERENCIAR_CARGOS) actions.append(...memberRoles(m, who));
  const path = `/api/servers/${chat.sid}/members/${m.userId}`;
  if (can & PERM.MODERAR_MEMBROS) {
    actions.append(el('button', { type: 'button', class: 'secondary small-button', text: held ? 'Retirar suspensão' : 'Suspender por 10 min',
      onclick: () => memberAction(() => api('PATCH', path, { timeoutUntil: held ? null : new Date(Date.now() + TIMEOUT_MS).toISOString() }),
        held ? `A suspensão de ${who} acabou.` : `${who} está suspenso por 10 minutos.`) }));
  }
  if (can & PERM.EXPULSAR_MEMBROS) {
    actions.append(el('button', { type: 'button', class: 'danger small-button', text: 'Expulsar',
      onclick: () => confirm(`Expulsar ${who}? Com um convite, pode voltar.`) && memberAction(() => api('DELETE', path), `${who} foi expulso.`) }));
  }
  row.append(actions);
  return row;
}

function paintMembers() {
  const can = basePermissions(chat.server, chat.roles, chat.mine);
  $('#members-list').replaceChildren(...chat.members.map((m) => memberRow(m, can)));
}
