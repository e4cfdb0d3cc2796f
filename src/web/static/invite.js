// The invite page: who invites you where, then join (signing in first when needed) and open the
// server in the chat client.
import { $, api, requireSession, showError } from './common.js';
import { t, tn, translatePage } from './i18n.js';

const code = decodeURIComponent(location.pathname.split('/')[2] || '');

async function main() {
  let invite;
  try {
    ({ invite } = await api('GET', `/api/invites/${encodeURIComponent(code)}`));
  } catch (e) {
    $('#loading').hidden = true;
    $('#failure-text').textContent = e.status === 404 ? t('invite.gone') : e.message;
    $('#failure').hidden = false;
    return;
  }
  $('#server-name').textContent = invite.server.name;
  const n = invite.server.memberCount;
  $('#members').textContent = tn('invite.members', n);
  $('#loading').hidden = true;
  $('#invite').hidden = false;
  $('#join').addEventListener('click', async () => {
    await requireSession(); // comes back here after signing in
    try {
      const joined = await api('POST', `/api/invites/${encodeURIComponent(code)}/join`);
      location.assign(`/app#server=${joined.server.id}`);
    } catch (e) {
      showError($('#join-error'), e);
    }
  });
}

translatePage();
main().catch((e) => showError($('#join-error'), e));
