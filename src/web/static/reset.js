// The page a one-time link opens (`praca admin reset-password`): a new password for the account
// the link names, sent once; the token travels in the address's fragment, never to a log.
import { $, api, showError } from './common.js';
import { t, translatePage } from './i18n.js';

translatePage();

const token = new URLSearchParams(location.hash.slice(1)).get('token') || '';
history.replaceState(null, '', location.pathname); // not left in the address bar or history

function said(e) {
  if (e.network) return t('error.network');
  if (e.status === 404) return t('reset.unknown');
  if (e.status === 410) return t('reset.gone');
  if (e.status === 429) return t('login.too.many');
  if (e.status === 400) return t('register.password.bad');
  return t('error.other');
}

if (!token) showError($('#reset-error'), t('reset.unknown'));

$('#reset').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('#reset-error').hidden = true;
  try {
    await api('POST', '/api/auth/reset-password', { token, newPassword: $('#reset-password').value });
    $('#reset').hidden = true;
    $('#reset-done').hidden = false;
  } catch (e) {
    showError($('#reset-error'), said(e));
  }
});
