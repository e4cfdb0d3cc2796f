// The person's servers and the open one: its tree and members read, its header and channels
// painted with what one may do there, and what holds one back from speaking (the verification
// level, a timeout).
import { provide } from './chat-actions.js';
import { channelGroups, isFolded, setFolded, wireChannelDrag } from './chat-categories.js';
import { avatar } from './chat-flow.js';
import { openForum } from './chat-forum.js';
import { paintThreadChips } from './chat-messages.js';
import { paintMutes } from './chat-notify-settings.js';
import { paintPeople } from './chat-people.js';
import { basePermissions, channelPermissions, PERM } from './chat-perms.js';
import { paintUnread } from './chat-read.js';
import { openChannel, openPanel } from './chat-room.js';
import { go } from './chat-screens.js';
import { repaintSearch } from './chat-search.js';
import { applyMembers, applyTree, chat, commandsRead, permissionsFound, roomOf, serverOpened, serversRead, timedOutUntil } from './chat-store.js';
import { closeThread } from './chat-thread.js';
import { tellViewing } from './chat-typing.js';
import { showPanel, toast, view } from './chat-ui.js';
import { loadVoice, voiceChannel } from './chat-voice.js';
import { $, api, el } from './common.js';
import { locale, t } from './i18n.js';

export async function loadServers() {
  serversRead((await api('GET', '/api/servers')).servers);
  paintServers();
}

// Each server with its icon (or its initials on a colour of its own) and its name.
export function paintServers() {
  $('#servers').replaceChildren(...chat.servers.map((s) => el('li', {}, el('button', {
    type: 'button', class: 'server', title: s.name, 'data-id': s.id,
    'aria-current': s.id === chat.sid ? 'true' : false, onclick: () => { go('channels'); openServer(s.id).catch(toast); },
  }, s.iconUrl ? el('img', { class: 'server-mark', src: s.iconUrl, alt: '' }) : avatar(s.id, s.name, 'server-mark'),
  el('span', { class: 'server-name', text: s.name })))));
}

// My timeout in the open server, said above the composer.
function paintTimeout() {
  const until = timedOutUntil();
  $('#timeout').hidden = !until;
  $('#timeout').textContent = until
    ? t(chat.mine.timeoutReason ? 'timeout.until.why' : 'timeout.until', { when: until.toLocaleString(locale()), why: chat.mine.timeoutReason })
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
  $('#server-notify').hidden = false;
  paintChannels(chat.allChannels);
  paintPeople();
  repaintSearch();
  permissionsFound(channelPermissions(server, roles, mine, roomOf(chat.cid).parent));
}

// The open server, read whole when it is opened. Returns false when a later read has started
// (or another server opened): that one applies.
// The open server read again. A read overtaken by a newer one (the SERVER_UPDATE that a change
// made here brings, before or after the change's own answer, may read only the members) is made
// again, so what the caller does next finds the whole server as it is now. False when another
// server was opened meanwhile.
export async function loadServer(sid) {
  for (let tries = 0; tries < 3; tries++) {
    if (await readServer(sid)) return true;
    if (sid !== chat.sid) return false;
  }
  return false;
}

async function readServer(sid) {
  const generation = ++view.loads;
  const [tree, { members }, { commands }] = await Promise.all([
    api('GET', `/api/servers/${sid}?threads=1`), api('GET', `/api/servers/${sid}/members`), api('GET', `/api/servers/${sid}/commands`)]);
  if (sid !== chat.sid || generation !== view.loads) return false;
  commandsRead(commands);
  applyTree(tree);
  applyMembers(members);
  await loadVoice(sid, tree.channels);
  if (sid !== chat.sid || generation !== view.loads) return false;
  paintServer();
  paintThreadChips();
  return true;
}

// The server's verification level, as the API applies it to a message (docs/api.md): what keeps
// me from speaking, said before I try, and looked at again when a wait ends.
const ACCOUNT_WAIT_MS = 5 * 60 * 1000;

const MEMBER_WAIT_MS = 10 * 60 * 1000;

export function paintVerificationHold() {
  clearTimeout(view.holdTimer);
  const { server, mine, me } = chat;
  const level = server ? server.verificationLevel : 0;
  let text = '';
  if (server && mine && server.ownerId !== me.id && level > 0) {
    const until = Math.max(level >= 1 ? Date.parse(me.createdAt) + ACCOUNT_WAIT_MS : 0,
                           level >= 2 ? Date.parse(mine.joinedAt) + MEMBER_WAIT_MS : 0);
    if (until > Date.now()) {
      text = t(level >= 2 ? 'hold.members' : 'hold.accounts', { when: new Date(until).toLocaleTimeString(locale()) });
      view.holdTimer = setTimeout(paintVerificationHold, until - Date.now() + 500);
    } else if (level >= 3 && !me.mfaEnabled) {
      text = t('hold.mfa');
    }
  }
  $('#verification-hold').textContent = text;
  $('#verification-hold').hidden = !text;
}

// Text channels open; voice channels show who is in them, with a way in and out; forums are
// listed for what they are.
const CHANNEL_GROUPS = [[t('channels.text'), 'text'], [t('channels.forum'), 'forum'], [t('channels.voice'), 'voice']];

function paintChannels(channels) {
  const room = (c, text) => el('button', { type: 'button', class: c.type === 'thread' ? 'channel thread' : 'channel', text, 'data-id': c.id,
                                          onclick: () => { go('room'); openChannel(c.id).catch(toast); }, 'aria-current': c.id === chat.cid ? 'true' : 'false' });
  const threadsOf = (c) => {
    const mine = chat.threads.filter((x) => x.parentId === c.id);
    return mine.length ? el('ul', { class: 'threads', 'aria-label': t('channels.threads.of', { name: c.name }) }, ...mine.map((x) => el('li', {}, room(x, `↳ ${x.name}`)))) : '';
  };
  const item = (c) => el('li', {}, c.type === 'text'
    ? room(c, `# ${c.name}`)
    : c.type === 'voice' ? voiceChannel(c)
      : el('button', { type: 'button', class: 'channel forum', text: `💬 ${c.name}`, 'data-id': c.id, onclick: () => { go('room'); openForum(c); },
                       'aria-current': c.id === chat.forum ? 'true' : 'false' }),
  c.type === 'text' || c.type === 'forum' ? threadsOf(c) : '');
  if (channels.some((c) => c.type === 'category')) paintCategories(channels, item);
  else {
    // No categories: by type, each in the server's order; a heading once there are two kinds.
    const groups = CHANNEL_GROUPS.map(([title, type]) => [title, channels.filter((c) => c.type === type)]).filter(([, list]) => list.length);
    $('#channels').replaceChildren(...groups.flatMap(([title, list]) => [
      ...(groups.length > 1 ? [el('li', { class: 'channel-group', 'aria-hidden': 'true' }, el('span', { class: 'nav-title', text: title }))] : []),
      ...list.map(item)]));
  }
  paintUnread();
  paintMutes();
}

// In categories, each folded or not for this person (the open room stays in sight); whoever may
// manage channels drags them (chat-categories.js).
function paintCategories(channels, item) {
  const manage = (basePermissions(chat.server, chat.roles, chat.mine) & PERM.GERENCIAR_CANAIS) !== 0;
  const row = (c) => {
    const li = item(c);
    if (manage) Object.assign(li, { draggable: true }).dataset.dragId = c.id;
    return li;
  };
  const rows = [];
  for (const { category, channels: list } of channelGroups(channels)) {
    if (!category) {
      rows.push(...list.map(row));
      continue;
    }
    const folded = isFolded(category.id);
    rows.push(el('li', { class: 'channel-category', 'data-category': category.id },
      el('button', { type: 'button', class: 'category-toggle', 'aria-expanded': String(!folded), title: category.name,
        onclick: () => { setFolded(category.id, !folded); paintChannels(chat.allChannels); } },
      el('span', { class: 'chevron', 'aria-hidden': 'true', text: folded ? '▸' : '▾' }), el('span', { class: 'category-name', text: category.name }))));
    rows.push(...list.filter((c) => !folded || c.id === chat.cid).map(row));
  }
  // Where a channel dragged out of every category goes: shown while dragging, last, so that it
  // moves nothing under the pointer.
  if (manage) rows.push(el('li', { class: 'channel-category loose-drop', 'data-category': '', text: t('channels.no.category') }));
  $('#channels').replaceChildren(...rows);
}

wireChannelDrag($('#channels'), { onError: toast });

// Opens server sid at room `at` when it has one by that ID (a reload restoring where the person
// was), else at its first channel: only the room shown is marked read, never another.
export async function openServer(sid, at = null) {
  closeThread();
  serverOpened(sid);
  tellViewing();
  for (const b of document.querySelectorAll('#dms button')) b.setAttribute('aria-current', 'false');
  $('#text').placeholder = t('app.text.placeholder');
  const panel = openPanel();
  await loadServer(sid);
  $('#invite-box').hidden = true;
  // Settings or Conta opened while this loaded stay open; what was open before goes.
  if (openPanel() === panel) showPanel('#room');
  await loadServers();
  // A room the person opened meanwhile (a click while this loaded) stays open.
  if (chat.sid !== sid || chat.cid || chat.forum) return;
  history.replaceState(history.state, '', `#server=${sid}`);
  const room = at && roomOf(at).room ? at : chat.channels[0]?.id;
  if (room) await openChannel(room, { behind: openPanel() !== '#room' });
}

// A room the page opens: a text channel, or a thread (whose permissions are its parent's).

provide({ loadServer });
