// A message in the room: its item (author, time, text, reply, embeds, reactions) and what one may
// do with it, as the API allows: reply, edit, pin, react, delete, start a thread or a DM.
import { act } from './chat-actions.js';
import { ask, askText } from './chat-dialog.js';
import { messageAppItems, personMenu } from './chat-apps.js';
import { components, embed } from './chat-components.js';
import { attachmentsView } from './chat-files.js';
import { customEmojiNode, learnEmoji } from './chat-custom-emoji.js';
import { pickEmoji } from './chat-emoji.js';
import { forwardMessage, forwardView } from './chat-forward.js';
import { remindAbout } from './chat-later.js';
import { avatar, lastMessageItem, paintFlow, placeInFlow } from './chat-flow.js';
import { openMenu } from './chat-menu.js';
import { PERM } from './chat-perms.js';
import { pollView } from './chat-poll.js';
import { previewsView } from './chat-previews.js';
import { report } from './chat-report.js';
import { chat, isBeside, messageRemoved, messageShown, messagesTrimmed, outsiderNamed, roomOf } from './chat-store.js';
import { toast } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';
import { emojiOnly, markdownNodes, parseMarkdown } from './markdown.js';

// Where a room's messages are read and sent (the open room's unless another is named).
export function messagesPath(room = chat.cid) {
  return chat.dm ? `/api/dms/${chat.cid}/messages` : `/api/servers/${chat.sid}/channels/${room}/messages`;
}

// Where message m is acted on: its own room, the open one or the thread beside it.
const pathOf = (m) => messagesPath(m.threadId || m.channelId);

export function nameOf(userId) {
  const known = chat.names.get(userId) || chat.outsiders.get(userId);
  if (known) return known;
  askName(userId);
  return t('audit.someone');
}

// An author who is not a member: their profile names them when the person may read it (one who
// shares a server or a DM with them, or anyone for a deleted account); the heads already drawn
// take the name.
const asked = new Set();
function askName(userId) {
  if (!userId || asked.has(userId)) return;
  asked.add(userId);
  api('GET', `/api/users/${encodeURIComponent(userId)}/profile`).then(({ user }) => {
    const name = user.deleted ? t('person.deleted') : user.displayName || user.username;
    outsiderNamed(user.id, name);
    for (const n of document.querySelectorAll(`.message[data-from="${CSS.escape(user.id)}"] .head .author`)) n.textContent = name;
  }).catch(() => {}); // not to be read: "alguém" stays
}

// A mention in text: a member of the open server (by username), marked when it is oneself.
export function mentionOf(username) {
  const m = chat.members.find((x) => x.user.username === username);
  if (!m) return null;
  return { label: m.nickname || m.user.displayName || m.user.username, self: m.userId === chat.me.id };
}

// A server's own emoji in m's text: drawn as the page knows it, another server's or a deleted one
// read once by ID (m drawn again then).
const emojiOf = (m) => (id, name) => {
  learnEmoji(id, () => showMessage(chat.messages.get(m.id) || m));
  return customEmojiNode(id, name);
};

// A quoted message on one line, rendered as its Markdown is (a spoiler stays hidden), links and
// blocks as plain inline text: it sits inside a button.
export function quoteNodes(text) {
  const box = el('span', {}, ...markdownNodes(parseMarkdown(String(text || '').replace(/\s*\n\s*/g, ' ')), mentionOf));
  for (const a of box.querySelectorAll('a')) a.replaceWith(el('span', { class: 'link-text', text: a.textContent }));
  for (const block of box.querySelectorAll('p, div, blockquote, pre, ul, ol, li, h1, h2, h3')) block.replaceWith(...block.childNodes);
  for (const s of box.querySelectorAll('.spoiler')) for (const a of ['tabindex', 'role', 'aria-expanded']) s.removeAttribute(a);
  return [...box.childNodes];
}

// Shown once the reader asked to see it: a blocked person's message collapsed otherwise.
const revealed = new Set();

function collapsed(m) {
  return el('li', { class: 'message blocked', id: `m-${m.id}`, 'data-id': m.id, 'data-at': m.createdAt, 'data-from': m.fromId },
    el('span', { class: 'muted small', text: t('block.collapsed') }), ' ',
    el('button', { type: 'button', class: 'link-button small', text: t('block.show'), onclick: () => { revealed.add(m.id); showMessage(m); } }));
}

// The author's menu: a member as the page knows them, else what the message tells.
function authorMenu(anchor, m, author) {
  const member = chat.members.find((x) => x.userId === m.fromId) ||
    { userId: m.fromId, nickname: null, user: { id: m.fromId, username: chat.dm && chat.dm.userId === m.fromId ? chat.dm.username : (m.fromId === chat.me.id ? chat.me.username : author), displayName: author, isBot: !!m.applicationId } };
  personMenu(anchor, member, act.startDm);
}

export function messageItem(m) {
  if (chat.blocked.has(m.fromId) && !revealed.has(m.id)) return collapsed(m);
  const when = new Date(m.createdAt).toLocaleTimeString(locale(), { hour: '2-digit', minute: '2-digit' });
  // A webhook's post shows the name it was given, marked as a webhook's: never a member.
  const author = m.webhook ? m.webhook.name : nameOf(m.fromId);
  const face = avatar(m.fromId, author);
  const name = el('strong', { text: author });
  if (!m.webhook) { // the author's card and menu, as a member row opens them
    name.classList.add('author');
    name.setAttribute('tabindex', '0');
    name.setAttribute('aria-haspopup', 'menu');
    const open = (e) => { if (e.type === 'click' || e.key === 'Enter' || e.key === ' ') { e.preventDefault(); authorMenu(name, m, author); } };
    for (const node of [face, name]) { node.addEventListener('click', open); node.addEventListener('keydown', open); }
  }
  const head = el('div', { class: 'head' }, face, name,
                  m.applicationId ? el('span', { class: 'bot-tag', text: 'BOT' }) : '',
                  m.webhook ? el('span', { class: 'bot-tag webhook-tag', text: 'WEBHOOK', title: t('message.by.webhook') }) : '',
                  chat.imported.has(m.fromId) ? el('span', { class: 'imported-tag', text: t('message.imported'), title: t('message.imported.title') }) : '',
                  el('time', { datetime: m.createdAt, text: when }),
                  m.editedAt ? el('span', { class: 'muted small', text: t('message.edited') }) : '');
  if (m.pinned) head.append(el('span', { class: 'pin-tag', text: t('message.pinned') }));
  const li = el('li', { class: 'message', id: `m-${m.id}`, 'data-id': m.id, 'data-at': m.createdAt, 'data-from': m.webhook ? `${m.fromId}:${author}` : m.fromId }, head);
  if (m.flags & 64) li.classList.add('ephemeral');
  if (m.replyTo) li.append(el('button', { type: 'button', class: 'reply muted small', title: t('message.reply.jump'), onclick: () => act.jumpTo(m.replyTo.id) },
                                '↪ ', el('strong', { text: nameOf(m.replyTo.fromId) }), ': ', ...quoteNodes(m.replyTo.preview)));
  if (m.content) li.append(el('div', { class: emojiOnly(m.content) ? 'content jumbo' : 'content' }, ...markdownNodes(parseMarkdown(m.content), mentionOf, emojiOf(m))));
  // A deferred answer: the bot took the command and is working on it.
  if (m.flags & 128) li.append(el('div', { class: 'thinking muted', role: 'status', text: t('message.thinking', { name: author }) }));
  if (m.forwarded) li.append(forwardView(m.forwarded, (text) => markdownNodes(parseMarkdown(text), mentionOf, emojiOf(m))));
  if (m.attachments && m.attachments.length) li.append(attachmentsView(m));
  if (m.poll) li.append(pollView(m, pathOf(m), showMessage));
  for (const e of m.embeds || []) li.append(embed(e, m));
  if (m.previews && m.previews.length) li.append(previewsView(m, pathOf(m), showMessage));
  if (m.components && m.components.length) li.append(components(m.components, m));
  const thread = !m.threadId && !chat.dm && chat.threads.find((x) => x.originMessageId === m.id);
  if (thread) li.append(threadChip(thread));
  if (m.flags & 64) {
    li.append(el('small', { class: 'muted', text: t('message.ephemeral') }));
    return li;
  }
  const actions = messageActions(m);
  head.append(actions);
  // A long press (or a right click) opens the same menu as "…".
  li.addEventListener('contextmenu', (e) => {
    if (e.target.closest('a, button, textarea, input, select, .edit-box') || getSelection().toString()) return;
    e.preventDefault();
    actions.querySelector('.more').click();
  });
  // Reactions show below a message that has some; "Reagir" otherwise waits in its actions.
  const row = reactions(m);
  if (row.querySelector('.reaction:not(.add)')) li.append(row);
  return li;
}

// Threads read again (one began here, or someone else's): the messages they began from, shown,
// get their chip.
export function paintThreadChips() {
  for (const th of chat.threads) {
    const m = th.originMessageId && chat.messages.get(th.originMessageId);
    const li = m && document.getElementById(`m-${m.id}`);
    if (li && !li.querySelector('.thread-chip')) showMessage(m);
  }
}

// The thread a message began: its name, opened beside the channel (on a phone, as the room).
function threadChip(thread) {
  return el('button', { type: 'button', class: 'thread-chip', 'data-thread': thread.id, 'aria-label': t('thread.chip.label', { name: thread.name }),
                        onclick: () => act.openThread(thread.id) },
    el('span', { 'aria-hidden': 'true', text: '🧵' }), el('strong', { text: thread.name }), el('span', { class: 'muted small', text: t('thread.chip.open') }));
}

// Only what the API will allow: react, reply, edit one's own text, start a thread, pin, a DM,
// the apps' message commands, copy, delete one's own (or any, moderating). The first three that
// have an icon wait on the message's toolbar; "…" (or a long press) lists them all.
function actionsFor(m) {
  const out = [];
  const mine = m.fromId === chat.me.id;
  const may = (bit) => chat.dm || (chat.perms & bit) !== 0;
  const beside = isBeside(m); // in the thread beside the room: no reply or command of the room's
  const add = (icon, text, label, run, extra = {}) => out.push({ icon, text, label, run, ...extra });
  if (may(PERM.ADICIONAR_REACOES))
    add('🙂', t('action.react'), t('action.react.label'), async () => { const e = await pickEmoji(); if (e) react(m, e); }, { cls: 'reaction add' });
  if (!beside && may(PERM.ENVIAR_MENSAGENS)) add('↩', t('action.reply'), t('action.reply.label'), () => act.startReply(m));
  if (mine && !m.applicationId && may(PERM.ENVIAR_MENSAGENS)) add('✎', t('action.edit'), t('action.edit.label'), () => startEdit(m));
  const room = chat.dm || beside ? null : roomOf(chat.cid).room;
  if (room && !m.threadId && may(PERM.ENVIAR_MENSAGENS) && room.type === 'text')
    add('🧵', t('action.thread'), t('action.thread.label'), () => startThread(m));
  if (may(PERM.FIXAR_MENSAGENS))
    add('', m.pinned ? t('action.unpin') : t('action.pin'), m.pinned ? t('action.unpin.label') : t('action.pin.label'), () => togglePin(m));
  if (!(m.flags & 64)) add('🔖', t('action.save'), t('action.save.label'), () => act.saveMessage(m));
  if (!(m.flags & 64) && !m.poll) add('', t('action.forward'), t('action.forward.label'), () => forwardMessage(m));
  if (!(m.flags & 64)) add('', t('action.remind'), t('action.remind.label'), () => remindAbout(m));
  if (!chat.dm && !mine && !m.applicationId && !m.webhook) add('', t('action.dm'), t('action.dm.label', { name: nameOf(m.fromId) }), () => act.startDm(m.fromId));
  if (room && room.type === 'text') for (const item of messageAppItems(m)) add('', item.text, item.text, item.run);
  if (m.content) add('', t('action.copy'), t('action.copy.label'), () => navigator.clipboard?.writeText(m.content).then(() => toast(t('action.copied'))));
  if (!mine && !m.webhook) add('', t('action.report'), t('action.report.label'), () => report(`${pathOf(m)}/${m.id}`, t('report.message.title')));
  if (mine || (!chat.dm && may(PERM.GERENCIAR_MENSAGENS))) add('', t('delete'), t('action.delete.label'), (event) => remove(m, event), { danger: true });
  return out;
}

function messageActions(m) {
  const all = actionsFor(m);
  const bar = el('span', { class: 'actions-inline', role: 'toolbar', 'aria-label': t('actions.label') });
  for (const a of all.filter((x) => x.icon).slice(0, 3))
    bar.append(el('button', { type: 'button', class: `quick ${a.cls || ''}`.trim(), text: a.icon, title: a.text, 'aria-label': a.label,
                              onclick: (e) => a.run(e) }));
  const more = el('button', { type: 'button', class: 'quick more', text: '…', title: t('actions.more'), 'aria-label': t('actions.more.label'),
                              'aria-haspopup': 'menu', 'aria-expanded': 'false' });
  more.onclick = () => openMenu(more, t('actions.menu'), all.map((a) => ({ label: a.text, run: a.run, danger: a.danger })));
  bar.append(more);
  return bar;
}

// A thread from a message (one per message): named, then opened.
async function startThread(m) {
  const name = await askText(t('thread.new'), t('thread.name'), { confirm: t('thread.create'), required: true });
  if (!name || !name.trim()) return;
  try {
    const { channel } = await api('POST', `/api/servers/${chat.sid}/channels/${m.channelId}/messages/${m.id}/threads`, { name: name.trim() });
    await act.loadServer(chat.sid);
    await act.openThread(channel.id);
  } catch (e) {
    toast(e);
  }
}

// The text becomes a field: Enter saves, Escape gives up.
function startEdit(m) {
  const li = document.getElementById(`m-${m.id}`);
  if (!li || li.querySelector('.edit')) return;
  const field = el('textarea', { class: 'edit', rows: '2', maxlength: '4000', 'aria-label': t('edit.label') });
  field.value = m.content;
  // Its files can be taken out (not added), as on Discord.
  const kept = new Set((m.attachments || []).map((a) => a.id));
  const files = el('ul', { class: 'edit-files' });
  for (const a of chat.dm ? [] : m.attachments || []) {
    const chip = el('li', {}, el('span', { text: a.filename }));
    chip.append(el('button', { type: 'button', class: 'link-button', text: '✕', 'aria-label': t('edit.remove.file', { name: a.filename }),
                               onclick: () => { kept.delete(a.id); chip.remove(); } }));
    files.append(chip);
  }
  const save = async () => {
    const body = { content: field.value.trim() };
    if (kept.size !== (m.attachments || []).length) body.attachments = [...kept].map((id) => ({ id }));
    try {
      showMessage((await api('PATCH', `${pathOf(m)}/${m.id}`, body)).message);
      $('#text').focus();
    } catch (e) {
      showError($('#send-error'), e);
    }
  };
  field.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); save(); }
    if (e.key === 'Escape') { showMessage(m); $('#text').focus(); }
  });
  const content = li.querySelector('.content');
  const form = el('div', { class: 'edit-box' }, field, files.firstChild ? files : '',
                  el('small', { class: 'muted', text: t('edit.keys') }));
  if (content) content.replaceWith(form);
  else li.querySelector('.head').after(form);
  field.focus();
}

// ↑ in an empty composer edits one's newest message shown here, as on Discord and Slack.
export function editLastOwn(event) {
  const own = [...chat.messages.values()].filter((m) => m.fromId === chat.me.id && !m.applicationId && !(m.flags & 64) &&
                                                     document.getElementById(`m-${m.id}`));
  const last = own.sort((a, b) => (a.id < b.id ? -1 : 1)).pop();
  if (!last || !(chat.dm || chat.perms & PERM.ENVIAR_MENSAGENS)) return;
  event.preventDefault();
  startEdit(last);
}

export async function togglePin(m) {
  $('#send-error').hidden = true;
  try {
    const { pinned } = await api('POST', `${pathOf(m)}/${m.id}/pin`);
    const shown = isBeside(m) ? chat.beside.messages : chat.messages;
    if (shown.has(m.id)) showMessage({ ...shown.get(m.id), pinned });
    act.pinsChanged({ channelId: m.threadId || m.channelId });
  } catch (e) {
    showError($('#send-error'), e);
  }
}

function reactions(m) {
  const row = el('div', { class: 'reactions' });
  for (const r of m.reactions || []) {
    const mine = (r.userIds || []).includes(chat.me.id);
    const face = r.emoji ? document.createTextNode(r.emoji) : customEmojiNode(r.customEmojiId);
    if (!r.emoji) learnEmoji(r.customEmojiId, () => showMessage(chat.messages.get(m.id) || m));
    row.append(el('button', { type: 'button', class: mine ? 'reaction mine' : 'reaction', 'aria-pressed': String(mine),
                              onclick: () => react(m, r.emoji || { customEmojiId: r.customEmojiId }) }, face, ` ${r.count}`));
  }
  const may = chat.dm || (chat.perms & PERM.ADICIONAR_REACOES) !== 0; // in a DM, either person
  for (const chip of row.children) chip.disabled = !may;
  if (may) row.append(el('button', { type: 'button', class: 'reaction add', text: '+', title: t('action.react'), 'aria-label': t('action.react.label'),
                                     onclick: async () => { const e = await pickEmoji(); if (e) react(m, e); } }));
  return row;
}

// emoji: a Unicode emoji, or {customEmojiId} for a server's own.
async function react(m, emoji) {
  $('#send-error').hidden = true;
  try {
    const { reactions: now } = await api('POST', `${pathOf(m)}/${m.id}/react`, typeof emoji === 'string' ? { emoji } : emoji);
    showMessage({ ...m, reactions: now });
  } catch (e) {
    showError($('#send-error'), e);
  }
}

async function remove(m, event) {
  // Shift skips the question, as on Discord.
  if (!(event && event.shiftKey) && !(await ask(t('message.delete.ask'), t('cannot.undo'), { confirm: t('delete'), danger: true }))) return;
  $('#send-error').hidden = true;
  try {
    await api('DELETE', `${pathOf(m)}/${m.id}`);
    forget(m.id);
  } catch (e) {
    showError($('#send-error'), e);
  }
}

export function showMessage(m) {
  messageShown(m);
  const old = document.getElementById(`m-${m.id}`);
  const item = messageItem(m);
  if (old) {
    item.classList.toggle('cont', old.classList.contains('cont'));
    old.replaceWith(item);
  } else if (isBeside(m)) {
    const list = $('#thread-messages');
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.append(item);
    $('#thread-empty').hidden = true;
    if (atBottom) list.scrollTop = list.scrollHeight;
  } else {
    const list = $('#messages');
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const before = lastMessageItem();
    const waiting = list.querySelector('.outbox-item'); // the outbox stays last
    if (waiting) list.insertBefore(item, waiting);
    else list.append(item);
    placeInFlow(before, item);
    if (atBottom) {
      trimOldest(list);
      list.scrollTop = list.scrollHeight;
    }
    $('#no-messages').hidden = true;
  }
}

// A page left open on a busy room holds at most SHOWN_MAX messages: while the reader is at the
// end, the oldest go (scrolling up reads them again), so its memory stays flat.
const SHOWN_MAX = 200;

function trimOldest(list) {
  const items = list.querySelectorAll('.message');
  const extra = items.length - SHOWN_MAX;
  if (extra <= 0) return;
  const gone = [...items].slice(0, extra);
  messagesTrimmed(gone.map((x) => x.dataset.id), items[extra].dataset.id);
  for (const x of gone) x.remove();
  paintFlow();
}

export function forget(id) {
  messageRemoved(id);
  const li = document.getElementById(`m-${id}`);
  if (!li) return;
  li.remove();
  paintFlow();
}
