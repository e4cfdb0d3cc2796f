// Sign in or create an account, then go back to where the person came from; in the browser's
// language (i18n.js), the server's refusals worded by their status and field.
import { $, api, ERASED_KEY, showError } from './common.js';
import { t, translatePage } from './i18n.js';

translatePage();
// Said until someone signs in again in this tab (the page may be loaded twice on the way here).
$('#erased').hidden = sessionStorage.getItem(ERASED_KEY) !== '1';

// What a refusal says, in the page's language.
function said(e, form) {
  if (e.network) return t('error.network');
  const field = ((e.message || '').match(/^(\w+):/) || [])[1];
  if (form === 'login') {
    if (e.status === 429) return t('login.too.many');
    if (e.status === 401 && e.body && e.body.mfaRequired) return $('#login-code').value ? t('login.code.wrong') : t('login.code.needed');
    if (e.status === 401) return t('login.wrong');
  } else {
    if (e.status === 429) return t('register.too.many');
    if (e.status === 409) return t('register.taken');
    if (e.status === 400 && field === 'username') return t('register.username.bad');
    if (e.status === 400 && field === 'password') return t('register.password.bad');
    if (e.status === 400 && field === 'displayName') return t('register.display.bad');
  }
  return t('error.other');
}

function nextPage() {
  const next = new URLSearchParams(location.search).get('next') || '';
  // Only pages of this site, judged as the browser will read the path: it turns "/\\host" and
  // "/<tab>/host" into "//host", another site.
  try {
    const url = new URL(next, location.origin);
    // The parser also folds dot segments: "/.//host" and "/a/..//host" have the path "//host",
    // which is another site once assigned. A path that starts so is refused.
    if (next.startsWith('/') && url.origin === location.origin && !/^[/\\]{2}/.test(url.pathname)) {
      return url.pathname + url.search + url.hash;
    }
  } catch (_) { /* not a URL at all */ }
  return '/app';
}

function selectTab(which) {
  for (const name of ['login', 'register']) {
    $(`#tab-${name}`).setAttribute('aria-selected', String(name === which));
    $(`#${name}`).hidden = name !== which;
  }
}

$('#tab-login').addEventListener('click', () => { $('#forgot').hidden = true; selectTab('login'); });
$('#forgot-open').addEventListener('click', () => { $('#forgot').hidden = false; $('#forgot-email').focus(); });

// The answer is the same whether or not an account has the address: so is what the page says.
$('#forgot').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('#forgot-error').hidden = true;
  $('#forgot-done').hidden = true;
  try {
    await api('POST', '/api/auth/forgot-password', { email: $('#forgot-email').value });
    $('#forgot-done').textContent = t('forgot.sent');
    $('#forgot-done').hidden = false;
  } catch (e) {
    showError($('#forgot-error'), e.status === 409 ? t('forgot.no.mail') : e.status === 429 ? t('login.too.many') : e.status === 400 ? t('forgot.bad') : t('error.other'));
  }
});
$('#tab-register').addEventListener('click', () => selectTab('register'));

$('#login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const error = $('#login-error');
  error.hidden = true;
  const body = { username: $('#login-username').value, password: $('#login-password').value };
  if ($('#login-code').value) body.code = $('#login-code').value;
  try {
    await api('POST', '/api/auth/login', body);
    sessionStorage.removeItem(ERASED_KEY);
    location.assign(nextPage());
  } catch (e) {
    if (e.body && e.body.mfaRequired) $('#login-code-field').hidden = false;
    showError(error, said(e, 'login'));
  }
});

$('#register').addEventListener('submit', async (event) => {
  event.preventDefault();
  const error = $('#register-error');
  error.hidden = true;
  const body = { username: $('#register-username').value, password: $('#register-password').value };
  if ($('#register-display').value.trim()) body.displayName = $('#register-display').value;
  try {
    await api('POST', '/api/auth/register', body);
    sessionStorage.removeItem(ERASED_KEY);
    location.assign(nextPage());
  } catch (e) {
    showError(error, said(e, 'register'));
  }
});
