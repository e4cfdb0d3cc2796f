// The account panel: its theme and language, and two-factor setup: a new secret, its QR code drawn here (qr.js), and the
// first code from the person's authenticator to turn it on.
import { ask } from './chat-dialog.js';
import { paintLocaleChoice, setLocale } from './chat-apps.js';
import { wireEmail } from './chat-email.js';
import { wireErase } from './chat-erase.js';
import { wireProfile } from './chat-profile.js';
import { paintVerificationHold } from './chat-servers.js';
import { toast } from './chat-ui.js';
import { chat, meChanged } from './chat-store.js';
import { $, api, applyTheme, copyText, el, showError, THEME_KEY } from './common.js';
import { t } from './i18n.js';
import { QR } from './qr.js';

function paintMfa() {
  const on = chat.me.mfaEnabled;
  $('#mfa-state').textContent = on
    ? t('mfa.on')
    : t('mfa.off');
  $('#mfa-start').hidden = on;
  $('#mfa-manage').hidden = !on;
  if (on) $('#mfa-setup').hidden = true;
  $('#erase-code-box').hidden = !on;
}

// Recovery codes are shown once: when two-factor goes on, or a new set is made.
function showRecoveryCodes(codes) {
  $('#mfa-codes').replaceChildren(...codes.map((c) => el('li', {}, el('code', { text: c }))));
  $('#mfa-codes-box').hidden = false;
}

function wireTheme() {
  $('#theme').value = localStorage.getItem(THEME_KEY) || '';
  $('#theme').addEventListener('change', () => {
    if ($('#theme').value) localStorage.setItem(THEME_KEY, $('#theme').value);
    else localStorage.removeItem(THEME_KEY);
    applyTheme();
  });
}

// The page's language and the one commands are shown in: the account's, or the browser's when
// it never chose. Another language redraws the page in it.
function wireLocale() {
  paintLocaleChoice();
  $('#locale').addEventListener('change', async () => {
    try {
      await setLocale($('#locale').value || null);
    } catch (e) {
      toast(e);
      paintLocaleChoice();
    }
  });
}

export function wireMfa() {
  wireProfile();
  wireErase();
  wireEmail();
  wireTheme();
  wireLocale();
  paintMfa();
  $('#mfa-codes-copy').addEventListener('click', (e) => copyText([...document.querySelectorAll('#mfa-codes code')].map((c) => c.textContent).join('\n'), e.target));
  $('#mfa-manage').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#account-error').hidden = true;
    const code = $('#mfa-proof').value.trim();
    try {
      if (e.submitter && e.submitter.value === 'disable') {
        if (!(await ask(t('mfa.disable.ask'), t('mfa.disable.text'), { confirm: t('mfa.disable'), danger: true }))) return;
        meChanged((await api('DELETE', '/api/users/@me/mfa', { code })).user);
        $('#mfa-codes-box').hidden = true;
      } else {
        showRecoveryCodes((await api('POST', '/api/users/@me/mfa/recovery-codes', { code })).recoveryCodes);
      }
      $('#mfa-manage').reset();
      paintMfa();
      if (chat.server) paintVerificationHold();
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
  $('#mfa-start').addEventListener('click', async () => {
    $('#account-error').hidden = true;
    try {
      const { secret, otpauthUrl } = await api('POST', '/api/users/@me/mfa/totp');
      if (!QR.draw($('#mfa-qr'), otpauthUrl, 4)) throw new Error(t('mfa.qr.too.long'));
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
      const { user, recoveryCodes } = await api('POST', '/api/users/@me/mfa/totp/verify', { code: $('#mfa-code').value.trim() });
      meChanged(user);
      $('#mfa-form').reset();
      paintMfa();
      showRecoveryCodes(recoveryCodes);
      if (chat.server) paintVerificationHold();
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
}
