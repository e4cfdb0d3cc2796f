// The server's settings in the chat client: its name, rules and verification level, its roles
// with their permissions, its invites (chat-invites.js), and the applications installed. Each part shows only to those the API
// lets change it (GERENCIAR_SERVIDOR, GERENCIAR_CARGOS); the server still decides.
import { provide } from './chat-actions.js';
import { ask } from './chat-dialog.js';
import { loadAudit, wireAudit } from './chat-audit.js';
import { loadCommandSettings } from './chat-command-settings.js';
import { loadWebhooks, wireWebhooks } from './chat-webhooks.js';
import { colour } from './chat-components.js';
import { paintEmojiSettings, wireEmojiSettings } from './chat-emoji-settings.js';
import { loadInvites } from './chat-invites.js';
import { loadReports } from './chat-report-queue.js';
import { paintMembers } from './chat-members.js';
import { loadServer, loadServers } from './chat-servers.js';
import { allowedSections, loadBans, paintChannelsManage, paintServerIcon, paintTabs, wireInviteForm, wireServerSettings, wireTabs } from './chat-settings.js';
import { chat, commandsRead } from './chat-store.js';
import { flash, toast } from './chat-ui.js';
import { $, api, checkedBits, el, permissionBoxes, PERMISSIONS, showError } from './common.js';
import { t, tn } from './i18n.js';

const VERIFICATION_LEVELS = [t('verification.none'), t('verification.account'), t('verification.member'), t('verification.mfa')];

export async function loadSettings() {
  const allowed = allowedSections();
  paintTabs(allowed);
  const shown = (id) => allowed.has(id) && !$(`#${id}`).hidden;
  if (shown('server-settings')) { fillServerForm(); paintServerIcon(); }
  if (shown('automod-settings')) fillServerForm();
  if (shown('channels-settings')) paintChannelsManage();
  if (shown('roles-settings')) paintRoles();
  if (shown('members-settings')) paintMembers();
  if (shown('emojis-settings')) paintEmojiSettings();
  await Promise.all([shown('apps-settings') && loadApps(), shown('commands-settings') && loadCommandSettings(),
    shown('webhooks-settings') && loadWebhooks(), shown('audit-settings') && loadAudit(),
    shown('invites-settings') && loadInvites(), shown('bans-settings') && loadBans(), shown('reports-settings') && loadReports()]);
}

function fillServerForm() {
  const s = chat.server;
  $('#server-rename').value = s.name;
  $('#verification').replaceChildren(...VERIFICATION_LEVELS.map((label, level) =>
    el('option', { value: String(level), text: `${level}: ${label}`, selected: level === s.verificationLevel })));
  $('#requires-rules').checked = s.requiresRulesAcceptance;
  $('#rules-edit').value = s.rules || '';
  $('#discoverable').checked = s.discoverable;
  $('#link-previews').checked = s.linkPreviews !== false;
  $('#server-description').value = s.description || '';
  $('#server-tags').value = (s.tags || []).join(', ');
  const automod = s.automod || { blockedWords: [], maxMentions: null };
  $('#blocked-words').value = automod.blockedWords.join('\n');
  $('#max-mentions').value = automod.maxMentions === null ? '' : String(automod.maxMentions);
}

// Highest first, as the server orders them; managed roles (a bot's) are shown but not editable.
function paintRoles() {
  const roles = [...chat.roles].sort((a, b) => b.position - a.position);
  $('#roles').replaceChildren(...roles.map((r) => {
    const name = r.id === chat.server.id ? '@everyone' : r.name;
    const boxes = el('div', { class: 'perm-grid' });
    permissionBoxes(boxes, r.permissions, { name: `perm-${r.id}` });
    for (const input of boxes.querySelectorAll('input')) input.disabled = r.managed;
    const item = el('details', { class: 'role', 'data-id': r.id },
                    el('summary', {}, el('strong', { text: name }),
                       el('span', { class: 'muted small', text: r.managed ? t('role.of.app') : ` · ${tn('role.perm.count', PERMISSIONS.filter((p) => r.permissions & p.bit).length)}` })),
                    boxes);
    if (r.color) item.querySelector('summary').prepend(roleDot(r.color));
    if (!r.managed) {
      const everyone = r.id === chat.server.id;
      const color = el('input', { type: 'color', 'aria-label': t('role.color.label', { name }), 'data-color': r.id });
      color.value = colour(r.color || 0x99aab5);
      const hoist = el('input', { type: 'checkbox', 'data-hoist': r.id });
      hoist.checked = r.hoist;
      const save = el('button', { type: 'button', text: t('dialog.save'), onclick: () => changeRole(r.id, 'PATCH',
        { permissions: checkedBits(boxes), ...(everyone ? {} : { color: parseInt(color.value.slice(1), 16), hoist: hoist.checked }) }) });
      const actions = el('div', { class: 'actions' }, save);
      if (!everyone) {
        item.insertBefore(el('label', { class: 'check role-color' }, color, t('role.color')), boxes);
        item.insertBefore(el('label', { class: 'check' }, hoist, t('app.mostrar-separado-lista-pessoas')), boxes);
        const top = Math.max(...chat.roles.map((x) => x.position));
        actions.append(
          el('button', { type: 'button', class: 'secondary', text: t('role.up'), 'aria-label': t('role.up.label', { name: r.name }), disabled: r.position >= top,
                         onclick: () => changeRole(r.id, 'PATCH', { position: r.position + 1 }, t('role.order.saved')) }),
          el('button', { type: 'button', class: 'secondary', text: t('role.down'), 'aria-label': t('role.down.label', { name: r.name }), disabled: r.position <= 1,
                         onclick: () => changeRole(r.id, 'PATCH', { position: r.position - 1 }, t('role.order.saved')) }),
          el('button', { type: 'button', class: 'danger', text: t('role.delete'), onclick: async () => {
            if (await ask(t('role.delete.ask', { name: r.name }), t('role.delete.text'), { confirm: t('delete'), danger: true })) changeRole(r.id, 'DELETE');
          } }));
      }
      item.append(actions);
    }
    return item;
  }));
}

function roleDot(color) {
  const dot = el('span', { class: 'role-dot', 'aria-hidden': 'true' });
  dot.style.background = colour(color); // through the DOM: the CSP refuses style attributes
  return dot;
}

async function changeRole(rid, method, body, done = method === 'DELETE' ? t('role.deleted') : t('role.saved')) {
  $('#settings-error').hidden = true;
  const open = [...document.querySelectorAll('#roles details[open]')].map((d) => d.dataset.id);
  try {
    await api(method, `/api/servers/${chat.sid}/roles/${rid}`, body);
    await loadServer(chat.sid); // SERVER_UPDATE follows too; this page need not wait for it
    paintRoles();
    for (const id of open) { const d = $(`#roles details[data-id="${id}"]`); if (d) d.open = true; }
    flash('#roles-done', done);
  } catch (e) {
    showError($('#settings-error'), e);
  }
}


async function loadApps() {
  const { applications } = await api('GET', `/api/servers/${chat.sid}/applications`);
  $('#apps').replaceChildren(...applications.map((a) => {
    const granted = PERMISSIONS.filter((p) => a.grantedPermissions & p.bit).map((p) => p.label);
    const remove = el('button', { type: 'button', class: 'secondary', text: t('app.uninstall'), onclick: async () => {
      try {
        await api('DELETE', `/api/servers/${chat.sid}/applications/${a.id}`);
        commandsRead((await api('GET', `/api/servers/${chat.sid}/commands`)).commands);
        await loadApps();
      } catch (e) {
        showError($('#settings-error'), e);
      }
    } });
    return el('li', {}, el('span', {}, el('strong', { text: a.name }), el('br'),
                           el('small', { class: 'muted', text: granted.join(', ') || t('app.no.permissions') })), remove);
  }));
  $('#no-apps').hidden = applications.length > 0;
}

export function wireSettings() {
  wireTabs();
  wireWebhooks();
  wireAudit();
  wireServerSettings();
  wireInviteForm();
  wireEmojiSettings();
  $('#server-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#settings-error').hidden = true;
    try {
      await api('PATCH', `/api/servers/${chat.sid}`, {
        name: $('#server-rename').value, verificationLevel: Number($('#verification').value),
        requiresRulesAcceptance: $('#requires-rules').checked, rules: $('#rules-edit').value,
        discoverable: $('#discoverable').checked, description: $('#server-description').value,
        linkPreviews: $('#link-previews').checked,
        tags: $('#server-tags').value.split(/[,\s]+/).map((x) => x.replace(/^#/, '')).filter(Boolean),
      });
      await loadServer(chat.sid);
      await loadServers();
      flash('#server-done', t('server.saved'));
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
  $('#role-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#settings-error').hidden = true;
    try {
      await api('POST', `/api/servers/${chat.sid}/roles`, { name: $('#role-name').value, permissions: checkedBits($('#role-perms')), mentionable: $('#role-mentionable').checked, hoist: $('#role-hoist').checked });
      $('#role-form').reset();
      permissionBoxes($('#role-perms'), 0);
      await loadServer(chat.sid);
      paintRoles();
      flash('#roles-done', t('role.created'));
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
  permissionBoxes($('#role-perms'), 0);
  $('#automod-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#settings-error').hidden = true;
    const max = $('#max-mentions').value.trim();
    try {
      const { automod } = await api('PUT', `/api/servers/${chat.sid}/automod`, {
        blockedWords: $('#blocked-words').value.split('\n').map((w) => w.trim()).filter(Boolean),
        maxMentions: max === '' ? null : Number(max),
      });
      $('#blocked-words').value = automod.blockedWords.join('\n'); // as the server keeps them
      await loadServer(chat.sid);
      flash('#automod-done', tn('automod.saved', automod.blockedWords.length));
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
  $('#channel-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#settings-error').hidden = true;
    try {
      const type = $('#channel-type').value;
      const parentId = type !== 'category' && $('#channel-parent').value ? $('#channel-parent').value : undefined;
      const { channel } = await api('POST', `/api/servers/${chat.sid}/channels`, { name: $('#channel-name').value, type, parentId });
      $('#channel-form').reset();
      await loadServer(chat.sid);
      paintChannelsManage();
      flash('#channels-done', t('channel.created', { name: channel.name }));
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
  $('#server-leave').addEventListener('click', async () => {
    if (!(await ask(t('server.leave.ask', { name: chat.server.name }), t('server.leave.text'), { confirm: t('server.leave'), danger: true }))) return;
    try {
      await api('DELETE', `/api/servers/${chat.sid}/members/@me`);
      location.assign('/app');
    } catch (err) {
      toast(err);
    }
  });
}

provide({ loadSettings });
