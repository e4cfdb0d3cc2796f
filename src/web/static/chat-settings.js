// The server's settings in sections, one shown at a time, each only to those the API lets use it:
// the server (name, icon, rules, deletion by the owner), its channels (rename, private, delete),
// invites with an expiry and a number of uses, and the bans. Roles, members and bots are drawn by
// chat-manage.js and chat-members.js; the server decides every change.
import { act } from './chat-actions.js';
import { channelGroups } from './chat-categories.js';
import { ask } from './chat-dialog.js';
import { paintServerArchive } from './chat-exports.js';
import { loadInvites } from './chat-invites.js';
import { basePermissions, PERM } from './chat-perms.js';
import { loadServer, loadServers } from './chat-servers.js';
import { paintTransfer, wireTransfer } from './chat-transfer.js';
import { chat } from './chat-store.js';
import { flash, view } from './chat-ui.js';
import { $, api, el, readAsDataUrl, showError } from './common.js';
import { locale, t } from './i18n.js';

const ICON_MAX_BYTES = 2 * 1024 * 1024; // the API's limit for a data: icon

// Which sections the person may use, from their permissions in the open server.
export function allowedSections() {
  const base = basePermissions(chat.server, chat.roles, chat.mine);
  const owner = chat.server.ownerId === chat.me.id;
  const any = (bits) => (base & bits) !== 0;
  return new Set([
    ...(any(PERM.GERENCIAR_SERVIDOR) || owner ? ['server-settings'] : []),
    ...(any(PERM.GERENCIAR_CANAIS) ? ['channels-settings'] : []),
    ...(any(PERM.GERENCIAR_CARGOS) ? ['roles-settings'] : []),
    ...(any(PERM.GERENCIAR_CARGOS | PERM.EXPULSAR_MEMBROS | PERM.MODERAR_MEMBROS | PERM.BANIR_MEMBROS) ? ['members-settings'] : []),
    ...(any(PERM.GERENCIAR_SERVIDOR) ? ['invites-settings', 'emojis-settings', 'automod-settings', 'apps-settings', 'commands-settings'] : []),
    ...(any(PERM.BANIR_MEMBROS) ? ['bans-settings'] : []),
    ...(any(PERM.GERENCIAR_MENSAGENS) ? ['reports-settings'] : []),
    ...(any(PERM.GERENCIAR_WEBHOOKS) ? ['webhooks-settings'] : []),
    ...(any(PERM.VER_AUDITORIA) ? ['audit-settings'] : []),
  ]);
}

// The tabs the person may use; the chosen one (kept while it stays allowed) shows its sections.
export function paintTabs(allowed, chosen = view.settingsTab) {
  const tabs = [...document.querySelectorAll('#settings-tabs [role=tab]')];
  const usable = tabs.filter((t) => t.dataset.sections.split(' ').some((s) => allowed.has(s)));
  for (const tab of tabs) tab.hidden = !usable.includes(tab);
  const current = usable.find((t) => t.dataset.sections === chosen) || usable[0];
  view.settingsTab = current ? current.dataset.sections : null;
  for (const tab of tabs) tab.setAttribute('aria-selected', String(tab === current));
  for (const section of document.querySelectorAll('#settings > section'))
    section.hidden = !(current && current.dataset.sections.split(' ').includes(section.id) && allowed.has(section.id));
}

export function wireTabs() {
  for (const tab of document.querySelectorAll('#settings-tabs [role=tab]')) {
    tab.addEventListener('click', () => {
      view.settingsTab = tab.dataset.sections;
      act.loadSettings().catch((e) => showError($('#settings-error'), e));
    });
  }
}

// ---- the server: its icon, and its deletion by the owner ----

export function paintServerIcon() {
  const url = chat.server.iconUrl;
  $('#server-icon-preview').hidden = !url;
  if (url) $('#server-icon-preview').src = url;
  $('#server-icon-remove').hidden = !url;
  $('#server-delete').hidden = chat.server.ownerId !== chat.me.id;
  paintTransfer();
  paintServerArchive();
}

async function setServerIcon(iconUrl, done) {
  $('#settings-error').hidden = true;
  try {
    await api('PATCH', `/api/servers/${chat.sid}`, { iconUrl });
    await loadServer(chat.sid);
    await loadServers();
    paintServerIcon();
    flash('#server-done', done);
  } catch (e) {
    showError($('#settings-error'), e);
  }
}

export function wireServerSettings() {
  wireTransfer();
  $('#server-icon').addEventListener('change', async () => {
    const file = $('#server-icon').files[0];
    $('#server-icon').value = '';
    if (!file) return;
    if (file.size > ICON_MAX_BYTES) return showError($('#settings-error'), t('icon.too.big'));
    await setServerIcon(await readAsDataUrl(file), t('icon.changed'));
  });
  $('#server-icon-remove').addEventListener('click', () => setServerIcon(null, t('icon.removed')));
  $('#server-delete').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#settings-error').hidden = true;
    if ($('#server-delete-name').value.trim() !== chat.server.name)
      return showError($('#settings-error'), t('server.delete.wrong.name'));
    try {
      await api('DELETE', `/api/servers/${chat.sid}`);
      location.assign('/app');
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
}

// ---- channels: rename, private for @everyone, delete ----

function isPrivate(c) {
  const everyone = (c.overwrites || []).find((o) => o.targetId === chat.sid);
  return !!everyone && (everyone.deny & PERM.VER_CANAL) !== 0;
}

// Private: @everyone's overwrite denies VER_CANAL (its other bits kept); public: that bit lifted,
// and an overwrite left with nothing in it removed.
function privacyChange(c, makePrivate) {
  const path = `/api/servers/${chat.sid}/channels/${c.id}/overwrites/${chat.sid}`;
  const o = (c.overwrites || []).find((x) => x.targetId === chat.sid) || { allow: 0, deny: 0 };
  const deny = makePrivate ? o.deny | PERM.VER_CANAL : o.deny & ~PERM.VER_CANAL;
  const allow = makePrivate ? o.allow & ~PERM.VER_CANAL : o.allow;
  return !allow && !deny ? api('DELETE', path) : api('PUT', path, { type: 'role', allow, deny });
}

async function channelAction(fn, done) {
  $('#settings-error').hidden = true;
  try {
    await fn();
    await loadServer(chat.sid);
    paintChannelsManage();
    flash('#channels-done', done);
  } catch (e) {
    showError($('#settings-error'), e);
  }
}

const CHANNEL_KINDS = { text: '#', forum: '💬', voice: '🔊', category: '▾' };

// A channel's category, chosen from the server's (or none): it moves there, its permissions
// kept; and when in one but not synced with it, a button that syncs them.
function categoryControls(c, categories) {
  const box = el('div', { class: 'category-controls' });
  const select = el('select', { 'aria-label': t('channel.category.label', { name: c.name }) },
    el('option', { value: '', text: t('channels.no.category') }),
    ...categories.map((k) => el('option', { value: k.id, text: k.name, selected: k.id === c.parentId })));
  select.addEventListener('change', () => channelAction(() => api('PATCH', `/api/servers/${chat.sid}/channels/${c.id}`, { parentId: select.value || null }),
    t('channel.moved', { name: c.name })));
  box.append(select);
  if (c.parentId && !c.permissionsSynced) {
    box.append(el('button', { type: 'button', class: 'secondary small-button', text: t('channel.sync'), title: t('channel.sync.title'),
      onclick: () => channelAction(() => api('PATCH', `/api/servers/${chat.sid}/channels/${c.id}`, { syncPermissions: true }), t('channel.synced', { name: c.name })) }));
  } else if (c.parentId) {
    box.append(el('span', { class: 'badge ok', text: t('channel.synced.badge') }));
  }
  return box;
}

export function paintChannelsManage() {
  const mayPrivacy = (basePermissions(chat.server, chat.roles, chat.mine) & PERM.GERENCIAR_CARGOS) !== 0;
  const groups = channelGroups(chat.allChannels);
  const categories = groups.filter((g) => g.category).map((g) => g.category);
  $('#channel-parent').replaceChildren(el('option', { value: '', text: t('channels.no.category') }),
    ...categories.map((k) => el('option', { value: k.id, text: k.name })));
  $('#channel-parent').hidden = !categories.length;
  const ordered = groups.flatMap((g) => (g.category ? [g.category, ...g.channels] : g.channels));
  $('#channels-manage').replaceChildren(...ordered.map((c) => {
    const name = el('input', { type: 'text', maxlength: '100', required: true, 'aria-label': t('channel.name.label', { name: c.name }) });
    name.value = c.name;
    const rename = el('form', { class: 'channel-rename' }, el('span', { class: 'muted', text: CHANNEL_KINDS[c.type] || '#' }), name,
                      el('button', { type: 'submit', class: 'secondary small-button', text: t('rename') }));
    rename.addEventListener('submit', (e) => {
      e.preventDefault();
      channelAction(() => api('PATCH', `/api/servers/${chat.sid}/channels/${c.id}`, { name: name.value }), t('channel.renamed', { name: name.value.trim() }));
    });
    const row = el('li', { class: c.type === 'category' ? 'channel-manage category-manage' : 'channel-manage', 'data-id': c.id }, rename);
    const actions = el('div', { class: 'member-actions' });
    if (c.type !== 'category' && categories.length) actions.append(categoryControls(c, categories));
    if (mayPrivacy) {
      const box = el('input', { type: 'checkbox', 'data-private': c.id });
      box.checked = isPrivate(c);
      box.addEventListener('change', () => channelAction(() => privacyChange(c, box.checked),
        t(box.checked ? 'channel.private.on' : 'channel.private.off', { name: c.name })));
      actions.append(el('label', { class: 'check' }, box, t('channel.private')));
    }
    actions.append(el('button', { type: 'button', class: 'danger small-button', text: t('delete'), onclick: async () =>
      (await ask(t('channel.delete.ask', { name: c.name }), t(c.type === 'category' ? 'category.delete.text' : 'channel.delete.text'), { confirm: t('delete'), danger: true })) &&
      channelAction(() => api('DELETE', `/api/servers/${chat.sid}/channels/${c.id}`), t('channel.deleted', { name: c.name })) }));
    row.append(actions);
    return row;
  }));
}

// ---- invites: made with an expiry and a number of uses ----

export function wireInviteForm() {
  $('#invite-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#settings-error').hidden = true;
    try {
      const { code } = await api('POST', `/api/servers/${chat.sid}/invites`,
                                 { maxAgeSeconds: Number($('#invite-age').value), maxUses: Number($('#invite-uses').value) });
      await loadInvites();
      flash('#invites-done', t('invite.created', { code }));
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
}

// ---- bans: who is banned, and unbanning ----

export async function loadBans() {
  const { bans } = await api('GET', `/api/servers/${chat.sid}/bans`);
  $('#bans').replaceChildren(...bans.map((b) => el('li', { class: 'ban', 'data-id': b.userId },
    el('span', {}, el('strong', { text: b.displayName || b.username }), el('span', { class: 'muted small', text: ` @${b.username}` }), el('br'),
       el('small', { class: 'muted', text: `${b.reason ? `${t('ban.reason', { reason: b.reason })} · ` : ''}${t('ban.since', { when: new Date(b.createdAt).toLocaleString(locale()) })}` })),
    el('button', { type: 'button', class: 'secondary small-button', text: t('ban.lift'), onclick: async () => {
      $('#settings-error').hidden = true;
      try {
        await api('DELETE', `/api/servers/${chat.sid}/bans/${b.userId}`);
        await loadBans();
        flash('#bans-done', t('ban.lifted'));
      } catch (e) {
        showError($('#settings-error'), e);
      }
    } }))));
  $('#no-bans').hidden = bans.length > 0;
}
