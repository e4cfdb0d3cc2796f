// The server's invites in its settings (GERENCIAR_SERVIDOR): those still usable, with who made
// them, how often they were used and until when they last; each can be copied or revoked.
import { flash } from './chat-manage.js';
import { chat } from './chat-store.js';
import { $, api, copyText, el, showError } from './common.js';

function inviteTerms(i) {
  const uses = i.maxUses ? `${i.uses} de ${i.maxUses} usos` : `${i.uses} ${i.uses === 1 ? 'uso' : 'usos'}, sem limite`;
  const until = i.expiresAt ? `vale até ${new Date(i.expiresAt).toLocaleString('pt-BR')}` : 'não expira';
  return `${uses} · ${until} · criado por ${i.createdBy.displayName || i.createdBy.username}`;
}

export async function loadInvites() {
  const { invites } = await api('GET', `/api/servers/${chat.sid}/invites`);
  $('#invites').replaceChildren(...invites.map((i) => {
    const link = `${location.origin}/invite/${i.code}`;
    const revoke = el('button', { type: 'button', class: 'danger small-button', text: 'Revogar', 'aria-label': `Revogar o convite ${i.code}`, onclick: async () => {
      $('#settings-error').hidden = true;
      try {
        await api('DELETE', `/api/servers/${chat.sid}/invites/${i.code}`);
        await loadInvites();
        flash('#invites-done', `Convite ${i.code} revogado: ninguém mais entra com ele.`);
      } catch (e) {
        showError($('#settings-error'), e);
      }
    } });
    const copy = el('button', { type: 'button', class: 'secondary small-button', text: 'Copiar link', onclick: (e) => copyText(link, e.target) });
    return el('li', { class: 'invite', 'data-code': i.code },
      el('span', {}, el('code', { text: i.code }), el('br'), el('small', { class: 'muted', text: inviteTerms(i) })),
      el('span', { class: 'invite-actions' }, copy, revoke));
  }));
  $('#no-invites').hidden = invites.length > 0;
}
