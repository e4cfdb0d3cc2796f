// The settings' "Transferir o servidor", for its owner: another member (a person) becomes the
// owner, confirmed with the owner's password, so that the owner may then leave.
import { ask } from './chat-dialog.js';
import { act } from './chat-actions.js';
import { chat } from './chat-store.js';
import { flash } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { t } from './i18n.js';

const nameOf = (m) => m.nickname || m.user.displayName || m.user.username;

// Shown to the owner, with the people who could take the server.
export function paintTransfer() {
  const mine = chat.server.ownerId === chat.me.id;
  const people = chat.members.filter((m) => !m.user.isBot && m.userId !== chat.me.id);
  $('#server-transfer').hidden = !mine;
  if (!mine) return;
  const was = $('#transfer-to').value;
  $('#transfer-to').replaceChildren(...people.map((m) => el('option', { value: m.userId, text: `${nameOf(m)} (@${m.user.username})` })));
  if (people.some((m) => m.userId === was)) $('#transfer-to').value = was;
  $('#transfer-none').hidden = people.length > 0;
  $('#server-transfer button[type=submit]').disabled = !people.length;
}

export function wireTransfer() {
  $('#server-transfer').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#settings-error').hidden = true;
    const to = chat.members.find((m) => m.userId === $('#transfer-to').value);
    if (!to) return;
    if (!(await ask(t('transfer.ask', { name: nameOf(to), server: chat.server.name }), t('transfer.ask.text'),
                    { confirm: t('transfer.confirm'), danger: true }))) return;
    try {
      await api('PUT', `/api/servers/${chat.sid}/owner`, { userId: to.userId, password: $('#transfer-password').value });
      $('#server-transfer').reset();
      await act.loadServer(chat.sid);
      flash('#server-done', t('transfer.done', { name: nameOf(to) }));
      act.loadSettings();
    } catch (err) {
      showError($('#settings-error'), err);
    }
  });
}
