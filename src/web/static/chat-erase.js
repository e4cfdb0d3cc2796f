// Conta's "Apagar a conta": the password (and two-factor's code when it is on), one last
// question, then the account ends and the page goes to the sign-in page. A server the person
// owns stands in the way: the page names each one.
import { ask } from './chat-dialog.js';
import { $, api, el, ERASED_KEY } from './common.js';
import { t } from './i18n.js';

export function wireErase() {
  $('#erase-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#erase-error').hidden = true;
    if (!await ask(t('erase.question'), t('erase.question.text'), { confirm: t('erase.confirm'), danger: true })) return;
    // The sockets close before the answer comes, and the page may leave for the sign-in page on
    // its own: the sign-in page learns of the deletion from this tab's storage either way.
    sessionStorage.setItem(ERASED_KEY, '1');
    try {
      await api('DELETE', '/api/users/@me', { password: $('#erase-password').value, code: $('#erase-code').value.trim() || null });
      location.assign('/login');
    } catch (err) {
      // Refused: nothing was deleted. A fetch cut short (the page leaving as the sockets close)
      // leaves the mark, since the deletion may well be done.
      if (!err.network) sessionStorage.removeItem(ERASED_KEY);
      const owned = (err.status === 409 && err.body && err.body.servers) || [];
      $('#erase-owned').replaceChildren(...owned.map((s) => el('li', { text: s.name })));
      $('#erase-error-text').textContent = owned.length ? t('erase.owned') : err.message;
      $('#erase-error').hidden = false;
    }
  });
}
