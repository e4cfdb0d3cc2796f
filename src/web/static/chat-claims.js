// Claiming an imported placeholder in the page: a manager's "Código para reivindicar" on a
// placeholder's menu gives a link (/app#claim=CODE) to hand to whoever wrote those messages;
// the page opened by that link says what it claims and, when the person agrees, takes it. A
// placeholder the export gave the person's verified address is offered when the page opens.
import { ask } from './chat-dialog.js';
import { basePermissions, PERM } from './chat-perms.js';
import { chat } from './chat-store.js';
import { toast } from './chat-ui.js';
import { api } from './common.js';
import { t } from './i18n.js';

// The item on a placeholder's menu, for those who manage the server; none otherwise.
export function claimItems(member, name) {
  if (!chat.sid || chat.dm || !chat.imported.has(member.userId)) return [];
  if (!(basePermissions(chat.server, chat.roles, chat.mine) & PERM.GERENCIAR_SERVIDOR)) return [];
  return [{ label: t('claim.make'), run: () => makeCode(member.userId, name) }];
}

async function makeCode(userId, name) {
  try {
    const { code } = await api('POST', `/api/servers/${chat.sid}/members/${userId}/claim-code`, {});
    const link = `${location.origin}/app#claim=${code}`;
    if (await ask(t('claim.made.title', { name }), t('claim.made.text', { name, link }), { confirm: t('claim.copy') }))
      await navigator.clipboard.writeText(link).catch(() => toast(new Error(t('copy.select'))));
  } catch (err) {
    toast(err);
  }
}

// The page was opened by a claim link: what it claims, asked; the server's ID once taken, else
// null (declined, or the code is no good: said).
export async function claimFromLink(code) {
  try {
    const { claim } = await api('GET', `/api/claims/${encodeURIComponent(code)}`);
    const words = { name: claim.displayName, server: claim.serverName, n: claim.messages };
    if (!(await ask(t('claim.title', words), t('claim.text', words), { confirm: t('claim.take') }))) return null;
    const taken = await api('POST', `/api/claims/${encodeURIComponent(code)}`, {});
    return taken.claim.serverId;
  } catch (err) {
    toast(err);
    return null;
  }
}

const DECLINED = 'praca.claims.declined'; // placeholders this browser was asked about and said no

// The placeholders with my verified address, each offered once; the server of the last one
// taken, else null.
export async function offerImported() {
  let list;
  try {
    ({ placeholders: list } = await api('GET', '/api/users/@me/imported'));
  } catch {
    return null;
  }
  const declined = new Set(JSON.parse(localStorage.getItem(DECLINED) || '[]'));
  let taken = null;
  for (const p of list.filter((x) => !declined.has(x.userId))) {
    const words = { name: p.displayName, server: p.serverName, n: p.messages };
    if (await ask(t('claim.title', words), t('claim.mine.text', words), { confirm: t('claim.take') })) {
      try {
        taken = (await api('POST', `/api/users/@me/imported/${p.userId}`, {})).claim.serverId;
      } catch (err) {
        toast(err);
      }
    } else {
      declined.add(p.userId);
      localStorage.setItem(DECLINED, JSON.stringify([...declined]));
    }
  }
  return taken;
}
