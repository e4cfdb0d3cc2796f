// Slash commands in the composer: what was typed read as a command (each option checked against
// the command's definition before anything is sent), and the palette that lists the server's
// commands, then the chosen one's options, as the person types. The reading has no DOM: the
// page's tests run it in Node.
import { askSuggestions, commandLabel, suggestionsFor } from './chat-apps.js';
import { chat } from './chat-store.js';
import { $, el } from './common.js';
import { t } from './i18n.js';

const OPTION_TYPES = {
  string: t('option.string'), integer: t('option.integer'), number: t('option.number'), boolean: t('option.boolean'),
  user: t('option.user'), channel: t('option.channel'), role: t('option.role'),
};

const escape = (word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// "/name a:um valor b=2 c="três"" → {word, args: [{name, value, given}], spaced, unread}. As on
// Discord, `name:value` runs to the next `name:` of one of the command's options (`names`; any
// word followed by ":" when not known); `name=value` and quotes work too. An option typed but
// not given yet (no separator) is there with given false, for the palette.
function splitCommand(text, names = null) {
  const src = text.slice(1);
  const word = (src.match(/^\S*/) || [''])[0];
  const next = names && names.length ? new RegExp(`\\s+(?:${names.map(escape).join('|')})[:=]`, 'g') : /\s+[^\s=:"]+[:=]/g;
  const args = [];
  let at = word.length;
  for (;;) {
    const head = /\s+([^\s=:"]+)([=:])?/y;
    head.lastIndex = at;
    const m = head.exec(src);
    if (!m) break;
    let end = head.lastIndex;
    let value = '';
    if (!m[2]) {
      args.push({ name: m[1], value, given: false });
      at = end;
      continue;
    }
    if (src[end] === '"') { // quoted: to the closing quote, or to the end while it is typed
      const close = src.indexOf('"', end + 1);
      value = src.slice(end + 1, close < 0 ? src.length : close);
      end = close < 0 ? src.length : close + 1;
    } else if (m[2] === '=') {
      value = /\S*/y.exec(src.slice(end))[0];
      end += value.length;
    } else {
      next.lastIndex = end;
      const n = next.exec(src);
      const stop = n ? n.index : src.length;
      value = src.slice(end, stop).trim();
      end = n ? stop : src.length;
    }
    args.push({ name: m[1], value, given: true });
    at = end;
  }
  return { word, args, spaced: /\s$/.test(src), unread: src.slice(at).trim() };
}

// One option's value as the API takes it, or an Error that says what is wrong in the page's language.
// resolve.{user,channel,role}(text) → an ID or null.
function optionValue(option, raw, resolve) {
  const { name, type } = option;
  if (raw === '') throw new Error(t('option.missing.value', { name }));
  let value = raw;
  if (type === 'integer' || type === 'number') {
    value = Number(raw.replace(',', '.'));
    if (!Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value))) throw new Error(t(type === 'integer' ? 'option.not.integer' : 'option.not.number', { name }));
  } else if (type === 'boolean') {
    if (/^(sim|true|s|yes|y)$/i.test(raw)) value = true;
    else if (/^(não|nao|false|n|no)$/i.test(raw)) value = false;
    else throw new Error(t('option.yes.no', { name }));
  } else if (type === 'user' || type === 'channel' || type === 'role') {
    value = resolve[type](raw.replace(/^[@#]/, ''));
    if (!value) throw new Error(t(`option.no.${type}`, { name, raw }));
  }
  if (option.choices && option.choices.length) {
    const choice = option.choices.find((c) => c.value === value || c.name === raw);
    if (!choice) throw new Error(t('option.choose', { name, choices: option.choices.map((c) => c.name).join(', ') }));
    value = choice.value;
  }
  return value;
}

// The slash commands among a list (menus have their own place), found by their name or by the
// name in the person's language.
const slashCommands = (commands) => commands.filter((c) => !c.type || c.type === 'chat');
const named = (commands, word) => slashCommands(commands).find((c) => c.name === word || c.nameLocalized === word);

// The body of POST …/interactions for the typed command, or an Error before anything is sent.
const wordOf = (text) => (text.slice(1).match(/^\S*/) || [''])[0];
const optionNames = (command) => (command && command.options ? command.options.map((o) => o.name) : null);

export function commandBody(text, commands, resolve) {
  const command = named(commands, wordOf(text.trim()));
  const { word, args, unread } = splitCommand(text.trim(), optionNames(command));
  if (!command) throw new Error(t('command.unknown', { word, list: slashCommands(commands).map((c) => '/' + commandLabel(c)).join(' ') || t('command.none') }));
  if (unread) throw new Error(t('command.unread', { word, unread }));
  const options = [];
  for (const a of args) {
    const option = (command.options || []).find((o) => o.name === a.name);
    if (!option) throw new Error(command.options && command.options.length ? t('command.no.option.has', { word, name: a.name, list: command.options.map((o) => o.name).join(', ') }) : t('command.no.option', { word, name: a.name }));
    if (options.some((o) => o.name === a.name)) throw new Error(t('command.option.twice', { name: a.name }));
    options.push({ name: a.name, value: optionValue(option, a.value, resolve) });
  }
  const missing = (command.options || []).filter((o) => o.required && !options.some((x) => x.name === o.name));
  if (missing.length) throw new Error(t('command.missing', { word, list: missing.map((o) => o.name).join(', ') }));
  return { type: 'command', applicationId: command.applicationId, commandName: command.name, options };
}

// What the palette lists for the text so far: the commands whose name starts with what follows
// "/", or, once a command is chosen, its options not yet given (required first) and, while an
// option's value is typed, its choices (or, for an autocompleted option, the bot's suggestions:
// `suggest` then holds what to ask with). suggestions(command, option) → {choices, asking}.
export function paletteFor(text, commands, suggestions = () => ({ choices: [], asking: false })) {
  if (!text.startsWith('/') || text.includes('\n')) return null;
  const command = named(commands, wordOf(text));
  const { word, args, spaced } = splitCommand(text, optionNames(command));
  if (!command || (!spaced && !args.length)) {
    if (/\s/.test(text)) return null;
    const items = slashCommands(commands).filter((c) => commandLabel(c).startsWith(word))
      .map((c) => ({ kind: 'command', command: c, insert: `/${commandLabel(c)} ` }));
    return items.length ? { command: null, items } : null;
  }
  const last = args[args.length - 1];
  // What stays when an item is taken: everything before the token being typed.
  const head = spaced || !last ? text
    : text.slice(0, last.given ? Math.max(text.lastIndexOf(`${last.name}=`), text.lastIndexOf(`${last.name}:`)) : text.length - last.name.length);
  const options = (command.options || []).slice().sort((a, b) => (b.required ? 1 : 0) - (a.required ? 1 : 0));
  if (last && !spaced && last.given) {
    const option = options.find((o) => o.name === last.name);
    const fill = (c) => ({ kind: 'choice', choice: c, option, insert: `${head}${option.name}:${c.value} ` });
    if (option && option.autocomplete) {
      const { choices, asking } = suggestions(command, option);
      return { command, option, args, items: choices.map(fill), suggest: { args }, asking };
    }
    const choices = (option && option.choices) || [];
    const items = choices.filter((c) => c.name.toLowerCase().startsWith(last.value.toLowerCase()) || String(c.value).startsWith(last.value)).map(fill);
    return { command, option, args, items };
  }
  const typed = last && !spaced ? last.name : '';
  const given = new Set(args.filter((a) => a.given).map((a) => a.name));
  const items = options.filter((o) => !given.has(o.name) && o.name.startsWith(typed))
    .map((o) => ({ kind: 'option', option: o, insert: `${head}${o.name}:` }));
  return { command, args, items };
}

// An option in the palette's head: what was given for it, or what it takes.
function optionHint(o, args = []) {
  const given = args.find((a) => a.given && a.name === o.name);
  if (given) return el('span', { class: 'option-given', text: `${o.name}: ${given.value || '…'}` });
  const kind = o.choices && o.choices.length ? o.choices.map((c) => c.name).join(' | ') : OPTION_TYPES[o.type] || o.type;
  return el('span', { class: 'muted', text: `${o.name}${o.required ? '' : '?'}: ${kind}` });
}

// ---- the palette in the page ----

const palette = { items: [], at: 0 };
let lastAsked = ''; // the text suggestions were last asked for (a repaint does not ask again)

export function paintPalette() {
  const box = $('#palette');
  const found = chat.dm ? null : paletteFor($('#text').value, chat.commands, suggestionsFor);
  if (found && found.suggest && lastAsked !== $('#text').value) {
    lastAsked = $('#text').value;
    askSuggestions(found.command, found.option, found.suggest.args, paintPalette);
  }
  palette.items = found ? found.items : [];
  palette.at = Math.min(palette.at, Math.max(0, palette.items.length - 1));
  box.hidden = !found;
  $('#text').setAttribute('aria-expanded', String(!!found));
  if (!found) return box.replaceChildren();
  const title = found.command
    ? el('li', { class: 'palette-head' }, el('strong', { text: `/${commandLabel(found.command)}` }), ' ',
         el('span', { class: 'muted', text: found.command.descriptionLocalized || found.command.description }), ' ',
         el('span', { class: 'palette-form small' }, ...(found.command.options || []).flatMap((o, i) => [i ? ' · ' : '', optionHint(o, found.args)])))
    : el('li', { class: 'palette-head muted small', text: t('palette.head') });
  box.replaceChildren(title, ...palette.items.map((item, i) => {
    const text = item.kind === 'command' ? [el('strong', { text: `/${commandLabel(item.command)}` }), ' ', el('span', { class: 'muted', text: item.command.descriptionLocalized || item.command.description })]
      : item.kind === 'option' ? [el('strong', { text: item.option.required ? item.option.name : t('palette.optional', { name: item.option.name }) }), ' ',
                                  el('span', { class: 'muted', text: `${OPTION_TYPES[item.option.type] || item.option.type} · ${item.option.description}` })]
      : [el('strong', { text: item.choice.name })];
    return el('li', { role: 'option', id: `palette-${i}`, class: 'palette-item', 'aria-selected': String(i === palette.at),
                      onmousedown: (e) => { e.preventDefault(); choosePalette(i); } }, ...text);
  }));
  if (found.command && !palette.items.length && !found.option) box.append(el('li', { class: 'muted small', text: t('palette.enter') }));
  if (found.suggest && !palette.items.length)
    box.append(el('li', { class: 'muted small suggesting', text: found.asking ? t('palette.asking') : t('palette.no.suggestion') }));
  $('#text').setAttribute('aria-activedescendant', palette.items.length ? `palette-${palette.at}` : '');
}

function choosePalette(i) {
  const item = palette.items[i];
  if (!item) return;
  $('#text').value = item.insert;
  $('#text').focus();
  palette.at = 0;
  paintPalette();
}

// ↑ ↓ move, Tab or Enter take the item (Enter sends once nothing is left to choose), Esc closes.
export function paletteKey(e) {
  if ($('#palette').hidden) return false;
  if (e.key === 'Escape') {
    $('#palette').hidden = true;
    palette.items = [];
  } else if (!palette.items.length) {
    return false;
  } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    palette.at = (palette.at + (e.key === 'ArrowDown' ? 1 : palette.items.length - 1)) % palette.items.length;
    paintPalette();
  } else if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
    // Enter on a command typed whole sends it; otherwise it takes the item.
    if (e.key === 'Enter' && palette.items[palette.at].insert.trim() === $('#text').value.trim()) return false;
    choosePalette(palette.at);
  } else return false;
  e.preventDefault();
  e.stopImmediatePropagation();
  return true;
}

// Names typed for user, channel and role options, read against the open server.
export function commandResolver() {
  const byName = (list, name, ...keys) => { const x = list.find((v) => keys.some((k) => k(v) === name)); return x ? x : null; };
  return {
    user: (s) => { const m = byName(chat.members, s, (v) => v.user.username, (v) => v.userId); return m && m.userId; },
    channel: (s) => { const c = byName(chat.allChannels, s, (v) => v.name, (v) => v.id); return c && c.id; },
    role: (s) => { const r = byName(chat.roles, s, (v) => v.name, (v) => v.id); return r && r.id; },
  };
}
