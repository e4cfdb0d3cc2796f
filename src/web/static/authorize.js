// The consent page: start an Authorize session, let the person pick a server and uncheck
// permissions, then complete it (or cancel) and send the browser to the application.
import { $, api, checkedBits, el, permissionBoxes, PERMISSIONS, requireSession, showError } from './common.js';
import { rememberLanguage, t, translatePage } from './i18n.js';

const query = new URLSearchParams(location.search);
// Permissions that let an application run the server or act on people: marked on the page.
const DANGEROUS = ['ADMINISTRADOR', 'GERENCIAR_SERVIDOR', 'GERENCIAR_CANAIS', 'GERENCIAR_CARGOS',
                   'GERENCIAR_MENSAGENS', 'BANIR_MEMBROS', 'EXPULSAR_MEMBROS', 'MODERAR_MEMBROS'];
const REDIRECT_AFTER_MS = 3000;

function fail(title, text, hint = '') {
  $('#loading').hidden = true;
  $('#consent').hidden = true;
  $('#failure-title').textContent = title;
  $('#failure-text').textContent = text;
  $('#failure-hint').textContent = hint;
  $('#failure').hidden = false;
}

const START_TITLES = {
  400: t('consent.bad.link'),
  403: t('consent.not.installable'),
  404: t('consent.no.app'),
  429: t('consent.too.many'),
};

async function start() {
  const params = new URLSearchParams();
  for (const key of ['client_id', 'redirect_uri', 'permissions', 'state'])
    if (query.has(key)) params.set(key, query.get(key));
  return api('GET', '/api/oauth2/authorize/start?' + params);
}

// The application's redirect URI with the given parameters added; its own query is kept.
function redirectWith(extra) {
  const url = new URL(query.get('redirect_uri'));
  for (const [k, v] of Object.entries(extra)) if (v) url.searchParams.append(k, v);
  return url.toString();
}

// Where the browser goes afterwards, as a person reads it: the origin, or the whole URL when
// it is not http(s).
function destination() {
  try {
    const url = new URL(query.get('redirect_uri'));
    return /^https?:$/.test(url.protocol) ? url.origin : url.href;
  } catch {
    return query.get('redirect_uri') || '';
  }
}

function markDangerous(container) {
  for (const input of container.querySelectorAll('input[data-perm]')) {
    if (!DANGEROUS.includes(input.dataset.perm)) continue;
    input.parentElement.append(el('span', { class: 'perm-danger', text: t('consent.sensitive') }));
    input.parentElement.title = t('consent.sensitive.title');
  }
}

function render(session, me) {
  const app = session.application;
  $('#me').textContent = me.displayName && me.displayName !== me.username ? `${me.displayName} (@${me.username})` : `@${me.username}`;
  $('#app-name').textContent = app.name;
  $('#app-bot').textContent = app.botUsername ? `Bot: @${app.botUsername}` : '';
  if (app.iconUrl) $('#app-icon').src = app.iconUrl;
  $('#app-description').textContent = app.description || '';
  $('#app-description').hidden = !app.description;
  $('#destination').textContent = t('consent.then', { where: destination() });
  document.title = t('consent.title', { name: app.name });

  const select = $('#server');
  for (const s of session.servers) select.append(el('option', { value: s.id, text: s.name }));
  const none = session.servers.length === 0;
  select.hidden = none;
  $('label[for=server]').hidden = none;
  $('#no-servers').hidden = !none;
  $('#authorize').disabled = none;

  permissionBoxes($('#perms'), session.requestedPermissions, { only: session.requestedPermissions });
  markDangerous($('#perms'));
  $('#no-perms').hidden = session.requestedPermissions !== 0;

  $('#loading').hidden = true;
  $('#consent').hidden = false;
}

function succeeded(session, done) {
  const server = session.servers.find((x) => x.id === done.install.serverId);
  const granted = PERMISSIONS.filter((p) => done.install.grantedPermissions & p.bit).map((p) => p.label);
  $('#consent').hidden = true;
  $('#done-text').textContent = t('consent.done', { app: session.application.name, server: server ? server.name : t('consent.your.server') });
  $('#done-perms').textContent = granted.length ? t('consent.granted', { list: granted.join(', ') }) : t('consent.granted.none');
  $('#done-continue').href = done.redirectUrl;
  $('#done-app').href = `/app#server=${encodeURIComponent(done.install.serverId)}`;
  $('#done-continue').textContent = t('consent.continue', { where: destination() });
  $('#done-auto').textContent = t('consent.soon');
  $('#done').hidden = false;
  setTimeout(() => location.assign(done.redirectUrl), REDIRECT_AFTER_MS);
}

async function main() {
  const me = await requireSession();
  if (rememberLanguage(me.locale)) return location.reload(); // the account speaks another language
  $('#who').textContent = me.displayName || me.username;
  let session;
  try {
    session = await start();
  } catch (e) {
    if (e.status === 401) return requireSession();
    return fail(START_TITLES[e.status] || t('authorize.failure-title'), e.message,
                t('consent.tell.sender'));
  }
  render(session, me);

  $('#switch').addEventListener('click', async () => {
    await api('POST', '/api/auth/logout').catch(() => {});
    location.assign('/login?next=' + encodeURIComponent(location.pathname + location.search));
  });

  $('#cancel').addEventListener('click', () => {
    location.assign(redirectWith({ error: 'access_denied', state: query.get('state') }));
  });

  $('#consent').addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = $('#complete-error');
    error.hidden = true;
    $('#authorize').disabled = true;
    try {
      const done = await api('POST', `/api/oauth2/authorize/${session.authorizeSessionId}/complete`,
                             { serverId: $('#server').value, permissions: checkedBits($('#perms')) });
      succeeded(session, done);
    } catch (e) {
      $('#authorize').disabled = false;
      if (e.status === 401) return requireSession();
      if (e.status === 404)
        return fail(t('consent.expired'), e.message, t('consent.open.again'));
      showError(error, e);
    }
  });
}

translatePage();
main().catch((e) => fail(t('authorize.failure-title'), e.message));
