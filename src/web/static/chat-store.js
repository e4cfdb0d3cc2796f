// The chat page's state, and each gateway event applied to it as a change: a join adds one
// member, a reaction changes one message, a message elsewhere marks one room unread. Nothing
// here touches the page; each function says what changed so the views redraw only that. The
// page's tests run this file in Node, event by event. This file is the only writer of `chat`
// (make lint checks it: scripts/check-page-store.py); what the views keep for themselves (the
// connection, the reply being written, a timer) is `view`, in chat-ui.js.

export const chat = {
  me: null,
  servers: [],
  sid: null,
  channels: [],
  allChannels: [], // the open server's channels of every kind, as read
  cid: null,
  names: new Map(), // user id → shown name, for the open server
  commands: [],
  oldest: null, // the oldest message shown, for paging back
  hasMore: false,
  unread: new Set(), // channel and server ids with messages not seen on this page
  mentions: new Map(), // room id → {serverId, count}: mentions of me there since my mark (DMs: every message)
  server: null,
  roles: [],
  members: [],
  mine: null, // my member object in the open server
  perms: 0, // what I may do in the open channel (chat-perms.js)
  messages: new Map(), // id → message shown, to draw it again when its reactions change
  usernames: [], // of the open server's members, for @ suggestions
  voice: new Map(), // voice channel id → its participants, in the open server
  voiceChannels: [],
  forum: null, // the forum whose posts are shown
  parents: [], // text and forum channels, which may hold threads
  threads: [], // the open server's threads, listed under their parents
  beside: null, // {id, messages: Map}: a thread open beside its channel (from 1100 px)
  dms: [], // my conversations (chat-dms.js)
  dm: null, // the open one, when a DM is open instead of a server's channel
  readMarks: new Map(), // room id → the newest message the person has read there (chat-read.js)
  newest: new Map(), // room id → {serverId, id}: the newest message by someone else known there
  blocked: new Set(), // user ids I blocked: their messages collapsed, no notification from them
  notify: new Map(), // server or channel id → my notification setting there, when not the defaults
  faces: new Map(), // user id → picture URL, from the members, DMs and myself the page has read
  outsiders: new Map(), // user id → name of an author who is not a member (left; deleted account)
  imported: new Set(), // user ids of the open server's members an import brought (placeholders)
  emojis: [], // the open server's own emoji, as its tree carries them
  emojiMeta: new Map(), // emoji id → {id, name, animated, url}: another server's, or a deleted one, as read
};

// The pictures of the users an answer carried ({id, avatarUrl}); none drawn initials.
function learnFaces(users) {
  for (const u of users) {
    if (!u || !u.id) continue;
    if (u.avatarUrl) chat.faces.set(u.id, u.avatarUrl);
    else chat.faces.delete(u.id);
  }
}

// The open server's tree as one read answers it (GET /api/servers/:sid?threads=1): the server,
// its channels, their threads and forum posts, its roles.
export function applyTree({ server, channels, roles, threads, emojis }) {
  Object.assign(chat, { server, roles });
  chat.emojis = emojis || [];
  chat.allChannels = channels;
  chat.channels = channels.filter((c) => c.type === 'text');
  chat.parents = channels.filter((c) => c.type === 'text' || c.type === 'forum');
  chat.threads = threads || [];
  chat.voiceChannels = channels.filter((c) => c.type === 'voice');
  for (const c of chat.voiceChannels) if (!chat.voice.has(c.id)) chat.voice.set(c.id, []); // a new one: nobody in it yet
}

// An emoji the page read by its ID (GET /api/emojis/:id): another server's, or a deleted one.
export function emojiLearned(emoji) {
  chat.emojiMeta.set(emoji.id, emoji);
}

// The server's members, as read or as an event changed them: names, one's own standing.
export function applyMembers(members) {
  chat.members = members;
  chat.mine = members.find((m) => m.userId === chat.me.id) || null;
  chat.names = new Map(members.map((m) => [m.user.id, m.nickname || m.user.displayName || m.user.username]));
  chat.usernames = members.map((m) => m.user.username).sort();
  chat.imported = new Set(members.filter((m) => m.user.imported).map((m) => m.userId));
  learnFaces(members.map((m) => m.user));
}

// When I may speak again in the open server, or null when I am not timed out.
export function timedOutUntil(now = new Date()) {
  const mine = chat.mine;
  return mine && mine.timeoutUntil && new Date(mine.timeoutUntil) > now ? new Date(mine.timeoutUntil) : null;
}

// GUILD_MEMBER_ADD: the member in place (its status kept if known). True when it is the open
// server's; 'mine-elsewhere' when I joined another server (another tab did); false otherwise.
export function memberAdded(m) {
  if (m.serverId !== chat.sid) return m.userId === chat.me.id ? 'mine-elsewhere' : false;
  const { serverId, ...member } = m;
  void serverId;
  const known = chat.members.find((x) => x.userId === m.userId);
  applyMembers(chat.members.filter((x) => x.userId !== m.userId).concat({ ...member, status: member.status || (known ? known.status : 'offline') }));
  return true;
}

// GUILD_MEMBER_REMOVE: true when the open server lost the member.
export function memberRemoved(m) {
  if (m.serverId !== chat.sid || !chat.members.some((x) => x.userId === m.userId)) return false;
  applyMembers(chat.members.filter((x) => x.userId !== m.userId));
  return true;
}

// PRESENCE_UPDATE: true when someone of the open server changed status.
export function presenceApplied(u) {
  const m = chat.sid && chat.members.find((x) => x.userId === u.userId);
  if (!m || m.status === u.status) return false;
  m.status = u.status;
  return true;
}

// The list after one person's change, as the event tells it (the count is the server's).
function reactionsAfter(list, r) {
  const same = (x) => (x.emoji || null) === (r.emoji || null) && (x.customEmojiId || null) === (r.customEmojiId || null);
  const users = (x) => (r.added ? [...new Set([...(x.userIds || []), r.userId])] : (x.userIds || []).filter((u) => u !== r.userId));
  const out = list.map((x) => (same(x) ? { ...x, count: r.count, userIds: users(x) } : x));
  if (r.added && !list.some(same)) out.push({ emoji: r.emoji, customEmojiId: r.customEmojiId, count: r.count, userIds: [r.userId] });
  return out.filter((x) => x.count > 0);
}

// The messages shown of room cid: the open room's, the thread's beside it, or none.
function shownIn(cid) {
  if (cid === chat.cid) return chat.messages;
  return chat.beside && cid === chat.beside.id ? chat.beside.messages : null;
}

// Whether message m is shown in the thread beside the room (not in the room itself).
export function isBeside(m) {
  return !!(chat.beside && m.threadId === chat.beside.id && m.threadId !== chat.cid);
}

// MESSAGE_REACTIONS_UPDATE and CHANNEL_PINS_UPDATE change one shown message: the message as it
// is now, or null when it is not shown.
export function reactionApplied(r) {
  const shown = shownIn(r.channelId);
  const m = shown && shown.get(r.messageId);
  if (!m) return null;
  const now = { ...m, reactions: reactionsAfter(m.reactions || [], r) };
  shown.set(now.id, now);
  return now;
}

// Previews that came before their message was shown (a cached link's come at once, while the
// author's own send is still on its way back): kept until it is, a few at most.
const early = new Map();
const EARLY_MAX = 20;

// MESSAGE_PREVIEWS_UPDATE: a message's link previews came (or went).
export function previewsApplied(e) {
  const shown = shownIn(e.channelId);
  const m = shown && shown.get(e.messageId);
  if (!m) {
    early.set(e.messageId, e.previews);
    if (early.size > EARLY_MAX) early.delete(early.keys().next().value);
    return null;
  }
  const now = { ...m, previews: e.previews };
  shown.set(now.id, now);
  return now;
}

// MESSAGE_POLL_UPDATE: the poll's new counts; the person's own choices stay as this page has them.
export function pollApplied(e) {
  const shown = shownIn(e.channelId);
  const m = shown && shown.get(e.messageId);
  if (!m || !m.poll) return null;
  const now = { ...m, poll: { ...e.poll, myVotes: m.poll.myVotes || [] } };
  shown.set(now.id, now);
  return now;
}

export function pinApplied(p) {
  const shown = shownIn(p.channelId);
  const m = shown && shown.get(p.messageId);
  if (!m) return null;
  const now = { ...m, pinned: p.pinned };
  shown.set(now.id, now);
  return now;
}

// MESSAGE_CREATE: 'here' for the open room (the view shows it), 'beside' for the thread open
// beside it, 'unread' when it marks another room (and its server) unread, 'mine' for my own
// elsewhere.
// A message for me: in a DM, any; else by name, @everyone or @here, or a role I hold (known for
// the open server).
export function mentionsMe(m) {
  if (!m.serverId) return true;
  if (m.mentionsEveryone || (m.mentions || []).includes(chat.me.id)) return true;
  const mine = m.serverId === chat.sid && chat.mine ? chat.mine.roleIds || [] : [];
  return (m.mentionedRoleIds || []).some((r) => mine.includes(r));
}

export function messageArrived(m) {
  const room = m.threadId || m.channelId;
  if (room === chat.cid) return 'here';
  if (chat.beside && room === chat.beside.id) return 'beside';
  if (m.fromId === chat.me.id) return 'mine';
  chat.unread.add(room);
  chat.newest.set(room, { serverId: m.serverId, id: m.id });
  if (mentionsMe(m)) {
    const was = chat.mentions.get(room);
    chat.mentions.set(room, { serverId: m.serverId || null, count: (was ? was.count : 0) + 1 });
  }
  if (m.serverId && m.serverId !== chat.sid) chat.unread.add(m.serverId);
  return 'unread';
}

// MESSAGE_UPDATE: true when the message is shown (its new form replaces it).
export function messageEdited(m) {
  const shown = shownIn(m.threadId || m.channelId);
  if (!shown || !shown.has(m.id)) return false;
  shown.set(m.id, m);
  return true;
}

// MESSAGE_DELETE: true when it was shown.
export function messageRemoved(id) {
  const beside = chat.beside ? chat.beside.messages.delete(id) : false;
  return chat.messages.delete(id) || beside;
}

// channel_voice:participants_update: true for a voice channel of the open server.
export function voiceApplied(u) {
  if (u.serverId !== chat.sid) return false;
  chat.voice.set(u.channelId, u.participants);
  return true;
}

// The room a channel ID names (a channel, or a thread with its parent) in the open server.
export function roomOf(cid) {
  const thread = chat.threads.find((t) => t.id === cid);
  const parent = thread ? chat.parents.find((c) => c.id === thread.parentId) : chat.channels.find((c) => c.id === cid);
  return { room: thread || parent, parent };
}

// ---- what the views read or do, recorded ----

export function meChanged(user) {
  chat.me = user;
  learnFaces([user]);
}

export function serversRead(servers) {
  chat.servers = servers;
}

// I left a server (or was removed): it leaves the list and its unread mark.
export function serverLeft(sid) {
  chat.servers = chat.servers.filter((x) => x.id !== sid);
  chat.unread.delete(sid);
}

export function outsiderNamed(userId, name) {
  chat.outsiders.set(userId, name);
}

// Out of a conversation (a group left or removed from): gone from the list at once, so whichever
// of the page and the event says so first tells the person, once.
export function dmForgotten(cid) {
  chat.dms = chat.dms.filter((d) => d.id !== cid);
}

export function dmsRead(dms) {
  chat.dms = dms;
  learnFaces(dms.flatMap((d) => (d.group ? d.people : [{ id: d.userId, avatarUrl: d.avatarUrl }])));
}

// A server opened: no room yet, no DM, no forum.
export function serverOpened(sid) {
  Object.assign(chat, { sid, cid: null, dm: null, forum: null, beside: null });
}

// A DM opened in place of a server: no server's state applies; the names are its people's
// (people: the others, [{id, name}]).
export function dmOpened(d, people) {
  Object.assign(chat, { beside: null, sid: null, cid: d.id, server: null, roles: [], mine: null, commands: [], usernames: [], perms: 0, forum: null });
  dmChanged(d, people);
  roomRead(d.id);
}

// The open DM as read again (a group renamed, someone in or out).
export function dmChanged(d, people) {
  chat.dm = d;
  chat.names = new Map([[chat.me.id, chat.me.displayName || chat.me.username], ...people.map((p) => [p.id, p.name])]);
}

export function forumOpened(id) {
  chat.forum = id;
}

// A room opened: it and its server are no longer unread on this page.
export function roomOpened(cid) {
  chat.cid = cid;
  roomRead(cid);
  chat.unread.delete(chat.sid);
}

export function roomClosed() {
  chat.cid = null;
}

// What I may do in the open room, as chat-perms.js works it out.
export function permissionsFound(perms) {
  chat.perms = perms;
}

export function commandsRead(commands) {
  chat.commands = commands;
}

// A room's newest page, shown in place of what was.
export function historyRead(messages, hasMore) {
  chat.oldest = messages.length ? messages[0].id : null;
  chat.hasMore = hasMore;
  chat.messages = new Map(messages.map((m) => [m.id, m]));
}

// The page before the oldest shown.
export function olderRead(messages, hasMore) {
  for (const m of messages) chat.messages.set(m.id, m);
  chat.hasMore = hasMore;
  if (messages.length) chat.oldest = messages[0].id;
}

export function messageShown(m) {
  const shown = isBeside(m) ? chat.beside.messages : chat.messages;
  // A send's own answer comes without previews (they are read afterwards), sometimes after they
  // came: what came stays, unless its author removed them (flag 4).
  const had = early.get(m.id) || (shown.get(m.id) || {}).previews;
  early.delete(m.id);
  if (had && had.length && !(m.previews && m.previews.length) && !(m.flags & 4)) m.previews = had;
  shown.set(m.id, m);
}

// A thread opened beside its channel (its newest page read), or closed.
export function besideOpened(tid, messages) {
  chat.beside = { id: tid, messages: new Map(messages.map((m) => [m.id, m])) };
  roomRead(tid);
}

export function besideClosed() {
  chat.beside = null;
}

// The oldest shown messages dropped (a long-open page stays small); `oldest` is the first kept.
export function messagesTrimmed(ids, oldest) {
  for (const id of ids) chat.messages.delete(id);
  chat.oldest = oldest;
  chat.hasMore = true;
}

// Who is in each voice channel of the open server, as read; then my own joins and leaves.
export function voiceRead(lists) {
  chat.voice = lists;
}

export function voiceJoined(cid, participants) {
  chat.voice.set(cid, participants);
}

export function voiceLeft(cid) {
  chat.voice.set(cid, (chat.voice.get(cid) || []).filter((p) => p.userId !== chat.me.id));
}

// The read states kept on the server (GET /users/@me/unread): marks, newest messages, and what
// is unread with its mentions, except in the open room.
export function readStatesRead(unread) {
  for (const u of unread) {
    chat.readMarks.set(u.channelId, u.lastReadId);
    chat.newest.set(u.channelId, { serverId: u.serverId, id: u.lastMessageId });
    if (u.channelId === chat.cid) continue;
    if (u.mentionCount) chat.mentions.set(u.channelId, { serverId: u.serverId, count: u.mentionCount });
    chat.unread.add(u.channelId);
    if (u.serverId && u.serverId !== chat.sid) chat.unread.add(u.serverId);
  }
}

export function readMarked(cid, messageId) {
  chat.readMarks.set(cid, messageId);
}

export function roomRead(cid) {
  chat.unread.delete(cid);
  chat.mentions.delete(cid);
}

export function serverRead(sid) {
  chat.unread.delete(sid);
}

export function notifySettingsRead(settings) {
  chat.notify = new Map(Object.entries(settings));
}

export function notifySettingChanged(scope, { level, mutedUntil, suppressEveryone, suppressRoles }) {
  chat.notify.set(scope, { level, mutedUntil, suppressEveryone, suppressRoles });
}

export function blocksRead(userIds) {
  chat.blocked = new Set(userIds);
}

export function blockChanged(userId, on) {
  if (on) chat.blocked.add(userId);
  else chat.blocked.delete(userId);
}
