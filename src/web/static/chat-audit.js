// The settings' audit log: who changed what in the server, from what to what, and why, newest
// first, a page at a time (VER_AUDITORIA).
import { chat } from './chat-store.js';
import { $, api, el, showError } from './common.js';

const ACTIONS = {
  'server.update': 'alterou o servidor', 'automod.update': 'alterou a moderação automática',
  'channel.create': 'criou o canal', 'channel.update': 'alterou o canal', 'channel.delete': 'apagou o canal',
  'channel.overwrite.create': 'criou uma permissão no canal', 'channel.overwrite.update': 'alterou uma permissão no canal',
  'channel.overwrite.delete': 'tirou uma permissão do canal',
  'role.create': 'criou o cargo', 'role.update': 'alterou o cargo', 'role.delete': 'apagou o cargo',
  'member.role.add': 'deu um cargo a', 'member.role.remove': 'tirou um cargo de', 'member.update': 'alterou',
  'member.timeout': 'silenciou', 'member.timeout.remove': 'tirou o silêncio de', 'member.kick': 'expulsou',
  'member.ban': 'baniu', 'member.unban': 'desbaniu', 'invite.create': 'criou o convite', 'invite.delete': 'revogou o convite',
  'application.install': 'instalou a aplicação', 'application.uninstall': 'desinstalou a aplicação',
  'command.permissions.update': 'mudou quem usa o comando', 'webhook.create': 'criou o webhook',
  'webhook.update': 'alterou o webhook', 'webhook.token': 'gerou uma nova URL para o webhook', 'webhook.delete': 'apagou o webhook',
};

const memberName = (id) => { const m = chat.members.find((x) => x.userId === id); return m ? (m.nickname || m.user.displayName || m.user.username) : null; };
const roleName = (id) => (chat.roles.find((r) => r.id === id) || {}).name;
const channelName = (id) => { const c = chat.allChannels.find((x) => x.id === id); return c ? `#${c.name}` : null; };

function targetName(e) {
  const id = e.targetId;
  if (!id) return '';
  const named = e.targetType === 'member' ? memberName(id) : e.targetType === 'role' ? roleName(id)
    : e.targetType === 'channel' ? channelName(id) : e.targetType === 'server' ? chat.server.name : null;
  const fromChanges = (e.changes || []).find((c) => c.key === 'name');
  return named || (fromChanges && (fromChanges.new || fromChanges.old)) || id.slice(0, 8);
}

const shown = (v) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function entryItem(e) {
  const when = new Date(e.createdAt).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' });
  const changes = (e.changes || []).map((c) => el('li', { class: 'small' }, el('code', { text: c.key }), ` ${shown(c.old)} → ${shown(c.new)}`));
  return el('li', { class: 'audit-entry' },
    el('div', {}, el('strong', { text: memberName(e.actorId) || (e.applicationId ? 'um bot' : 'alguém') }), ` ${ACTIONS[e.action] || e.action} `,
      el('strong', { text: targetName(e) }), el('time', { class: 'muted small', datetime: e.createdAt, text: ` ${when}` })),
    changes.length ? el('ul', { class: 'audit-changes' }, ...changes) : '',
    e.reason ? el('div', { class: 'muted small', text: `Motivo: ${e.reason}` }) : '');
}

let oldest = null;

export async function loadAudit(more = false) {
  try {
    const q = more && oldest ? `?before=${oldest}` : '';
    const { entries, hasMore } = await api('GET', `/api/servers/${chat.sid}/audit-log${q}`);
    const items = entries.map(entryItem);
    if (more) $('#audit').append(...items);
    else $('#audit').replaceChildren(...items);
    oldest = entries.length ? entries[entries.length - 1].id : oldest;
    $('#audit-more').hidden = !hasMore;
    $('#no-audit').hidden = more || entries.length > 0;
  } catch (e) {
    showError($('#settings-error'), e);
  }
}

export function wireAudit() {
  $('#audit-more').addEventListener('click', () => loadAudit(true));
}
