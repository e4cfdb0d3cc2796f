// The settings' audit log: who changed what in the server, from what to what, and why, newest
// first, a page at a time (VER_AUDITORIA).
import { chat } from './chat-store.js';
import { $, PERMISSIONS, api, el, showError } from './common.js';

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
  return named || (fromChanges && (fromChanges.new || fromChanges.old)) || 'um item apagado';
}

// What a change names, as a sentence says it ("mudou o nome de #geral para #avisos").
const FIELDS = {
  name: 'o nome', topic: 'o tópico', permissions: 'as permissões', color: 'a cor', mentionable: 'quem pode mencionar',
  hoist: 'se aparece à parte', position: 'a posição', nickname: 'o apelido', verificationLevel: 'o nível de verificação',
  requiresRulesAcceptance: 'o pedido de aceitar as regras', rules: 'as regras', requires2FA: 'a exigência de dois fatores',
  blockedWords: 'as palavras bloqueadas', maxMentions: 'o máximo de menções', channelId: 'o canal', grantedPermissions: 'as permissões dadas',
  allow: 'o que é permitido', deny: 'o que é negado', timeoutUntil: 'o silêncio', iconUrl: 'o ícone', maxUses: 'o máximo de usos',
  maxAge: 'a validade', roleId: 'o cargo', type: 'o tipo',
};
const BITS = new Set(['permissions', 'grantedPermissions', 'allow', 'deny']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// A value as a person reads it: names for IDs, permissions by name, yes or no, dates, quotes.
function said(key, v) {
  if (v === null || v === undefined || v === '') return 'nada';
  if (typeof v === 'boolean') return v ? 'sim' : 'não';
  if (BITS.has(key) && typeof v === 'number') {
    const names = PERMISSIONS.filter((p) => v & p.bit).map((p) => p.label);
    return names.length ? names.join(', ') : 'nenhuma';
  }
  if (Array.isArray(v)) return v.length ? v.map((x) => said(key, x)).join(', ') : 'nada';
  if (typeof v === 'string' && UUID.test(v)) return channelName(v) || roleName(v) || memberName(v) || 'um item apagado';
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)) return new Date(v).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' });
  if (key === 'color' && typeof v === 'number') return `#${v.toString(16).padStart(6, '0')}`;
  if (typeof v === 'object') return JSON.stringify(v);
  return `“${v}”`;
}

function changeLine(e, c) {
  const field = FIELDS[c.key] || c.key;
  if (c.key === 'name' && e.targetType === 'channel') return `mudou o nome de #${c.old} para #${c.new}`;
  if (c.old === undefined || c.old === null) return `pôs ${field}: ${said(c.key, c.new)}`;
  if (c.new === undefined || c.new === null) return `tirou ${field} (era ${said(c.key, c.old)})`;
  return `mudou ${field} de ${said(c.key, c.old)} para ${said(c.key, c.new)}`;
}

function entryItem(e) {
  const when = new Date(e.createdAt).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' });
  const who = memberName(e.actorId) || (e.applicationId ? 'um bot' : 'alguém');
  const changes = (e.changes || []).map((c) => el('li', { class: 'small' }, `${who} ${changeLine(e, c)}`));
  return el('li', { class: 'audit-entry' },
    el('div', {}, el('strong', { text: who }), ` ${ACTIONS[e.action] || e.action} `,
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
