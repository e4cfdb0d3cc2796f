// Conta's e-mail (when this Praça sends e-mail): an address confirmed by the code mailed to it,
// which lets a forgotten password come back by a link; removed as simply.
import { chat, meChanged } from './chat-store.js';
import { flash } from './chat-ui.js';
import { $, api, showError } from './common.js';
import { t } from './i18n.js';

export function paintEmail() {
  $('#email-section').hidden = !chat.me.canMail;
  $('#email-state').textContent = chat.me.email ? t('email.current', { email: chat.me.email }) : t('email.none');
  $('#email-remove').hidden = !chat.me.email;
}

async function done(request) {
  $('#account-error').hidden = true;
  try {
    return await request();
  } catch (e) {
    showError($('#account-error'), e);
    return null;
  }
}

export function wireEmail() {
  paintEmail();
  $('#email-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const sent = await done(() => api('PUT', '/api/users/@me/email', { email: $('#email-address').value, password: $('#email-password').value }));
    if (!sent) return;
    $('#email-password').value = '';
    $('#email-code-form').hidden = false;
    flash('#email-done', t('email.sent', { email: sent.email }));
    $('#email-code').focus();
  });
  $('#email-code-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const answer = await done(() => api('POST', '/api/users/@me/email/verify', { code: $('#email-code').value.trim() }));
    if (!answer) return;
    meChanged(answer.user);
    $('#email-code-form').hidden = true;
    $('#email-form').reset();
    paintEmail();
    flash('#email-done', t('email.saved'));
  });
  $('#email-remove').addEventListener('click', async () => {
    const answer = await done(() => api('DELETE', '/api/users/@me/email'));
    if (answer) { meChanged(answer.user); paintEmail(); }
  });
}
