// The account panel's two-factor setup: a new secret, its QR code drawn here (qr.js), and the
// first code from the person's authenticator to turn it on.
'use strict';

function paintMfa() {
  const on = chat.me.mfaEnabled;
  $('#mfa-state').textContent = on
    ? 'Ativada: entrar pede a senha e um código do seu aplicativo autenticador.'
    : 'Desativada. Com ela, entrar pede também um código do seu aplicativo autenticador (e servidores que a exigem deixam você moderar).';
  $('#mfa-start').hidden = on;
  if (on) $('#mfa-setup').hidden = true;
}

function wireTheme() {
  $('#theme').value = localStorage.getItem(THEME_KEY) || '';
  $('#theme').addEventListener('change', () => {
    if ($('#theme').value) localStorage.setItem(THEME_KEY, $('#theme').value);
    else localStorage.removeItem(THEME_KEY);
    applyTheme();
  });
}

function wireMfa() {
  wireTheme();
  paintMfa();
  $('#mfa-start').addEventListener('click', async () => {
    $('#account-error').hidden = true;
    try {
      const { secret, otpauthUrl } = await api('POST', '/api/users/@me/mfa/totp');
      if (!QR.draw($('#mfa-qr'), otpauthUrl, 4)) throw new Error('O código não coube no QR; use a chave.');
      $('#mfa-secret').textContent = secret.replace(/(.{4})/g, '$1 ').trim();
      $('#mfa-setup').hidden = false;
      $('#mfa-start').hidden = true;
      $('#mfa-code').focus();
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
  $('#mfa-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#account-error').hidden = true;
    try {
      ({ user: chat.me } = await api('POST', '/api/users/@me/mfa/totp/verify', { code: $('#mfa-code').value.trim() }));
      $('#mfa-form').reset();
      paintMfa();
      if (chat.server) paintVerificationHold();
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
}
