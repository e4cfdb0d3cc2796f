// The server's invites in its settings (GERENCIAR_SERVIDOR): those still usable, with who made
// them, how often they were used and until when they last; each can be copied or revoked.
import { chat } from './chat-store.js';
import { flash } from './chat-ui.js';
import { $, api, copyText, el, showError } from './common.js';
import { locale, t, tn } from './i18n.js';

function inviteTerms(i) {
  const uses = i.maxUses ? t('invite.uses.of', { uses: i.uses, max: i.maxUses }) : tn('invite.uses', i.uses);
  const until = i.expiresAt ? t('invite.until', { when: new Date(i.expiresAt).toLocaleString(locale()) }) : t('invite.forever');
  return `${uses} · ${until} · ${t('invite.by', { name: i.createdBy.displayName || i.createdBy.username })}`;
}

export async function loadInvites() {
  const { invites } = await api('GET', `/api/servers/${chat.sid}/invites`);
  $('#invites').replaceChildren(...invites.map((i) => {
    const link = `${location.origin}/invite/${i.code}`;
    const revoke = el('button', { type: 'button', class: 'danger small-button', text: t('invite.revoke'), 'aria-label': t('invite.revoke.label', { code: i.code }), onclick: async () => {
      $('#settings-error').hidden = true;
      try {
        await api('DELETE', `/api/servers/${chat.sid}/invites/${i.code}`);
        await loadInvites();
        flash('#invites-done', t('invite.revoked', { code: i.code }));
      } catch (e) {
        showError($('#settings-error'), e);
      }
    } });
    const copy = el('button', { type: 'button', class: 'secondary small-button', text: t('invite.copy.link'), onclick: (e) => copyText(link, e.target) });
    return el('li', { class: 'invite', 'data-code': i.code },
      el('span', {}, el('code', { text: i.code }), el('br'), el('small', { class: 'muted', text: inviteTerms(i) })),
      el('span', { class: 'invite-actions' }, copy, revoke));
  }));
  $('#no-invites').hidden = invites.length > 0;
}
