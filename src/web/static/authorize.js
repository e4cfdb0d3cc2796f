// The consent page: start an Authorize session, let the person pick a server and uncheck
// permissions, then complete it (or cancel) and send the browser to the application.
'use strict';

const query = new URLSearchParams(location.search);

function fail(title, text, hint = '') {
  $('#loading').hidden = true;
  $('#consent').hidden = true;
  $('#failure-title').textContent = title;
  $('#failure-text').textContent = text;
  $('#failure-hint').textContent = hint;
  $('#failure').hidden = false;
}

const START_TITLES = {
  400: 'Link de autorização inválido',
  403: 'Esta aplicação não pode ser instalada',
  404: 'Aplicação não encontrada',
  429: 'Muitas tentativas',
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

function render(session) {
  const app = session.application;
  $('#app-name').textContent = app.name;
  if (app.iconUrl) $('#app-icon').src = app.iconUrl;
  document.title = `Autorizar ${app.name} · Praça`;

  const select = $('#server');
  for (const s of session.servers) select.append(el('option', { value: s.id, text: s.name }));
  const none = session.servers.length === 0;
  select.hidden = none;
  $('label[for=server]').hidden = none;
  $('#no-servers').hidden = !none;
  $('#authorize').disabled = none;

  permissionBoxes($('#perms'), session.requestedPermissions, { only: session.requestedPermissions });
  $('#no-perms').hidden = session.requestedPermissions !== 0;

  $('#loading').hidden = true;
  $('#consent').hidden = false;
}

async function main() {
  const me = await requireSession();
  $('#who').textContent = me.displayName || me.username;
  let session;
  try {
    session = await start();
  } catch (e) {
    if (e.status === 401) return requireSession();
    return fail(START_TITLES[e.status] || 'Não foi possível continuar', e.message,
                'Avise quem lhe enviou este link.');
  }
  render(session);

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
      location.assign(done.redirectUrl);
    } catch (e) {
      $('#authorize').disabled = false;
      if (e.status === 401) return requireSession();
      if (e.status === 404)
        return fail('Esta autorização expirou', e.message, 'Abra o link de autorização de novo.');
      showError(error, e);
    }
  });
}

main().catch((e) => fail('Não foi possível continuar', e.message));
