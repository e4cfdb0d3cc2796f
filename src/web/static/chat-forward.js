// Forwarding: "Encaminhar" in a message's menu sends it, as a copy, to a channel of the open
// server or to one of the person's conversations, with words of one's own after it if they want;
// a forwarded message shows its copy as a quote, with a way to the original when its room is one
// the person has.
import { act } from './chat-actions.js';
import { askChoice } from './chat-dialog.js';
import { dmName } from './chat-dm-group.js';
import { chat } from './chat-store.js';
import { toast } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';

// Where a message may go: [value, name], the open server's text channels, then conversations.
function destinations() {
  const channels = chat.dm ? [] : chat.channels.map((c) => [`s:${c.id}`, `# ${c.name}`]);
  return [...channels, ...chat.dms.map((d) => [`d:${d.id}`, `@ ${dmName(d)}`])];
}

export async function forwardMessage(m) {
  const choices = destinations();
  if (!choices.length) return void toast(t('forward.nowhere'));
  const asked = await askChoice(t('forward.title'), t('forward.to'), choices, { wordsLabel: t('forward.words'), confirm: t('forward.send'), maxLength: 4000 });
  if (!asked) return;
  const [kind, id] = asked.choice.split(':');
  const path = kind === 'd' ? `/api/dms/${id}/messages` : `/api/servers/${chat.sid}/channels/${id}/messages`;
  $('#send-error').hidden = true;
  try {
    await api('POST', path, { forward: { messageId: m.id } });
    if (asked.words) await api('POST', path, { content: asked.words });
    toast(t('forward.done', { to: choices.find(([value]) => value === asked.choice)[1] }));
  } catch (e) {
    showError($('#send-error'), e);
  }
}

// Whether the original's room is one of the person's (a server they are in, a conversation of
// theirs): only then is there a way to it.
function reachable(f) {
  return f.serverId ? chat.servers.some((s) => s.id === f.serverId) : chat.dms.some((d) => d.id === f.channelId);
}

// The copy a forwarded message keeps; text(content) renders its words as a message's.
export function forwardView(f, text) {
  const when = new Date(f.createdAt).toLocaleString(locale(), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  const box = el('blockquote', { class: 'forwarded' },
    el('div', { class: 'forwarded-head muted small' }, el('span', { text: `↪ ${t('forward.label')}` })),
    el('div', { class: 'forwarded-author' }, el('strong', { text: f.authorName }), el('time', { class: 'muted small', datetime: f.createdAt, text: ` ${when}` })));
  if (f.content) box.append(el('div', { class: 'content' }, ...text(f.content)));
  for (const e of f.embeds || []) if (e.title || e.description) box.append(el('div', { class: 'muted small', text: [e.title, e.description].filter(Boolean).join(' — ') }));
  if (reachable(f)) {
    box.append(el('button', { type: 'button', class: 'link-button small forwarded-go', text: t('forward.go'),
                              onclick: () => act.goToMessage({ id: f.messageId, serverId: f.serverId, channelId: f.channelId, threadId: f.threadId }).catch(toast) }));
  }
  return box;
}
