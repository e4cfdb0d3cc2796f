// The invite page: who invites you where, then join (signing in first when needed) and open the
// server in the chat client.
import { $, api, requireSession, showError } from './common.js';

const code = decodeURIComponent(location.pathname.split('/')[2] || '');

async function main() {
  let invite;
  try {
    ({ invite } = await api('GET', `/api/invites/${encodeURIComponent(code)}`));
  } catch (e) {
    $('#loading').hidden = true;
    $('#failure-text').textContent = e.status === 404 ? 'Este convite não existe, expirou ou já foi usado o máximo de vezes.' : e.message;
    $('#failure').hidden = false;
    return;
  }
  $('#server-name').textContent = invite.server.name;
  const n = invite.server.memberCount;
  $('#members').textContent = `${n} ${n === 1 ? 'membro' : 'membros'}`;
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

main().catch((e) => showError($('#join-error'), e));
