// Apps in the page: the commands of the open channel, context-menu commands on a message's or a
// person's menu ("Apps"), the suggestions a bot gives while an option is typed (autocomplete),
// and the account's language, which picks the commands' names.
import { act } from './chat-actions.js';
import { toggleBlock } from './chat-blocks.js';
import { personCard } from './chat-card.js';
import { claimItems } from './chat-claims.js';
import { openMenu } from './chat-menu.js';
import { report } from './chat-report.js';
import { chat, commandsRead, meChanged } from './chat-store.js';
import { toast } from './chat-ui.js';
import { $, api, el } from './common.js';
import { rememberLanguage, t } from './i18n.js';

// The commands I may use in the open channel (its overrides included); the server-wide list
// read with the server stays until this answers.
export async function loadChannelCommands(sid, cid) {
  try {
    const { commands } = await api('GET', `/api/servers/${sid}/commands?channelId=${cid}`);
    if (chat.sid === sid && chat.cid === cid) commandsRead(commands);
  } catch { /* the server-wide list stays */ }
}

export const commandLabel = (c) => c.nameLocalized || c.name;
export const menuCommands = (type) => chat.commands.filter((c) => c.type === type);

const runMenu = (c, targetId) => () => act.invoke({ type: 'command', applicationId: c.applicationId, commandName: c.name, targetId });

// A message's apps, as items of its menu: the message commands, the target this message.
export function messageAppItems(m) {
  return menuCommands('message').map((c) => ({ text: t('apps.item', { name: commandLabel(c) }), run: runMenu(c, m.id) }));
}

// A person's menu in the people list: a direct message, then the user commands on them.
export function personMenu(anchor, member, startDm) {
  const items = [];
  if (!member.user.isBot && member.userId !== chat.me.id) items.push({ label: t('person.message'), run: () => startDm(member.userId) });
  for (const c of menuCommands('user')) items.push({ label: t('apps.item', { name: commandLabel(c) }), run: runMenu(c, member.userId) });
  const name = member.nickname || member.user.displayName || member.user.username;
  items.push(...claimItems(member, name));
  if (member.userId !== chat.me.id && chat.sid && !chat.dm)
    items.push({ label: t('action.report'), run: () => report(`/api/servers/${chat.sid}/members/${member.userId}`, t('report.member.title', { name })) });
  if (member.userId !== chat.me.id)
    items.push({ label: t(chat.blocked.has(member.userId) ? 'block.lift' : 'block.confirm'), danger: !chat.blocked.has(member.userId), run: () => toggleBlock(member.userId, name) });
  openMenu(anchor, name, items, personCard(member.userId, name, member.user.username));
}

// ---- suggestions while an option is typed ----

// The page asks 150 ms after the last keystroke, never twice at once: a keystroke while one is
// in flight asks again when it is answered (or after the bot's 3 s).
const SUGGEST_PAUSE_MS = 150;
const SUGGEST_WAIT_MS = 3200;

const suggest = { key: '', choices: [], asking: false, timer: null, inflight: null, next: null, repaint: null };

const keyOf = (command, option) => `${command.applicationId}/${command.name}/${option.name}`;

// What the palette shows for this option: the latest choices for it, and whether more are coming.
export function suggestionsFor(command, option) {
  const mine = suggest.key === keyOf(command, option);
  return { choices: mine ? suggest.choices : [], asking: suggest.asking };
}

// body: the autocomplete interaction for what is typed now.
export function askSuggestions(command, option, args, repaint) {
  const options = args.filter((a) => a.given && (command.options || []).some((o) => o.name === a.name))
    .map((a) => ({ name: a.name, value: a.value.slice(0, 100) }));
  const body = { type: 'autocomplete', applicationId: command.applicationId, commandName: command.name, focused: option.name, options };
  const key = keyOf(command, option);
  if (suggest.key !== key) suggest.choices = [];
  suggest.key = key;
  suggest.repaint = repaint;
  suggest.asking = true;
  clearTimeout(suggest.timer);
  suggest.timer = setTimeout(() => send(body), SUGGEST_PAUSE_MS);
}

async function send(body) {
  if (suggest.inflight) { suggest.next = body; return; }
  const flight = { id: null, timer: setTimeout(() => landed(flight), SUGGEST_WAIT_MS) };
  suggest.inflight = flight;
  try {
    const { interactionId } = await api('POST', `/api/servers/${chat.sid}/channels/${chat.cid}/interactions`, body);
    flight.id = interactionId;
  } catch (e) {
    landed(flight);
    toast(e);
  }
}

function landed(flight) {
  if (suggest.inflight !== flight) return;
  clearTimeout(flight.timer);
  suggest.inflight = null;
  const next = suggest.next;
  suggest.next = null;
  if (next) send(next);
  else {
    suggest.asking = false;
    if (suggest.repaint) suggest.repaint();
  }
}

// INTERACTION_AUTOCOMPLETE: the bot's choices for what I typed.
export function suggestionsCame(ev) {
  if (`${ev.applicationId}/${ev.commandName}` === suggest.key.split('/').slice(0, 2).join('/')) suggest.choices = ev.choices;
  if (suggest.inflight) landed(suggest.inflight);
  else if (suggest.repaint) suggest.repaint();
}

// ---- the account's language ----

export const LOCALES = [['pt-BR', 'Português (Brasil)'], ['pt-PT', 'Português (Portugal)'], ['en-US', 'English (US)'], ['en-GB', 'English (UK)'],
  ['es-ES', 'Español (España)'], ['es-419', 'Español (Latinoamérica)'], ['fr', 'Français'], ['de', 'Deutsch'], ['it', 'Italiano'],
  ['ja', '日本語'], ['ko', '한국어'], ['zh-CN', '中文（简体）']];

// The browser's first language the server knows (exact, else the same language), or null.
export function browserLocale(languages = navigator.languages || [navigator.language]) {
  for (const tag of languages) {
    const exact = LOCALES.find(([t]) => t.toLowerCase() === String(tag).toLowerCase());
    if (exact) return exact[0];
    const lang = LOCALES.find(([t]) => t.split('-')[0] === String(tag).split('-')[0].toLowerCase());
    if (lang) return lang[0];
  }
  return null;
}

// An account that never chose takes the browser's language once, so commands speak it.
export async function adoptBrowserLocale() {
  if (chat.me.locale) return;
  const locale = browserLocale();
  if (!locale) return;
  try {
    meChanged((await api('PATCH', '/api/users/@me', { locale })).user);
  } catch { /* the default names stay */ }
}

export async function setLocale(locale) {
  meChanged((await api('PATCH', '/api/users/@me', { locale })).user);
  if (rememberLanguage(chat.me.locale)) return location.reload();
  if (chat.sid) await loadChannelCommands(chat.sid, chat.cid);
}

export function paintLocaleChoice() {
  const select = $('#locale');
  if (!select) return;
  select.replaceChildren(el('option', { value: '', text: t('locale.browser') }), ...LOCALES.map(([tag, name]) => el('option', { value: tag, text: name })));
  select.value = chat.me.locale || '';
}
