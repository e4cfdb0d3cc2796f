// The settings' audit log: who changed what in the server, from what to what, and why, newest
// first, a page at a time (VER_AUDITORIA).
import { chat } from './chat-store.js';
import { $, PERMISSIONS, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';

// The actions a sentence names (audit.<action> in the catalogues).
const ACTIONS = new Set([
  'server.update', 'server.transfer', 'automod.update', 'channel.create', 'channel.update', 'channel.delete', 'channel.overwrite.create', 'channel.overwrite.update', 'channel.overwrite.delete', 'role.create', 'role.update', 'role.delete', 'member.role.add', 'member.role.remove', 'member.update', 'member.timeout', 'member.timeout.remove', 'member.kick', 'member.ban', 'member.unban', 'invite.create', 'invite.delete', 'application.install', 'application.uninstall', 'command.permissions.update', 'webhook.create', 'webhook.update', 'webhook.token', 'webhook.delete', 'report.create', 'report.resolve', 'report.dismiss', 'report.reopen',
]);

const memberName = (id) => { const m = chat.members.find((x) => x.userId === id); return m ? (m.nickname || m.user.displayName || m.user.username) : null; };
const roleName = (id) => (chat.roles.find((r) => r.id === id) || {}).name;
const channelName = (id) => { const c = chat.allChannels.find((x) => x.id === id); return c ? `#${c.name}` : null; };

function targetName(e) {
  const id = e.targetId;
  if (!id || e.targetType === 'report') return '';
  if (e.targetType === 'message') return t('audit.message');
  const named = e.targetType === 'member' ? memberName(id) : e.targetType === 'role' ? roleName(id)
    : e.targetType === 'channel' ? channelName(id) : e.targetType === 'server' ? chat.server.name : null;
  const fromChanges = (e.changes || []).find((c) => c.key === 'name');
  return named || (fromChanges && (fromChanges.new || fromChanges.old)) || t('audit.deleted');
}

// What a change names, as a sentence says it ("mudou o nome de #geral para #avisos"): the fields
// the catalogues word (audit.field.<key>); another is named by its key.
const FIELDS = new Set([
  'ownerId', 'name', 'topic', 'permissions', 'color', 'mentionable', 'hoist', 'position', 'nickname', 'verificationLevel', 'requiresRulesAcceptance', 'rules', 'requires2FA', 'blockedWords', 'maxMentions', 'channelId', 'grantedPermissions', 'allow', 'deny', 'timeoutUntil', 'iconUrl', 'maxUses', 'maxAge', 'roleId', 'type', 'reason', 'note',
]);
const BITS = new Set(['permissions', 'grantedPermissions', 'allow', 'deny']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// A value as a person reads it: names for IDs, permissions by name, yes or no, dates, quotes.
function said(key, v) {
  if (v === null || v === undefined || v === '') return t('audit.nothing');
  if (typeof v === 'boolean') return v ? t('audit.yes') : t('audit.no');
  if (BITS.has(key) && typeof v === 'number') {
    const names = PERMISSIONS.filter((p) => v & p.bit).map((p) => p.label);
    return names.length ? names.join(', ') : t('audit.none');
  }
  if (Array.isArray(v)) return v.length ? v.map((x) => said(key, x)).join(', ') : t('audit.nothing');
  if (typeof v === 'string' && UUID.test(v)) return channelName(v) || roleName(v) || memberName(v) || t('audit.deleted');
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)) return new Date(v).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
  if (key === 'reason' && typeof v === 'string') return t(`report.reason.${v}`);
  if (key === 'color' && typeof v === 'number') return `#${v.toString(16).padStart(6, '0')}`;
  if (typeof v === 'object') return JSON.stringify(v);
  return `“${v}”`;
}

function changeLine(e, c) {
  const field = FIELDS.has(c.key) ? t(`audit.field.${c.key}`) : c.key;
  if (c.key === 'name' && e.targetType === 'channel') return t('audit.renamed.channel', { old: c.old, new: c.new });
  if (c.old === undefined || c.old === null) return t('audit.set', { field, new: said(c.key, c.new) });
  if (c.new === undefined || c.new === null) return t('audit.unset', { field, old: said(c.key, c.old) });
  return t('audit.changed', { field, old: said(c.key, c.old), new: said(c.key, c.new) });
}

function entryItem(e) {
  const when = new Date(e.createdAt).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
  const who = memberName(e.actorId) || (e.applicationId ? t('audit.a.bot') : t('audit.someone'));
  const changes = (e.changes || []).map((c) => el('li', { class: 'small' }, `${who} ${changeLine(e, c)}`));
  return el('li', { class: 'audit-entry' },
    el('div', {}, el('strong', { text: who }), ` ${ACTIONS.has(e.action) ? t(`audit.${e.action}`) : e.action} `,
      el('strong', { text: targetName(e) }), el('time', { class: 'muted small', datetime: e.createdAt, text: ` ${when}` })),
    changes.length ? el('ul', { class: 'audit-changes' }, ...changes) : '',
    e.reason ? el('div', { class: 'muted small', text: t('audit.reason', { reason: e.reason }) }) : '');
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
