// The developer portal: applications in sections (Geral, Bot, Instalação, OAuth2, Interações,
// Eventos). Everything goes through the same JSON API bots and people use.
import { loadPush, wirePush } from './developers-push.js';
import { $, api, checkedBits, copyText, el, permissionBoxes, PERMISSIONS, readAsDataUrl, requireSession, showError } from './common.js';
import { rememberLanguage, t, translatePage } from './i18n.js';

const INTENTS = [
  ['messages.read', t('intent.messages.read')],
  ['messages.write', t('intent.messages.write')],
  ['members.read', t('intent.members.read')],
  ['interactions.receive', t('intent.interactions.receive')],
  ['voice.connect', t('perm.CONECTAR_VOZ')],
];

const TABS = ['geral', 'bot', 'instalacao', 'oauth2', 'interacoes', 'eventos'];
const PLACEHOLDER_ICON = '/static/app-icon.svg';
const CONSOLE_EVERY_MS = 1500;

let apps = [];
let current = null;
let tab = 'geral';
let pendingIcon; // undefined: unchanged; null: remove; string: new data URL
let consoleTimer = null;
let consoleAfter = '0';

// An event handler that shows its failure in `box` instead of throwing.
function guarded(box, fn) {
  return async (event) => {
    if (event && event.type === 'submit') event.preventDefault();
    box.hidden = true;
    try {
      await fn(event);
    } catch (e) {
      if (e.status === 401) return requireSession();
      showError(box, e);
    }
  };
}

// Saved again within its seconds, the note starts them again rather than going with the first's.
const flashTimers = new WeakMap();

function flash(box) {
  box.hidden = false;
  clearTimeout(flashTimers.get(box));
  flashTimers.set(box, setTimeout(() => { box.hidden = true; }, 2500));
}

function showSecret(boxId, codeId, value) {
  $(codeId).textContent = value;
  $(boxId).hidden = false;
}

function replaceApp(app) {
  apps = apps.map((a) => (a.id === app.id ? app : a));
  current = app;
  renderList();
  renderDetail();
}

function renderList() {
  const list = $('#apps');
  list.replaceChildren();
  for (const app of apps) {
    const open = el('button', { type: 'button', class: 'link', text: app.name,
                                'aria-current': current && current.id === app.id ? 'true' : false,
                                onclick: () => select(app.id) });
    list.append(el('li', {}, open, el('span', { class: 'muted', text: app.hasBot ? 'bot' : '' })));
  }
  $('#no-apps').hidden = apps.length > 0;
}

function renderDetail() {
  const app = current;
  $('#detail').hidden = !app;
  if (!app) return;
  $('#detail-name').textContent = app.name;
  $('#app-id').textContent = app.id;
  $('#client-id').textContent = app.clientId;
  $('#bot-user-label').hidden = $('#bot-user-row').hidden = !app.hasBot;
  $('#bot-username').textContent = app.hasBot ? `@${app.botUsername}` : '';
  $('#bot-user-id').textContent = app.botUserId || '';
  $('#suspended').hidden = !app.suspended;
  $('#suspended').textContent = app.suspended ? t('dev.suspended', { why: app.suspendedReason || t('dev.suspended.no.reason') }) : '';
  $('#name').value = app.name;
  $('#description').value = app.description || '';
  $('#icon').value = '';
  pendingIcon = undefined;
  $('#icon-preview').src = app.iconUrl || PLACEHOLDER_ICON;
  $('#delete-expected').textContent = app.name;

  $('#bot-none').hidden = app.hasBot;
  $('#bot-exists').hidden = !app.hasBot;
  $('#bot-name').textContent = app.hasBot ? `@${app.botUsername}` : '';
  $('#bot-create').hidden = app.hasBot;
  $('#bot-rotate').hidden = !app.hasBot;

  const intents = $('#intents');
  intents.replaceChildren();
  for (const [name, label] of INTENTS) {
    const input = el('input', { type: 'checkbox', value: name });
    input.checked = app.intents.includes(name);
    intents.append(el('label', { class: 'check' }, input, `${label} (${name})`));
  }

  $('#redirects').value = app.redirectUris.join('\n');
  $('#public').checked = app.isPublic;
  $('#endpoint').value = app.interactionsEndpointUrl || '';
  $('#client-secret-state').textContent = app.hasClientSecret
    ? t('dev.client.secret.made')
    : t('dev.client.secret.none');
  $('#signing-secret-state').textContent = app.hasInteractionSigningSecret
    ? t('dev.signing.secret.made')
    : t('dev.signing.secret.none');

  const redirect = $('#link-redirect');
  const chosen = redirect.value;
  redirect.replaceChildren(...app.redirectUris.map((u) => el('option', { value: u, text: u })));
  if (app.redirectUris.includes(chosen)) redirect.value = chosen;
  renderLink();
}

function showTab(name) {
  tab = TABS.includes(name) ? name : 'geral';
  for (const t of TABS) {
    const selected = t === tab;
    $(`#tab-${t}`).setAttribute('aria-selected', String(selected));
    $(`#tab-${t}`).tabIndex = selected ? 0 : -1;
    $(`#panel-${t}`).hidden = !selected;
  }
  $('#secret-box').hidden = $('#secret-confirm').hidden = true;
  if (current) history.replaceState(null, '', `#app=${current.id}&tab=${tab}`);
  if (tab === 'eventos') startConsole(); else stopConsole();
}

// ---- the event console: polls while its tab is open ----

// What an interaction was, or an answer still thinking (a defer), beside the event's type.
const KINDS = { command: t('dev.kind.command'), component: t('dev.kind.component'), modal_submit: t('dev.kind.modal'), autocomplete: 'autocomplete', thinking: t('dev.kind.thinking') };

function consoleRow(e) {
  const time = new Date(e.at).toLocaleTimeString('pt-BR');
  const outcome = el('span', { class: e.delivered ? 'badge ok' : 'badge held', text: e.delivered ? t('dev.delivered') : t('dev.held') });
  return el('tr', {},
    el('td', { text: time }), el('td', {}, el('code', { text: e.type }), e.kind ? el('span', { class: 'badge kind', text: KINDS[e.kind] || e.kind }) : ''),
    el('td', { 'data-label': 'servidor' }, el('code', { text: e.serverId.slice(-8), title: e.serverId })),
    el('td', { 'data-label': t('dev.canal').toLowerCase() }, e.channelId ? el('code', { text: e.channelId.slice(-8), title: e.channelId }) : '—'),
    el('td', { 'data-label': t('dev.posicao').toLowerCase(), text: e.position }),
    el('td', {}, outcome, e.delivered ? '' : ` ${e.detail}`));
}

async function pollConsole() {
  const app = current;
  try {
    if (app.hasBot) loadPush(app);
    const r = await api('GET', `/api/applications/${app.id}/console?after=${consoleAfter}`);
    if (app !== current || tab !== 'eventos') return;
    consoleAfter = r.next;
    const rows = $('#console-rows');
    for (const e of r.events) rows.prepend(consoleRow(e));
    while (rows.children.length > 200) rows.lastChild.remove();
    $('#console-table').hidden = rows.children.length === 0;
    $('#console-empty').hidden = rows.children.length > 0;
    $('#console-empty').textContent = app.hasBot ? t('dev.console-empty') : t('dev.console.no.bot');
    $('#console-error').hidden = true;
  } catch (e) {
    if (e.status === 401) return requireSession();
    showError($('#console-error'), e);
  }
  if (tab === 'eventos' && app === current) consoleTimer = setTimeout(pollConsole, CONSOLE_EVERY_MS);
}

function startConsole() {
  stopConsole();
  pollConsole();
}

function stopConsole() {
  clearTimeout(consoleTimer);
  consoleTimer = null;
}

// A confirmation box: resolves true on yes, false on cancel.
function confirmIn(box, yes, no) {
  box.hidden = false;
  yes.focus();
  return new Promise((resolve) => {
    const done = (answer) => () => { box.hidden = true; yes.onclick = no.onclick = null; resolve(answer); };
    yes.onclick = done(true);
    no.onclick = done(false);
  });
}

function renderLink() {
  const redirect = $('#link-redirect').value;
  const none = !redirect;
  $('#link-no-redirect').hidden = !none;
  $('#link-redirect').hidden = none;
  $('#link-copy').disabled = none;
  if (none) {
    $('#link-url').textContent = '';
    return;
  }
  const params = new URLSearchParams({ client_id: current.clientId, redirect_uri: redirect,
                                       permissions: String(checkedBits($('#link-perms'))) });
  $('#link-url').textContent = `${location.origin}/oauth2/authorize?${params}`;
}

async function loadInstalls() {
  const list = $('#installs');
  const { installs } = await api('GET', `/api/applications/${current.id}/installs`);
  list.replaceChildren();
  for (const inst of installs) {
    const granted = PERMISSIONS.filter((p) => inst.grantedPermissions & p.bit).map((p) => p.label);
    const remove = el('button', { type: 'button', class: 'secondary', text: t('app.uninstall'),
      onclick: guarded($('#installs-error'), async () => {
        await api('DELETE', `/api/applications/${current.id}/installs/${inst.serverId}`);
        await loadInstalls();
      }) });
    list.append(el('li', {}, el('span', {}, el('strong', { text: inst.serverName }),
                                el('br'), el('small', { class: 'muted', text: granted.join(', ') || t('app.no.permissions') })),
                   remove));
  }
  $('#no-installs').hidden = installs.length > 0;
}

async function select(id, wantedTab = tab) {
  const app = apps.find((a) => a.id === id);
  if (!app) return;
  if (!current || current.id !== id) {
    for (const box of ['#token-box', '#secret-box', '#endpoint-result', '#rotate-confirm', '#secret-confirm']) $(box).hidden = true;
    permissionBoxes($('#link-perms'), 0, { checked: false });
    $('#console-rows').replaceChildren();
    $('#push-rows').replaceChildren();
    $('#push-url').value = '';
    $('#delete-name').value = '';
    $('#delete').disabled = true;
    consoleAfter = '0';
  }
  current = app;
  renderList();
  renderDetail();
  showTab(wantedTab);
  await loadInstalls().catch((e) => showError($('#installs-error'), e));
}

async function loadApps() {
  ({ applications: apps } = await api('GET', '/api/applications'));
  renderList();
  const hash = new URLSearchParams(location.hash.slice(1));
  const first = apps.find((a) => a.id === hash.get('app')) || apps[0];
  if (first) await select(first.id, hash.get('tab') || 'geral');
  else renderDetail();
}

function wire() {
  wirePush(() => current, guarded);
  $('#logout').addEventListener('click', async () => {
    await api('POST', '/api/auth/logout').catch(() => {});
    location.assign('/login');
  });

  $('#create').addEventListener('submit', guarded($('#create-error'), async () => {
    const { application } = await api('POST', '/api/applications', { name: $('#create-name').value });
    $('#create-name').value = '';
    apps.push(application);
    await select(application.id);
  }));

  $('#icon').addEventListener('change', guarded($('#general-error'), async () => {
    const file = $('#icon').files[0];
    if (!file) return;
    if (file.size > 1500000) throw new Error(t('dev.icon.too.big'));
    pendingIcon = await readAsDataUrl(file);
    $('#icon-preview').src = pendingIcon;
  }));
  $('#icon-clear').addEventListener('click', () => {
    pendingIcon = null;
    $('#icon').value = '';
    $('#icon-preview').src = PLACEHOLDER_ICON;
  });

  $('#general').addEventListener('submit', guarded($('#general-error'), async () => {
    const body = { name: $('#name').value, description: $('#description').value };
    if (pendingIcon !== undefined) body.iconUrl = pendingIcon;
    const { application } = await api('PUT', `/api/applications/${current.id}`, body);
    replaceApp(application);
    flash($('#general-saved'));
  }));

  $('#bot-create').addEventListener('click', guarded($('#bot-error'), async () => {
    const { application, token } = await api('POST', `/api/applications/${current.id}/bot`);
    replaceApp(application);
    showSecret('#token-box', '#token', token);
  }));
  $('#bot-rotate').addEventListener('click', guarded($('#bot-error'), async () => {
    $('#token-box').hidden = true;
    if (!(await confirmIn($('#rotate-confirm'), $('#rotate-yes'), $('#rotate-no')))) return;
    const { token } = await api('POST', `/api/applications/${current.id}/bot/token/rotate`);
    showSecret('#token-box', '#token', token);
  }));
  $('#token-copy').addEventListener('click', (e) => copyText($('#token').textContent, e.target));

  $('#intents-form').addEventListener('submit', guarded($('#intents-error'), async () => {
    const intents = [...$('#intents').querySelectorAll('input:checked')].map((i) => i.value);
    const { application } = await api('PUT', `/api/applications/${current.id}/intents`, { intents });
    replaceApp(application);
    flash($('#intents-saved'));
  }));

  $('#oauth').addEventListener('submit', guarded($('#oauth-error'), async () => {
    const redirectUris = $('#redirects').value.split('\n').map((s) => s.trim()).filter(Boolean);
    await api('PUT', `/api/applications/${current.id}/oauth/redirect-uris`, { redirectUris });
    const { application } = await api('PUT', `/api/applications/${current.id}/visibility`,
                                      { isPublic: $('#public').checked });
    replaceApp(application);
    flash($('#oauth-saved'));
  }));

  $('#endpoint-save').addEventListener('click', guarded($('#secrets-error'), async () => {
    const url = $('#endpoint').value.trim();
    const { application } = await api('PUT', `/api/applications/${current.id}/interactions-config`,
                                      { interactionsEndpointUrl: url || null });
    replaceApp(application);
  }));
  $('#endpoint-test').addEventListener('click', guarded($('#secrets-error'), async () => {
    $('#endpoint-result').hidden = true;
    const r = await api('POST', `/api/applications/${current.id}/interactions-config/test`);
    $('#endpoint-result').textContent = r.ok
      ? t('dev.endpoint.pong', { ms: r.latencyMs })
      : t('dev.endpoint.no.pong', { status: r.status ?? t('command.none'), ms: r.latencyMs });
    $('#endpoint-result').hidden = false;
  }));
  const rotateSecret = (path, field, label, question) => guarded($('#secrets-error'), async () => {
    $('#secret-box').hidden = true;
    $('#secret-question').textContent = question;
    if (!(await confirmIn($('#secret-confirm'), $('#secret-yes'), $('#secret-no')))) return;
    const answer = await api('POST', `/api/applications/${current.id}/${path}`);
    $('#secret-label').textContent = label;
    showSecret('#secret-box', '#secret', answer[field]);
    const { application } = await api('GET', `/api/applications/${current.id}`);
    replaceApp(application);
  });
  $('#client-secret-rotate').addEventListener('click',
    rotateSecret('oauth/client-secret/rotate', 'clientSecret', t('dev.client.secret.label'),
                 t('dev.client.secret.ask')));
  $('#signing-secret-rotate').addEventListener('click',
    rotateSecret('interactions/signing-secret/rotate', 'signingSecret', t('dev.signing.secret.label'),
                 t('dev.signing.secret.ask')));
  $('#secret-copy').addEventListener('click', (e) => copyText($('#secret').textContent, e.target));

  for (const b of document.querySelectorAll('button.copy'))
    b.addEventListener('click', (e) => copyText($(b.dataset.copy).textContent, e.target));
  $('#tabs').addEventListener('click', (e) => { if (e.target.dataset.tab) showTab(e.target.dataset.tab); });
  $('#tabs').addEventListener('keydown', (e) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length];
    showTab(next);
    $(`#tab-${next}`).focus();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) stopConsole(); else if (tab === 'eventos') startConsole();
  });

  $('#link-redirect').addEventListener('change', renderLink);
  $('#link-perms').addEventListener('change', renderLink);
  $('#link-copy').addEventListener('click', (e) => copyText($('#link-url').textContent, e.target));

  $('#delete-name').addEventListener('input', () => {
    $('#delete').disabled = $('#delete-name').value.trim() !== current.name;
  });
  $('#delete').addEventListener('click', guarded($('#delete-error'), async () => {
    if ($('#delete-name').value.trim() !== current.name) return;
    await api('DELETE', `/api/applications/${current.id}`);
    apps = apps.filter((a) => a.id !== current.id);
    current = null;
    stopConsole();
    history.replaceState(null, '', '#');
    await loadApps();
  }));
}

async function main() {
  const me = await requireSession();
  if (rememberLanguage(me.locale)) return location.reload(); // the account speaks another language
  $('#who').textContent = me.displayName || me.username;
  wire();
  permissionBoxes($('#link-perms'), 0, { checked: false });
  await loadApps();
}

translatePage();
main().catch((e) => showError($('#page-error'), e));

// The examples speak of this site; a bot with no website sends the installing admin to the chat.
for (const node of document.querySelectorAll('.site-origin')) node.textContent = location.origin;
for (const node of document.querySelectorAll('.site-app')) node.textContent = `${location.origin}/app`;
$('#redirect-app').addEventListener('click', () => {
  const field = $('#redirects');
  const lines = field.value.split('\n').map((s) => s.trim()).filter(Boolean);
  if (!lines.includes(`${location.origin}/app`)) field.value = [...lines, `${location.origin}/app`].join('\n');
  field.focus();
});
