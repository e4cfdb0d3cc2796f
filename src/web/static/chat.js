// The chat client: servers, their text channels, messages live over the gateway, a composer
// that also runs slash commands, bots' buttons and forms. Text only through textContent.
import { wireMfa } from './chat-account.js';
import { commandBody, commandResolver, paintPalette, paletteKey } from './chat-commands.js';
import { dmArrived, loadDms, openDm, startDm } from './chat-dms.js';
import { pickEmoji } from './chat-emoji.js';
import { avatar, clearNewLine, lastMessageItem, lastShownId, newLineFor, paintFlow, placeInFlow } from './chat-flow.js';
import { loadInvites } from './chat-invites.js';
import { loadSettings, wireSettings } from './chat-manage.js';
import { memberJoined, memberLeft, paintPeople, presenceChanged } from './chat-members.js';
import { notifyArrived, wireNotify } from './chat-notify.js';
import { basePermissions, channelPermissions, PERM } from './chat-perms.js';
import { pinsChanged, togglePins } from './chat-pins.js';
import { loadUnread, markRead, markServerRead, paintMarkRead } from './chat-read.js';
import { applyMembers, applyTree, chat, messageArrived, messageEdited, messageRemoved, pinApplied, reactionApplied, timedOutUntil, voiceApplied } from './chat-store.js';
import { paintTyping, typingArrived, typingSaid, typingSent, typingStopped } from './chat-typing.js';
import { $, api, copyText, el, requireSession, showError } from './common.js';
import { markdownNodes, parseMarkdown } from './markdown.js';
import { Gateway } from './sio.js';

export const HISTORY_PAGE = 50;
// The page's state lives in chat-store.js.

// ---- on a phone, one screen at a time: servers → channels → room ----

const SCREENS = ['servers', 'channels', 'room'];

// The person went deeper (a server, a room): that screen, with a step the back button and the
// browser's back gesture undo. On a desktop every column shows and this only keeps the steps.
export function go(screen) {
  if (document.body.dataset.screen === screen) return;
  document.body.dataset.screen = screen;
  history.pushState({ screen }, '', location.hash);
  paintBack();
}

function paintBack() {
  const at = SCREENS.indexOf(document.body.dataset.screen);
  $('#back').hidden = at <= 0;
  $('#back').setAttribute('aria-label', at === 2 ? 'Voltar aos canais' : 'Voltar aos servidores');
}

function wireScreens() {
  const hash = new URLSearchParams(location.hash.slice(1));
  // A reload starts where it was; main() then steps down to the room it opens.
  const screen = hash.get('channel') || hash.get('dm') ? 'room' : hash.get('server') ? 'channels' : 'servers';
  document.body.dataset.screen = screen;
  history.replaceState({ screen }, '', location.hash);
  window.addEventListener('popstate', (e) => {
    const at = SCREENS.indexOf(document.body.dataset.screen);
    document.body.dataset.screen = (e.state && e.state.screen) || SCREENS[Math.max(0, at - 1)];
    paintBack();
  });
  $('#back').addEventListener('click', () => {
    const at = SCREENS.indexOf(document.body.dataset.screen);
    if (history.state && history.state.screen === document.body.dataset.screen && history.length > 1) history.back();
    else {
      document.body.dataset.screen = SCREENS[Math.max(0, at - 1)];
      paintBack();
    }
  });
  paintBack();
}

// Where the open room's messages are read and sent.
export function messagesPath() {
  return chat.dm ? `/api/dms/${chat.cid}/messages` : `/api/servers/${chat.sid}/channels/${chat.cid}/messages`;
}

// ---- rendering ----

export function nameOf(userId) {
  return chat.names.get(userId) || 'alguém';
}

function button(component, message) {
  const b = el('button', { type: 'button', class: `component style-${component.style || 1}`, text: component.label || '…' });
  if (component.disabled) b.disabled = true;
  if (component.style === 5 && component.url) {
    b.addEventListener('click', () => window.open(component.url, '_blank', 'noopener'));
  } else {
    b.addEventListener('click', () => invoke({ type: 'component', messageId: message.id, customId: component.customId }));
  }
  return b;
}

function selectMenu(component, message) {
  const s = el('select', { 'aria-label': component.placeholder || 'Escolha' });
  s.append(el('option', { value: '', text: component.placeholder || 'Escolha…' }));
  for (const o of component.options || []) s.append(el('option', { value: o.value, text: o.label }));
  s.addEventListener('change', () => {
    if (s.value) invoke({ type: 'component', messageId: message.id, customId: component.customId, values: [s.value] });
  });
  return s;
}

// An image or file a bot points to: a link, and for an image of a stored message the image
// itself through praca's media proxy (the page loads nothing from elsewhere, so no other site
// learns who reads the message); an image the proxy cannot give stays a link.
function media(m, description, kind = 'imagem', message = null, label = '') {
  const url = m && m.url;
  if (!/^https?:\/\//.test(url || '')) return el('div', { class: 'media' }, el('span', { text: description || label || url || kind }));
  // Without a description of its own, the caption is only for when the image cannot be shown.
  const caption = el('span', { class: description ? 'media-caption' : 'media-caption generic', text: description || label || url });
  const link = el('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, caption);
  const room = message && message.serverId && !(message.flags & 64) && (message.threadId || message.channelId);
  if (kind === 'imagem' && room) {
    const img = el('img', { alt: description || '', loading: 'lazy', decoding: 'async',
      src: `/api/servers/${message.serverId}/channels/${room}/messages/${message.id}/media?url=${encodeURIComponent(url)}` });
    img.addEventListener('error', () => { img.remove(); link.prepend('🖼 '); });
    img.addEventListener('load', () => link.classList.add('shown'));
    link.prepend(img);
  } else {
    link.prepend(`${kind === 'arquivo' ? '📎' : '🖼'} `);
  }
  return el('div', { class: 'media' }, link);
}

export const colour = (n) => `#${n.toString(16).padStart(6, '0')}`;

// One component of a message: action rows as before, and with IS_COMPONENTS_V2 the layout
// pieces (sections, text, media, separators, containers) in the order the bot gave them.
function component(c, message) {
  switch (c.type) {
    case 1: {
      const line = el('div', { class: 'row' });
      for (const x of c.components || []) {
        if (x.type === 2) line.append(button(x, message));
        else if (x.type === 3) line.append(selectMenu(x, message));
      }
      return line;
    }
    case 2: return button(c, message);
    case 9: return el('div', { class: 'section' },
      el('div', { class: 'section-text' }, ...(c.components || []).map((x) => component(x, message))),
      c.accessory ? component(c.accessory, message) : '');
    case 10: return el('p', { class: 'text-display', text: c.content });
    case 11: return media(c.media, c.description, 'imagem', message);
    case 12: return el('div', { class: 'gallery' }, ...(c.items || []).map((i) => media(i.media, i.description, 'imagem', message)));
    case 13: return media(c.file, null, 'arquivo');
    case 14: return el('hr', { class: c.divider === false ? 'spacer' : 'divider' });
    case 17: {
      const box = el('div', { class: 'container' }, ...(c.components || []).map((x) => component(x, message)));
      if (Number.isInteger(c.accentColor)) box.style.borderLeftColor = colour(c.accentColor);
      return box;
    }
    default: return el('span');
  }
}

function components(list, message) {
  return el('div', { class: 'components' }, ...(list || []).map((c) => component(c, message)));
}

function embed(e, message) {
  const box = el('div', { class: 'embed' });
  if (Number.isInteger(e.color)) box.style.borderLeftColor = colour(e.color);
  if (e.author && e.author.name) box.append(el('small', { class: 'author', text: e.author.name }));
  if (e.title) {
    box.append(/^https?:\/\//.test(e.url || '')
      ? el('a', { class: 'title', href: e.url, rel: 'noopener noreferrer', target: '_blank', text: e.title })
      : el('strong', { text: e.title }));
  }
  if (e.description) box.append(el('p', { text: e.description }));
  for (const f of e.fields || []) box.append(el('p', {}, el('strong', { text: `${f.name}: ` }), f.value));
  if (e.thumbnail) box.append(media(e.thumbnail, null, 'imagem', message, 'miniatura'));
  if (e.image) box.append(media(e.image, null, 'imagem', message, 'imagem'));
  if (e.footer && e.footer.text) box.append(el('small', { class: 'muted', text: e.footer.text }));
  return box;
}

// A mention in text: a member of the open server (by username), marked when it is oneself.
export function mentionOf(username) {
  const m = chat.members.find((x) => x.user.username === username);
  if (!m) return null;
  return { label: m.nickname || m.user.displayName || m.user.username, self: m.userId === chat.me.id };
}

function messageItem(m) {
  const when = new Date(m.createdAt).toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });
  const head = el('div', { class: 'head' }, avatar(m.fromId, nameOf(m.fromId)), el('strong', { text: nameOf(m.fromId) }),
                  m.applicationId ? el('span', { class: 'bot-tag', text: 'BOT' }) : '',
                  el('time', { datetime: m.createdAt, text: when }),
                  m.editedAt ? el('span', { class: 'muted small', text: '(editada)' }) : '');
  if (m.pinned) head.append(el('span', { class: 'pin-tag', text: '📌 fixada' }));
  const li = el('li', { class: 'message', id: `m-${m.id}`, 'data-id': m.id, 'data-at': m.createdAt, 'data-from': m.fromId }, head);
  if (m.flags & 64) li.classList.add('ephemeral');
  if (m.replyTo) li.append(el('button', { type: 'button', class: 'reply muted small', text: `↪ ${nameOf(m.replyTo.fromId)}: ${m.replyTo.preview}`,
                                          title: 'Ir à mensagem respondida', onclick: () => jumpTo(m.replyTo.id) }));
  if (m.content) li.append(el('div', { class: 'content' }, ...markdownNodes(parseMarkdown(m.content), mentionOf)));
  for (const e of m.embeds || []) li.append(embed(e, m));
  if (m.components && m.components.length) li.append(components(m.components, m));
  if (m.flags & 64) {
    li.append(el('small', { class: 'muted', text: 'Só você vê esta mensagem.' }));
    return li;
  }
  const actions = messageActions(m);
  head.append(actions);
  if (chat.dm) return li; // a DM has no reactions nor pins
  // Reactions show below a message that has some; "Reagir" otherwise waits in its actions.
  const row = reactions(m);
  if (row.querySelector('.reaction:not(.add)')) li.append(row);
  else if (row.firstChild) actions.prepend(Object.assign(row.firstChild, { textContent: 'Reagir' }));
  return li;
}

// Only what the API will allow: edit one's own text, delete one's own (or any, moderating), pin.
function messageActions(m) {
  const box = el('span', { class: 'actions-inline' });
  const action = (text, label, fn) => box.append(el('button', { type: 'button', class: 'link-button small', text, 'aria-label': label, onclick: fn }));
  const mine = m.fromId === chat.me.id;
  if (chat.dm) { // the two people: each answers, edits and deletes their own
    action('Responder', 'Responder a esta mensagem', () => startReply(m));
    if (mine) action('Editar', 'Editar esta mensagem', () => startEdit(m));
    if (mine) action('Apagar', 'Apagar esta mensagem', (event) => remove(m, event));
    return box;
  }
  if (chat.perms & PERM.ENVIAR_MENSAGENS) action('Responder', 'Responder a esta mensagem', () => startReply(m));
  if (mine && !m.applicationId && chat.perms & PERM.ENVIAR_MENSAGENS) action('Editar', 'Editar esta mensagem', () => startEdit(m));
  if (chat.perms & PERM.FIXAR_MENSAGENS) action(m.pinned ? 'Desafixar' : 'Fixar', m.pinned ? 'Desafixar esta mensagem' : 'Fixar esta mensagem', () => togglePin(m));
  if (mine || chat.perms & PERM.GERENCIAR_MENSAGENS) action('Apagar', 'Apagar esta mensagem', (event) => remove(m, event));
  if (!m.threadId && chat.perms & PERM.ENVIAR_MENSAGENS && roomOf(chat.cid).room.type === 'text')
    action('Thread', 'Abrir uma thread a partir desta mensagem', () => startThread(m));
  if (!mine && !m.applicationId) action('Conversar', `Mandar uma mensagem direta a ${nameOf(m.fromId)}`, () => startDm(m.fromId));
  return box;
}

// A forum: its posts, each a thread to open, and a form for a new one.
function openForum(c) {
  chat.forum = c.id;
  $('#forum-title').textContent = `💬 ${c.name}`;
  $('#forum-error').hidden = true;
  const posts = chat.threads.filter((t) => t.parentId === c.id);
  $('#forum-posts').replaceChildren(...posts.map((t) => el('li', {}, el('button', { type: 'button', class: 'link', text: t.name, onclick: () => openChannel(t.id) }))));
  if (!posts.length) $('#forum-posts').append(el('li', { class: 'muted', text: 'Nenhuma postagem ainda.' }));
  const perms = channelPermissions(chat.server, chat.roles, chat.mine, c);
  $('#forum-form').hidden = !(perms & PERM.ENVIAR_MENSAGENS);
  for (const b of document.querySelectorAll('#channels button'))
    b.setAttribute('aria-current', b.dataset.id === c.id ? 'true' : 'false');
  showPanel('#forum');
}

async function postInForum(event) {
  event.preventDefault();
  $('#forum-error').hidden = true;
  try {
    const { channel } = await api('POST', `/api/servers/${chat.sid}/channels/${chat.forum}/threads`, { name: $('#post-title').value, content: $('#post-content').value });
    $('#forum-form').reset();
    await loadServer(chat.sid);
    await openChannel(channel.id);
  } catch (e) {
    showError($('#forum-error'), e);
  }
}

// A thread from a message (one per message): named, then opened.
async function startThread(m) {
  const name = prompt('Nome da thread');
  if (!name || !name.trim()) return;
  try {
    const { channel } = await api('POST', `/api/servers/${chat.sid}/channels/${m.channelId}/messages/${m.id}/threads`, { name: name.trim() });
    await loadServer(chat.sid);
    await openChannel(channel.id);
  } catch (e) {
    toast(e);
  }
}

// The text becomes a field: Enter saves, Escape gives up.
function startEdit(m) {
  const li = document.getElementById(`m-${m.id}`);
  if (!li || li.querySelector('.edit')) return;
  const field = el('textarea', { class: 'edit', rows: '2', maxlength: '4000', 'aria-label': 'Novo texto da mensagem' });
  field.value = m.content;
  const save = async () => {
    try {
      showMessage((await api('PATCH', `${messagesPath()}/${m.id}`, { content: field.value.trim() })).message);
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
  const form = el('div', { class: 'edit-box' }, field,
                  el('small', { class: 'muted', text: 'Enter salva · Esc cancela' }));
  if (content) content.replaceWith(form);
  else li.querySelector('.head').after(form);
  field.focus();
}

// ↑ in an empty composer edits one's newest message shown here, as on Discord and Slack.
function editLastOwn(event) {
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
    const { pinned } = await api('POST', `/api/servers/${chat.sid}/channels/${chat.cid}/messages/${m.id}/pin`);
    if (chat.messages.has(m.id)) showMessage({ ...chat.messages.get(m.id), pinned });
    pinsChanged({ channelId: chat.cid });
  } catch (e) {
    showError($('#send-error'), e);
  }
}

function reactions(m) {
  const row = el('div', { class: 'reactions' });
  for (const r of m.reactions || []) {
    const mine = (r.userIds || []).includes(chat.me.id);
    row.append(el('button', { type: 'button', class: mine ? 'reaction mine' : 'reaction', 'aria-pressed': String(mine),
                              text: `${r.emoji || ':' + r.customEmojiId + ':'} ${r.count}`,
                              onclick: () => react(m, r.emoji) }));
  }
  const may = (chat.perms & PERM.ADICIONAR_REACOES) !== 0;
  for (const chip of row.children) chip.disabled = !may;
  if (may) row.append(el('button', { type: 'button', class: 'reaction add', text: '+ Reagir', 'aria-label': 'Reagir com um emoji',
                                     onclick: async () => { const e = await pickEmoji(); if (e) react(m, e); } }));
  return row;
}

async function react(m, emoji) {
  $('#send-error').hidden = true;
  try {
    const { reactions: now } = await api('POST', `/api/servers/${chat.sid}/channels/${chat.cid}/messages/${m.id}/react`, { emoji });
    showMessage({ ...m, reactions: now });
  } catch (e) {
    showError($('#send-error'), e);
  }
}

async function remove(m, event) {
  // Shift skips the question, as on Discord.
  if (!(event && event.shiftKey) && !confirm('Apagar esta mensagem? Não dá para desfazer.')) return;
  $('#send-error').hidden = true;
  try {
    await api('DELETE', `${messagesPath()}/${m.id}`);
    forget(m.id);
  } catch (e) {
    showError($('#send-error'), e);
  }
}

export function showMessage(m) {
  chat.messages.set(m.id, m);
  const list = $('#messages');
  const old = document.getElementById(`m-${m.id}`);
  const item = messageItem(m);
  if (old) {
    item.classList.toggle('cont', old.classList.contains('cont'));
    old.replaceWith(item);
  } else {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const before = lastMessageItem();
    list.append(item);
    placeInFlow(before, item);
    if (atBottom) {
      trimOldest(list);
      list.scrollTop = list.scrollHeight;
    }
  }
  $('#no-messages').hidden = true;
}

// A page left open on a busy room holds at most SHOWN_MAX messages: while the reader is at the
// end, the oldest go (scrolling up reads them again), so its memory stays flat.
const SHOWN_MAX = 200;
function trimOldest(list) {
  const items = list.querySelectorAll('.message');
  const extra = items.length - SHOWN_MAX;
  if (extra <= 0) return;
  for (let i = 0; i < extra; i++) {
    chat.messages.delete(items[i].dataset.id);
    items[i].remove();
  }
  chat.oldest = items[extra].dataset.id;
  chat.hasMore = true;
  paintFlow();
}

function forget(id) {
  messageRemoved(id);
  const li = document.getElementById(`m-${id}`);
  if (!li) return;
  li.remove();
  paintFlow();
}

// ---- loading ----

export async function loadServers() {
  ({ servers: chat.servers } = await api('GET', '/api/servers'));
  paintServers();
}

function paintServers() {
  $('#servers').replaceChildren(...chat.servers.map((s) => el('li', {}, el('button', {
    type: 'button', class: 'server', text: s.name, title: s.name, 'data-id': s.id,
    'aria-current': s.id === chat.sid ? 'true' : false, onclick: () => { go('channels'); openServer(s.id); },
  }))));
}

// My timeout in the open server, said above the composer.
function paintTimeout() {
  const until = timedOutUntil();
  $('#timeout').hidden = !until;
  $('#timeout').textContent = until
    ? `Você está suspenso neste servidor até ${until.toLocaleString('pt-BR')}${chat.mine.timeoutReason ? ` (${chat.mine.timeoutReason})` : ''}: pode ler, mas não enviar, reagir nem usar comandos.`
    : '';
}

// The server's header, its channels and people, and what one may do, from what is held.
export function paintServer() {
  const { server, roles, mine } = chat;
  $('#server-title').textContent = server.name;
  paintTimeout();
  paintVerificationHold();
  const base = basePermissions(server, roles, mine);
  $('#settings-open').hidden = !(base & (PERM.GERENCIAR_SERVIDOR | PERM.GERENCIAR_CARGOS | PERM.GERENCIAR_CANAIS | PERM.BANIR_MEMBROS |
                                          PERM.EXPULSAR_MEMBROS | PERM.MODERAR_MEMBROS));
  $('#server-leave').hidden = server.ownerId === chat.me.id; // the owner deletes it instead
  $('#invite-make').hidden = !(base & PERM.CRIAR_CONVITE);
  paintChannels(chat.allChannels);
  paintPeople();
  chat.perms = channelPermissions(server, roles, mine, roomOf(chat.cid).parent);
}

// The open server, read whole when it is opened. Returns false when a later read has started
// (or another server opened): that one applies.
export async function loadServer(sid) {
  const generation = ++chat.loads;
  const [tree, { members }, { commands }] = await Promise.all([
    api('GET', `/api/servers/${sid}?threads=1`), api('GET', `/api/servers/${sid}/members`), api('GET', `/api/servers/${sid}/commands`)]);
  if (sid !== chat.sid || generation !== chat.loads) return false;
  chat.commands = commands;
  applyTree(tree);
  applyMembers(members);
  await loadVoice(sid, tree.channels);
  if (sid !== chat.sid || generation !== chat.loads) return false;
  paintServer();
  return true;
}

// The server's verification level, as the API applies it to a message (docs/api.md): what keeps
// me from speaking, said before I try, and looked at again when a wait ends.
const ACCOUNT_WAIT_MS = 5 * 60 * 1000;
const MEMBER_WAIT_MS = 10 * 60 * 1000;
export function paintVerificationHold() {
  clearTimeout(chat.holdTimer);
  const { server, mine, me } = chat;
  const level = server ? server.verificationLevel : 0;
  let text = '';
  if (server && mine && server.ownerId !== me.id && level > 0) {
    const until = Math.max(level >= 1 ? Date.parse(me.createdAt) + ACCOUNT_WAIT_MS : 0,
                           level >= 2 ? Date.parse(mine.joinedAt) + MEMBER_WAIT_MS : 0);
    if (until > Date.now()) {
      text = `Este servidor pede que ${level >= 2 ? 'contas e membros novos' : 'contas novas'} esperem antes de falar: você poderá enviar mensagens a partir de ${new Date(until).toLocaleTimeString('pt-BR')}.`;
      chat.holdTimer = setTimeout(paintVerificationHold, until - Date.now() + 500);
    } else if (level >= 3 && !me.mfaEnabled) {
      text = 'Este servidor exige verificação em duas etapas para falar: ative-a em Conta.';
    }
  }
  $('#verification-hold').textContent = text;
  $('#verification-hold').hidden = !text;
}

// Text channels open; voice channels show who is in them, with a way in and out; forums are
// listed for what they are.
const CHANNEL_GROUPS = [['Texto', 'text'], ['Fóruns', 'forum'], ['Voz', 'voice']];
function paintChannels(channels) {
  const room = (c, text) => el('button', { type: 'button', class: c.type === 'thread' ? 'channel thread' : 'channel', text, 'data-id': c.id,
                                          onclick: () => { go('room'); openChannel(c.id); }, 'aria-current': c.id === chat.cid ? 'true' : 'false' });
  const threadsOf = (c) => {
    const mine = chat.threads.filter((t) => t.parentId === c.id);
    return mine.length ? el('ul', { class: 'threads', 'aria-label': `Threads de ${c.name}` }, ...mine.map((t) => el('li', {}, room(t, `↳ ${t.name}`)))) : '';
  };
  const item = (c) => el('li', {}, c.type === 'text'
    ? room(c, `# ${c.name}`)
    : c.type === 'voice' ? voiceChannel(c)
      : el('button', { type: 'button', class: 'channel forum', text: `💬 ${c.name}`, 'data-id': c.id, onclick: () => { go('room'); openForum(c); },
                       'aria-current': c.id === chat.forum ? 'true' : 'false' }),
  c.type === 'text' || c.type === 'forum' ? threadsOf(c) : '');
  // By type, each in the server's order (the API has no categories); a heading once there are two kinds.
  const groups = CHANNEL_GROUPS.map(([title, type]) => [title, channels.filter((c) => c.type === type)]).filter(([, list]) => list.length);
  $('#channels').replaceChildren(...groups.flatMap(([title, list]) => [
    ...(groups.length > 1 ? [el('li', { class: 'channel-group', 'aria-hidden': 'true' }, el('span', { class: 'nav-title', text: title }))] : []),
    ...list.map(item)]));
  paintUnread();
}

// A voice channel: its name, whether I am in it, and its participants (no audio in the page:
// joining makes me a participant for the bots and clients that carry the audio).
function voiceChannel(c) {
  const people = chat.voice.get(c.id) || [];
  const inside = people.some((p) => p.userId === chat.me.id);
  return el('div', { class: 'voice', 'data-id': c.id },
    el('span', { class: 'channel other', text: `🔊 ${c.name}` }),
    el('button', { type: 'button', class: 'voice-toggle', text: inside ? 'Sair' : 'Entrar',
                   'aria-label': `${inside ? 'Sair de' : 'Entrar em'} ${c.name}`,
                   title: 'Sem áudio no navegador: você aparece na sala para bots e clientes de voz',
                   onclick: () => (inside ? leaveVoice(c) : joinVoice(c)) }),
    el('ul', { class: 'voice-people', 'aria-label': `Na sala ${c.name}` },
      ...people.map((p) => el('li', { text: `${p.muted ? '🔇' : '🎙'} ${nameOf(p.userId)}` }))));
}

async function loadVoice(sid, channels) {
  const voice = channels.filter((c) => c.type === 'voice');
  const lists = await Promise.all(voice.map((c) =>
    api('GET', `/api/servers/${sid}/channels/${c.id}/voice-members`).then((r) => r.members, () => [])));
  if (sid !== chat.sid) return;
  chat.voice = new Map(voice.map((c, i) => [c.id, lists[i]]));
}

function paintVoice(cid) {
  const c = chat.voiceChannels.find((v) => v.id === cid);
  const at = document.querySelector(`.voice[data-id="${cid}"]`);
  if (c && at) at.replaceWith(voiceChannel(c));
}

async function joinVoice(c) {
  try {
    const joined = await chat.gateway.emitWithAck('voice:join', { channelId: c.id });
    if (!joined.ok) throw Object.assign(new Error(joined.error), { status: joined.status });
    chat.voice.set(c.id, joined.participants);
    paintVoice(c.id);
  } catch (e) {
    toast(e);
  }
}

async function leaveVoice(c) {
  try {
    const left = await chat.gateway.emitWithAck('voice:leave', { channelId: c.id });
    if (!left.ok) throw Object.assign(new Error(left.error), { status: left.status });
    chat.voice.set(c.id, (chat.voice.get(c.id) || []).filter((p) => p.userId !== chat.me.id));
    paintVoice(c.id);
  } catch (e) {
    toast(e);
  }
}

export async function openServer(sid) {
  chat.sid = sid;
  chat.cid = null;
  chat.dm = null;
  chat.forum = null;
  for (const b of document.querySelectorAll('#dms button')) b.setAttribute('aria-current', 'false');
  $('#text').placeholder = 'Mensagem ou /comando';
  const panel = openPanel();
  await loadServer(sid);
  $('#invite-box').hidden = true;
  // Settings or Conta opened while this loaded stay open; what was open before goes.
  if (openPanel() === panel) showPanel('#room');
  await loadServers();
  // A room the person opened meanwhile (a click while this loaded) stays open.
  if (chat.sid !== sid || chat.cid || chat.forum) return;
  history.replaceState(history.state, '', `#server=${sid}`);
  if (chat.channels.length) await openChannel(chat.channels[0].id, { behind: openPanel() !== '#room' });
}

// The panel shown in the third column.
function openPanel() {
  return ['#settings', '#account', '#forum', '#room'].find((p) => !$(p).hidden) || '#room';
}

// A room the page opens: a text channel, or a thread (whose permissions are its parent's).
function roomOf(cid) {
  const thread = chat.threads.find((t) => t.id === cid);
  const parent = thread ? chat.parents.find((c) => c.id === thread.parentId) : chat.channels.find((c) => c.id === cid);
  return { room: thread || parent, parent };
}

// behind: opened by the page itself while the person looks at settings or Conta, which stay.
export async function openChannel(cid, { behind = false } = {}) {
  stopReply();
  chat.cid = cid;
  newLineFor(cid);
  chat.unread.delete(cid);
  chat.unread.delete(chat.sid);
  if (!behind) showPanel('#room');
  const { room, parent } = roomOf(cid);
  chat.perms = channelPermissions(chat.server, chat.roles, chat.mine, parent);
  $('#channel-title').textContent = room.type === 'thread' ? `↳ ${room.name} (em #${parent.name})` : `# ${room.name}`;
  $('#pins-open').hidden = false;
  togglePins(false);
  for (const b of document.querySelectorAll('#channels button'))
    b.setAttribute('aria-current', b.dataset.id === cid ? 'true' : 'false');
  paintUnread();
  const { messages, hasMore } = await api('GET', `${messagesPath()}?limit=${HISTORY_PAGE}`);
  if (cid !== chat.cid) return;
  showHistory(messages, hasMore);
  history.replaceState(history.state, '', `#server=${chat.sid}&channel=${cid}`);
}

// After a reconnect that could not be resumed: the open room's newest page read again (one
// request), so no message sent meanwhile is missing.
async function refreshRoom() {
  const cid = chat.cid;
  if (!cid || chat.forum) return;
  try {
    const { messages, hasMore } = await api('GET', `${messagesPath()}?limit=${HISTORY_PAGE}`);
    if (cid === chat.cid) showHistory(messages, hasMore);
  } catch (e) {
    toast(e);
  }
}

// A room's newest page, scrolled to its end.
export function showHistory(messages, hasMore) {
  paintTyping();
  chat.oldest = messages.length ? messages[0].id : null;
  chat.hasMore = hasMore;
  chat.messages = new Map(messages.map((m) => [m.id, m]));
  $('#messages').replaceChildren(...messages.map(messageItem));
  paintFlow();
  $('#no-messages').hidden = messages.length > 0;
  $('#composer').hidden = false;
  $('#messages').scrollTop = $('#messages').scrollHeight;
  if (messages.length) markRead(chat.cid, messages[messages.length - 1].id);
}

// Scrolled to the top: the page before, kept where the reader was.
async function loadOlder() {
  if (!chat.hasMore || chat.loadingOlder || !chat.oldest) return;
  chat.loadingOlder = true;
  const cid = chat.cid;
  try {
    const { messages, hasMore } = await api('GET', `${messagesPath()}?limit=${HISTORY_PAGE}&beforeId=${chat.oldest}`);
    if (cid !== chat.cid) return;
    const list = $('#messages');
    const from = list.scrollHeight - list.scrollTop;
    for (const m of messages) chat.messages.set(m.id, m);
    list.prepend(...messages.map(messageItem));
    paintFlow();
    list.scrollTop = list.scrollHeight - from;
    chat.hasMore = hasMore;
    if (messages.length) chat.oldest = messages[0].id;
  } catch (e) {
    showError($('#send-error'), e);
  } finally {
    chat.loadingOlder = false;
  }
}

// ---- sending: text, or /command name=value … ----

// A command's answer is awaited this long (an endpoint's 3 s and a little), then the person is
// told that nobody answered, as Discord does.
const ANSWER_WAIT_MS = 3500;
const awaiting = new Set(); // waits: {applicationId, interactionId, timer}

async function invoke(body) {
  $('#send-error').hidden = true;
  // The wait starts before the request: the bot's answer can come over the socket first.
  const wait = { applicationId: body.applicationId, interactionId: null, timer: null };
  if (body.type === 'command') awaiting.add(wait);
  try {
    const { interactionId } = await api('POST', `/api/servers/${chat.sid}/channels/${chat.cid}/interactions`, body);
    if (!awaiting.has(wait)) return; // answered already
    if (!interactionId) return void awaiting.delete(wait);
    wait.interactionId = interactionId;
    wait.timer = setTimeout(() => {
      if (!awaiting.delete(wait)) return;
      showError($('#send-error'), `O aplicativo não respondeu a /${body.commandName}.`);
    }, ANSWER_WAIT_MS);
  } catch (e) {
    awaiting.delete(wait);
    showError($('#send-error'), e);
  }
}

// An answer came (a message of that application for me, or its form): the oldest wait ends.
function answered(applicationId, interactionId) {
  for (const w of awaiting) {
    if ((interactionId && w.interactionId === interactionId) || w.applicationId === applicationId) {
      clearTimeout(w.timer);
      awaiting.delete(w);
      return;
    }
  }
}

async function send(event) {
  event.preventDefault();
  const text = $('#text').value.trim();
  if (!text) return;
  $('#send-error').hidden = $('#rules').hidden = true;
  try {
    if (text.startsWith('/') && chat.dm) throw new Error('Comandos só funcionam nos canais de um servidor.');
    if (text.startsWith('/')) await invoke(commandBody(text, chat.commands, commandResolver()));
    else {
      const body = { content: text };
      if (chat.replyTo) body.replyToId = chat.replyTo.id;
      clearNewLine(); // what came before is read
      showMessage((await api('POST', messagesPath(), body)).message);
      stopReply();
    }
    typingSent(chat.cid);
    if ($('#text').value.trim() === text) $('#text').value = ''; // not what was typed meanwhile
    $('#mentions').replaceChildren();
    paintPalette();
  } catch (e) {
    if (e.body && e.body.requiresRulesAcceptance) return askRules();
    showError($('#send-error'), e);
  }
}

// Replying: the message answered shows above the composer until sent, or cancelled (✕, Esc).
function startReply(m) {
  chat.replyTo = m;
  $('#reply-to').textContent = `Respondendo a ${nameOf(m.fromId)}: ${(m.content || '').slice(0, 80)}`;
  $('#reply-bar').hidden = false;
  $('#text').focus();
}

export function stopReply() {
  chat.replyTo = null;
  $('#reply-bar').hidden = true;
}

// A reply's quote leads to the original: shown already, it is scrolled to; else the messages
// around it are read (one request).
export async function jumpTo(id) {
  let target = document.getElementById(`m-${id}`);
  if (!target) {
    try {
      const { messages, hasMore } = await api('GET', `${messagesPath()}?around=${id}&limit=${HISTORY_PAGE}`);
      showHistory(messages, hasMore);
    } catch (e) {
      return showError($('#send-error'), e);
    }
    target = document.getElementById(`m-${id}`);
  }
  if (!target) return;
  target.scrollIntoView({ block: 'center' });
  target.classList.remove('flash');
  void target.offsetWidth; // the highlight again, if it was just shown
  target.classList.add('flash');
}

// A server that asks for its rules to be accepted before anyone speaks.
function askRules() {
  $('#rules-text').textContent = chat.server.rules || '(sem texto)';
  $('#rules').hidden = false;
  $('#rules-accept').focus();
}

// @ at the end of what is being typed: the members whose username starts with what follows,
// then the mentionable roles (and @everyone / @here for those who may use them).
function suggestMentions() {
  const box = $('#mentions');
  const m = /(^|\s)@([\p{L}\p{N}_.]*)$/u.exec($('#text').value);
  box.replaceChildren();
  if (!m) return;
  const typed = m[2].toLowerCase();
  const roles = chat.roles.filter((r) => r.mentionable && r.id !== chat.server.id).map((r) => r.name);
  if (chat.perms & PERM.MENCIONAR_TODOS) roles.push('everyone', 'here');
  const offers = [
    ...chat.usernames.filter((u) => u.startsWith(typed)).map((name) => ({ name, note: '' })),
    ...roles.filter((r) => r.toLowerCase().startsWith(typed)).map((name) => ({ name, note: ' · cargo' })),
  ];
  for (const { name, note } of offers.slice(0, 8)) {
    box.append(el('li', {}, el('button', { type: 'button', text: `@${name}${note}`, onclick: () => {
      const t = $('#text');
      t.value = t.value.slice(0, t.value.length - typed.length) + name + ' ';
      box.replaceChildren();
      t.focus();
    } })));
  }
}

// ---- forms a bot opens ----

function openModal(m) {
  const fields = $('#modal-fields');
  $('#modal-title').textContent = m.title;
  fields.replaceChildren();
  for (const row of m.components) {
    for (const input of row.components) {
      const id = `field-${input.customId}`;
      const field = input.style === 2
        ? el('textarea', { id, 'data-id': input.customId, maxlength: input.maxLength, placeholder: input.placeholder || '' })
        : el('input', { id, type: 'text', 'data-id': input.customId, maxlength: input.maxLength, placeholder: input.placeholder || '' });
      if (input.required) field.required = true;
      if (input.minLength) field.minLength = input.minLength;
      if (input.value) field.value = input.value;
      fields.append(el('label', { for: id, text: input.label }), field);
    }
  }
  const form = $('#modal-form');
  form.onsubmit = async (e) => {
    e.preventDefault();
    const values = [...fields.querySelectorAll('[data-id]')].map((f) => ({ customId: f.dataset.id, value: f.value }));
    $('#modal').close();
    await invoke({ type: 'modal_submit', applicationId: m.applicationId, customId: m.customId, values });
  };
  $('#modal').showModal();
}

// ---- unread: channels and servers with messages since this page last showed them ----

export function paintUnread() {
  for (const b of document.querySelectorAll('#channels button, #dms button')) b.classList.toggle('unread', chat.unread.has(b.dataset.id));
  for (const b of document.querySelectorAll('#servers button')) b.classList.toggle('unread', chat.unread.has(b.dataset.id));
  paintMarkRead();
  paintTitle();
}

// The tab's title counts what waits: rooms with unread messages, and messages that came to the
// open room while the tab was hidden.
function paintTitle() {
  const rooms = [...chat.unread].filter((id) => !chat.servers.some((s) => s.id === id)).length;
  const n = rooms + chat.unseenHere;
  document.title = n ? `(${n}) Praça` : 'Praça';
}

// ---- toasts: what went wrong away from any form, shown where the person looks ----

const TOAST_MS = 8000;
const TOASTS_MAX = 3;
export function toast(err) {
  const box = $('#toasts');
  const note = el('div', { class: 'toast', role: 'alert' }, el('span', { text: err instanceof Error ? err.message : String(err) }));
  const close = () => note.remove();
  note.append(el('button', { type: 'button', class: 'link-button', 'aria-label': 'Fechar aviso', text: '✕', onclick: close }));
  box.append(note);
  while (box.children.length > TOASTS_MAX) box.firstChild.remove();
  setTimeout(close, TOAST_MS);
}

// ---- panels: the server's settings, one's account ----

export function showPanel(id) {
  for (const p of ['#settings', '#account', '#forum', '#room']) $(p).hidden = p !== id;
}

function wirePanels() {
  $('#settings-open').addEventListener('click', async () => {
    go('room');
    $('#settings-error').hidden = true;
    showPanel('#settings');
    await loadSettings().catch((e) => showError($('#settings-error'), e));
  });
  wireSettings();
  $('#settings-close').addEventListener('click', () => showPanel('#room'));
  $('#install').addEventListener('submit', (e) => {
    e.preventDefault();
    let url;
    try {
      url = new URL($('#install-link').value.trim());
    } catch {
      return showError($('#settings-error'), new Error('Isso não é um link.'));
    }
    if (url.origin !== location.origin || url.pathname !== '/oauth2/authorize')
      return showError($('#settings-error'), new Error(`O link de autorização começa com ${location.origin}/oauth2/authorize`));
    location.assign(url.pathname + url.search);
  });
  $('#account-open').addEventListener('click', () => { go('room'); $('#account-error').hidden = true; showPanel('#account'); });
  wireMfa();
  $('#account-close').addEventListener('click', () => showPanel('#room'));
  $('#password-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#account-error').hidden = $('#password-done').hidden = true;
    try {
      const r = await api('POST', '/api/users/@me/password', { currentPassword: $('#current-password').value, newPassword: $('#new-password').value });
      $('#password-form').reset();
      $('#password-done').textContent = `Senha trocada. ${r.revoked} ${r.revoked === 1 ? 'outra sessão foi encerrada' : 'outras sessões foram encerradas'}.`;
      $('#password-done').hidden = false;
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
  $('#logout-everywhere').addEventListener('click', async () => {
    try {
      await api('POST', '/api/auth/logout-everywhere');
      location.assign('/login');
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
}

// ---- live ----

// Something in a server changed: the open one is read again (a channel I no longer see closes),
// another one only renamed in the list.
// SERVER_UPDATE: what changed is read again, in one request; never the whole server.
async function serverChanged({ serverId: sid, changed }) {
  if (sid !== chat.sid) {
    if (changed === 'server') loadServers().catch(() => {}); // its name in the list
    return;
  }
  const generation = ++chat.loads;
  try {
    if (changed === 'members') {
      const { members } = await api('GET', `/api/servers/${sid}/members`);
      if (sid !== chat.sid || generation !== chat.loads) return;
      applyMembers(members);
    } else {
      const tree = await api('GET', `/api/servers/${sid}?threads=1`);
      if (sid !== chat.sid || generation !== chat.loads) return;
      applyTree(tree);
      const listed = chat.servers.find((x) => x.id === sid);
      if (listed && listed.name !== tree.server.name) {
        listed.name = tree.server.name;
        paintServers();
      }
    }
    paintServer();
    if (chat.cid && !roomOf(chat.cid).room) {
      chat.cid = null;
      if (chat.channels.length) await openChannel(chat.channels[0].id);
      else $('#messages').replaceChildren();
    } else {
      for (const m of chat.messages.values()) showMessage(m); // actions follow my permissions
    }
    if (!$('#settings').hidden) await loadSettings();
  } catch (e) {
    if (e.status === 403 || e.status === 404) location.assign('/app'); // I am no longer there
    else toast(e);
  }
}

function connectLive() {
  chat.gateway = new Gateway()
    .on('connect', () => {
      $('#live').textContent = 'ao vivo';
      $('#live').classList.add('on');
      chat.live = true;
      if (chat.sid) paintPeople();
    })
    .on('disconnect', () => { $('#live').textContent = 'reconectando…'; $('#live').classList.remove('on'); chat.live = false; })
    // Back after a drop: what came meanwhile was replayed; when it could not be, the open room
    // is read again so nothing is missing.
    .on('resumed', (resumed) => { if (!resumed) refreshRoom(); })
    .on('EVENTS_GAP', () => refreshRoom())
    .on('MESSAGE_CREATE', (m) => {
      typingStopped(m.fromId);
      if (m.applicationId && m.commandInvokerId === chat.me.id) answered(m.applicationId, null);
      if (!m.serverId) dmArrived(m);
      notifyArrived(m);
      const where = messageArrived(m);
      if (where === 'unread') paintUnread();
      if (where === 'here') {
        // Away from the tab: the line marks where reading stopped.
        if (document.hidden && m.fromId !== chat.me.id && !chat.newAfter && !chat.messages.has(m.id)) chat.newAfter = lastShownId();
        showMessage(m);
        markRead(chat.cid, m.id);
        if (document.hidden && m.fromId !== chat.me.id) {
          chat.unseenHere++;
          paintTitle();
        }
      }
    })
    .on('MESSAGE_UPDATE', (m) => { if (messageEdited(m)) showMessage(m); })
    .on('MESSAGE_DELETE', (m) => forget(m.id))
    .on('MESSAGE_REACTIONS_UPDATE', (r) => {
      const m = reactionApplied(r);
      if (m) showMessage(m);
    })
    .on('CHANNEL_PINS_UPDATE', (p) => {
      const m = pinApplied(p);
      if (m) showMessage(m);
      pinsChanged(p);
    })
    .on('SERVER_UPDATE', serverChanged)
    .on('GUILD_MEMBER_ADD', memberJoined)
    .on('GUILD_MEMBER_REMOVE', memberLeft)
    .on('INTERACTION_MODAL', (m) => { answered(m.applicationId, m.interactionId); openModal(m); })
    .on('PRESENCE_UPDATE', presenceChanged)
    .on('TYPING_START', typingArrived)
    .on('channel_voice:participants_update', (u) => { if (voiceApplied(u)) paintVoice(u.channelId); });
  chat.gateway.open();
}

async function main() {
  chat.me = await requireSession();
  $('#who').textContent = chat.me.displayName || chat.me.username;
  $('#logout').addEventListener('click', async () => {
    await api('POST', '/api/auth/logout').catch(() => {});
    location.assign('/login');
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) return;
    chat.unseenHere = 0;
    paintTitle();
  });
  $('#composer').addEventListener('submit', send);
  $('#pins-open').addEventListener('click', () => togglePins());
  $('#server-read').addEventListener('click', () => markServerRead(chat.sid));
  $('#reply-cancel').addEventListener('click', stopReply);
  $('#text').addEventListener('keydown', paletteKey); // first: its keys are not the composer's
  $('#text').addEventListener('input', paintPalette);
  $('#text').addEventListener('blur', () => { $('#palette').hidden = true; });
  $('#text').addEventListener('focus', paintPalette);
  $('#text').addEventListener('keydown', (e) => { if (e.key === 'Escape' && chat.replyTo) stopReply(); });
  $('#forum-form').addEventListener('submit', postInForum);
  $('#text').addEventListener('input', suggestMentions);
  $('#text').addEventListener('input', typingSaid);
  $('#rules-accept').addEventListener('click', async () => {
    try {
      await api('POST', `/api/servers/${chat.sid}/rules/accept`);
      $('#rules').hidden = true;
      await send(new Event('submit'));
    } catch (e) {
      showError($('#send-error'), e);
    }
  });
  $('#messages').addEventListener('scroll', () => { if ($('#messages').scrollTop < 80) loadOlder(); });
  $('#text').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) send(e);
    if (e.key === 'ArrowUp' && !$('#text').value) editLastOwn(e);
  });
  $('#modal-cancel').addEventListener('click', () => $('#modal').close());
  $('#create-server').addEventListener('submit', async (e) => {
    e.preventDefault();
    const { server } = await api('POST', '/api/servers', { name: $('#server-name').value }).catch((err) => { toast(err); return {}; });
    if (!server) return;
    $('#server-name').value = '';
    await openServer(server.id);
  });
  $('#join').addEventListener('submit', async (e) => {
    e.preventDefault();
    const code = $('#invite-code').value.trim().replace(/^.*\/invite\//, '');
    const joined = await api('POST', `/api/invites/${encodeURIComponent(code)}/join`).catch((err) => { toast(err); return null; });
    if (!joined) return;
    $('#invite-code').value = '';
    await openServer(joined.server.id);
  });
  $('#invite-make').addEventListener('click', async () => {
    try {
      const { code } = await api('POST', `/api/servers/${chat.sid}/invites`, {});
      $('#invite-link').textContent = `${location.origin}/invite/${code}`;
      $('#invite-box').hidden = false;
      if (!$('#invites-settings').hidden && !$('#settings').hidden) await loadInvites();
    } catch (err) {
      toast(err);
    }
  });
  $('#invite-copy').addEventListener('click', (e) => copyText($('#invite-link').textContent, e.target));
  wirePanels();
  wireScreens();
  wireNotify();
  connectLive();
  await Promise.all([loadServers(), loadDms()]);
  await loadUnread().catch((e) => toast(e));
  const hash = new URLSearchParams(location.hash.slice(1));
  const first = chat.servers.find((s) => s.id === hash.get('server')) || chat.servers[0];
  if (hash.get('dm') && chat.dms.some((d) => d.id === hash.get('dm'))) await openDm(hash.get('dm'));
  else if (first) {
    await openServer(first.id);
    if (hash.get('channel') && roomOf(hash.get('channel')).room) await openChannel(hash.get('channel'));
  }
  // The page opens in the room it shows (on a phone too), with the levels above it to go back to.
  if (chat.cid && !chat.dm) go('channels');
  if (chat.cid) go('room');
}

// The page's state and one of its actions, for the browser's console and the page's tests.
window.praca = { chat, startReply };

main().catch((e) => toast(e));
