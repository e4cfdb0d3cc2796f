// The server settings' "Comandos" part: each installed bot's commands, who may use them by
// default, and the server's own rules (allow or deny by role, channel or member), as a server
// admin sets them. The server decides; this draws and sends.
import { chat } from './chat-store.js';
import { $, api, el, PERMISSIONS, showError } from './common.js';
import { t, tn } from './i18n.js';

const KINDS = { role: t('rules.kind.role'), channel: t('rules.kind.channel'), member: t('rules.kind.member') };

function defaultText(c) {
  const d = c.defaultMemberPermissions;
  if (d === null || d === undefined) return t('rules.default.all');
  if (d === 0) return t('rules.default.admins');
  return t('rules.default.who', { perms: PERMISSIONS.filter((p) => d & p.bit).map((p) => p.label.toLowerCase()).join(', ') });
}

const targets = (kind) => kind === 'role' ? chat.roles.map((r) => [r.id, r.id === chat.sid ? '@everyone' : r.name])
  : kind === 'channel' ? chat.allChannels.filter((c) => c.type === 'text').map((c) => [c.id, `#${c.name}`])
  : chat.members.map((m) => [m.userId, m.nickname || m.user.displayName || m.user.username]);

const targetName = (rule) => (targets(rule.type).find(([id]) => id === rule.id) || [rule.id, rule.id])[1];

function commandItem(c, rules, save) {
  const label = c.type === 'chat' ? `/${c.name}` : t(c.type === 'user' ? 'rules.user.menu' : 'rules.message.menu', { name: c.name });
  const list = el('ul', { class: 'list rules' }, ...rules.map((r, i) => el('li', {},
    el('span', { text: `${KINDS[r.type]} ${targetName(r)}: ${r.allow ? t('rules.may') : t('rules.may.not')}` }),
    el('button', { type: 'button', class: 'link-button small', text: t('rules.remove'), 'aria-label': t('rules.remove.label', { target: targetName(r), command: label }),
                   onclick: () => save(rules.filter((_, j) => j !== i)) }))));
  const kind = el('select', { 'aria-label': t('rules.kind') }, ...Object.entries(KINDS).map(([k, v]) => el('option', { value: k, text: v })));
  const target = el('select', { 'aria-label': t('rules.target') });
  const fill = () => target.replaceChildren(...targets(kind.value).map(([id, name]) => el('option', { value: id, text: name })));
  kind.onchange = fill;
  fill();
  const allow = el('select', { 'aria-label': t('rules.may.or.not') }, el('option', { value: '1', text: t('rules.may') }), el('option', { value: '0', text: t('rules.may.not') }));
  const add = el('form', { class: 'rule-add' }, kind, target, allow, el('button', { type: 'submit', class: 'secondary small-button', text: t('rules.add') }));
  add.onsubmit = (e) => {
    e.preventDefault();
    const rule = { type: kind.value, id: target.value, allow: allow.value === '1' };
    save([...rules.filter((r) => !(r.type === rule.type && r.id === rule.id)), rule]);
  };
  return el('details', { class: 'command-rules' },
    el('summary', {}, el('strong', { text: label }), ' ', el('span', { class: 'muted small', text: `${defaultText(c)} · ${tn('rules.count', rules.length)}` })),
    rules.length ? list : el('p', { class: 'muted small', text: t('rules.none') }), add);
}

export async function loadCommandSettings() {
  const [{ commands }, { permissions }, { applications }] = await Promise.all([
    api('GET', `/api/servers/${chat.sid}/commands?manage=1`), api('GET', `/api/servers/${chat.sid}/command-permissions`),
    api('GET', `/api/servers/${chat.sid}/applications`)]);
  const rulesOf = (c) => (permissions.find((p) => p.applicationId === c.applicationId && p.commandName === c.name) || { permissions: [] }).permissions;
  const open = new Set([...document.querySelectorAll('#command-settings details[open]')].map((d) => d.dataset.key));
  $('#command-settings').replaceChildren(...applications.filter((a) => commands.some((c) => c.applicationId === a.id)).map((a) =>
    el('div', { class: 'app-commands' }, el('h3', { text: a.name }), ...commands.filter((c) => c.applicationId === a.id).map((c) => {
      const item = commandItem(c, rulesOf(c), async (next) => {
        try {
          await api('PUT', `/api/servers/${chat.sid}/command-permissions`, { applicationId: a.id, commandName: c.name, permissions: next });
          await loadCommandSettings();
        } catch (e) {
          showError($('#settings-error'), e);
        }
      });
      item.dataset.key = `${a.id}/${c.name}`;
      item.open = open.has(item.dataset.key);
      return item;
    }))));
  $('#no-commands').hidden = commands.length > 0;
}
