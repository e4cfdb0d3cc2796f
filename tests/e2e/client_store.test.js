// The chat page's store (src/web/static/chat-store.js): each gateway event applied as a change
// to the state the views draw from, and what it says changed. No DOM: it runs here as the page
// runs it, one fresh page per test.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { pageModule } = require('./helpers');

const plain = (v) => JSON.parse(JSON.stringify(v));

// A page whose open server is srv with members ana (me) and bia, and a shown message in #geral.
async function page() {
  const s = await pageModule('chat-store.js', { fresh: true });
  s.meChanged({ id: 'ana' });
  s.serverOpened('srv');
  s.roomOpened('geral');
  s.applyTree({ server: { id: 'srv', name: 'Praça' }, roles: [{ id: 'srv', position: 0 }],
                channels: [{ id: 'geral', type: 'text' }, { id: 'sala', type: 'voice' }, { id: 'ideias', type: 'forum' }],
                threads: [{ id: 't1', parentId: 'geral' }] });
  s.applyMembers([member('ana', 'online'), member('bia', 'offline')]);
  s.messageShown({ id: 'm1', channelId: 'geral', content: 'oi', reactions: [], pinned: false });
  return s;
}
function member(id, status, extra = {}) {
  return { userId: id, status, roleIds: [], nickname: null, user: { id, username: id, displayName: id.toUpperCase() }, ...extra };
}

test('the tree: channels by kind, threads, and an empty participant list for each voice channel', async () => {
  const s = await page();
  assert.deepEqual(s.chat.channels.map((c) => c.id), ['geral']);
  assert.deepEqual(s.chat.parents.map((c) => c.id), ['geral', 'ideias']);
  assert.deepEqual(s.chat.voiceChannels.map((c) => c.id), ['sala']);
  assert.deepEqual(plain([...s.chat.voice]), [['sala', []]]);
  assert.deepEqual(s.chat.threads.map((t) => t.id), ['t1']);
});

test('members: names (nickname first), usernames sorted, my own member, my timeout', async () => {
  const s = await page();
  assert.equal(s.chat.mine.userId, 'ana');
  assert.deepEqual(plain([...s.chat.names]), [['ana', 'ANA'], ['bia', 'BIA']]);
  s.applyMembers([member('ana', 'online', { timeoutUntil: '2999-01-01T00:00:00Z' }), member('bia', 'online', { nickname: 'Bia!' }), member('caio', 'online')]);
  assert.equal(s.chat.names.get('bia'), 'Bia!');
  assert.deepEqual(plain(s.chat.usernames), ['ana', 'bia', 'caio']);
  assert.equal(s.timedOutUntil().toISOString(), '2999-01-01T00:00:00.000Z');
  s.applyMembers([member('ana', 'online', { timeoutUntil: '2000-01-01T00:00:00Z' })]);
  assert.equal(s.timedOutUntil(), null, 'a past timeout is none');
});

test('a join adds one member, keeping a status already known; a leave removes one; another server\'s change nothing', async () => {
  const s = await page();
  assert.equal(s.memberAdded({ serverId: 'srv', ...member('caio', undefined) }), true);
  assert.deepEqual(s.chat.members.map((m) => [m.userId, m.status]), [['ana', 'online'], ['bia', 'offline'], ['caio', 'offline']]);
  assert.equal('serverId' in s.chat.members[2], false);
  s.chat.members[1].status = 'online';
  assert.equal(s.memberAdded({ serverId: 'srv', ...member('bia', undefined, { nickname: 'B' }) }), true, 'a member changed');
  assert.equal(s.chat.members.find((m) => m.userId === 'bia').status, 'online', 'status kept');
  assert.equal(s.chat.names.get('bia'), 'B');
  assert.equal(s.memberAdded({ serverId: 'outro', ...member('dani', 'online') }), false);
  assert.equal(s.memberAdded({ serverId: 'outro', ...member('ana', 'online') }), 'mine-elsewhere', 'I joined elsewhere: the server list is read again');
  assert.equal(s.memberRemoved({ serverId: 'srv', userId: 'caio' }), true);
  assert.equal(s.memberRemoved({ serverId: 'srv', userId: 'caio' }), false, 'gone already');
  assert.equal(s.memberRemoved({ serverId: 'outro', userId: 'bia' }), false);
  assert.deepEqual(s.chat.members.map((m) => m.userId), ['ana', 'bia']);
});

test('presence changes one member\'s status; the same status or a stranger is no change', async () => {
  const s = await page();
  assert.equal(s.presenceApplied({ userId: 'bia', status: 'idle' }), true);
  assert.equal(s.chat.members[1].status, 'idle');
  assert.equal(s.presenceApplied({ userId: 'bia', status: 'idle' }), false);
  assert.equal(s.presenceApplied({ userId: 'zeca', status: 'online' }), false);
});

test('reactions: the count is the server\'s, my part follows the event; a reaction elsewhere changes nothing', async () => {
  const s = await page();
  const r = (extra) => ({ messageId: 'm1', channelId: 'geral', emoji: '👍', customEmojiId: null, ...extra });
  assert.deepEqual(plain(s.reactionApplied(r({ userId: 'bia', count: 1, added: true })).reactions), [{ emoji: '👍', customEmojiId: null, count: 1, userIds: ['bia'] }]);
  s.reactionApplied(r({ userId: 'ana', count: 2, added: true }));
  s.reactionApplied(r({ emoji: null, customEmojiId: 'festa', userId: 'ana', count: 1, added: true }));
  assert.deepEqual(plain(s.chat.messages.get('m1').reactions), [
    { emoji: '👍', customEmojiId: null, count: 2, userIds: ['bia', 'ana'] }, { emoji: null, customEmojiId: 'festa', count: 1, userIds: ['ana'] }]);
  s.reactionApplied(r({ userId: 'bia', count: 1, added: false }));
  s.reactionApplied(r({ emoji: null, customEmojiId: 'festa', userId: 'ana', count: 0, added: false }));
  assert.deepEqual(plain(s.chat.messages.get('m1').reactions), [{ emoji: '👍', customEmojiId: null, count: 1, userIds: ['ana'] }], 'a count of 0 goes');
  assert.equal(s.reactionApplied(r({ messageId: 'nada', userId: 'bia', count: 1, added: true })), null);
  assert.equal(s.reactionApplied(r({ channelId: 'outro', userId: 'bia', count: 1, added: true })), null);
});

test('pins change one shown message', async () => {
  const s = await page();
  assert.equal(s.pinApplied({ messageId: 'm1', channelId: 'geral', pinned: true }).pinned, true);
  assert.equal(s.chat.messages.get('m1').pinned, true);
  assert.equal(s.pinApplied({ messageId: 'm9', channelId: 'geral', pinned: true }), null);
});

test('a message: here in the open room; elsewhere it marks its room and server unread, never for my own', async () => {
  const s = await page();
  assert.equal(s.messageArrived({ id: 'm2', serverId: 'srv', channelId: 'geral', fromId: 'bia' }), 'here');
  assert.equal(s.messageArrived({ id: 'm3', serverId: 'srv', channelId: 'geral', threadId: 't1', fromId: 'bia' }), 'unread');
  assert.deepEqual(plain([...s.chat.unread]), ['t1'], 'the open server is not marked');
  assert.deepEqual(plain(s.chat.newest.get('t1')), { serverId: 'srv', id: 'm3' });
  assert.equal(s.messageArrived({ id: 'm4', serverId: 'outro', channelId: 'c9', fromId: 'bia' }), 'unread');
  assert.equal(s.messageArrived({ id: 'm5', serverId: null, channelId: 'dm1', fromId: 'bia' }), 'unread');
  assert.deepEqual(plain([...s.chat.unread]), ['t1', 'c9', 'outro', 'dm1']);
  assert.equal(s.messageArrived({ id: 'm6', serverId: 'outro', channelId: 'c8', fromId: 'ana' }), 'mine');
  assert.equal(s.chat.unread.has('c8'), false);
});

test('an edit replaces a shown message only; a deletion forgets it once', async () => {
  const s = await page();
  assert.equal(s.messageEdited({ id: 'm1', channelId: 'geral', content: 'olá' }), true);
  assert.equal(s.chat.messages.get('m1').content, 'olá');
  assert.equal(s.messageEdited({ id: 'm7', channelId: 'geral', content: 'x' }), false, 'not shown: not drawn');
  assert.equal(s.messageEdited({ id: 'm1', channelId: 'outro', content: 'x' }), false);
  assert.equal(s.messageRemoved('m1'), true);
  assert.equal(s.messageRemoved('m1'), false);
});

test('voice participants of the open server\'s channels only', async () => {
  const s = await page();
  assert.equal(s.voiceApplied({ serverId: 'srv', channelId: 'sala', participants: [{ userId: 'bia' }] }), true);
  assert.deepEqual(plain(s.chat.voice.get('sala')), [{ userId: 'bia' }]);
  assert.equal(s.voiceApplied({ serverId: 'outro', channelId: 'x', participants: [] }), false);
  assert.equal(s.chat.voice.has('x'), false);
});

test('a thread beside the room: its messages kept apart, its events change them, the room\'s stay; a new room closes it', async () => {
  const s = await page();
  s.besideOpened('t1', [{ id: 'b1', channelId: 'geral', threadId: 't1', content: 'na thread', reactions: [] }]);
  assert.equal(s.isBeside({ id: 'b1', channelId: 'geral', threadId: 't1' }), true);
  assert.equal(s.isBeside({ id: 'm1', channelId: 'geral', threadId: null }), false);
  assert.equal(s.messageArrived({ id: 'b2', channelId: 'geral', threadId: 't1', fromId: 'bia', serverId: 'srv' }), 'beside');
  assert.equal(s.chat.unread.has('t1'), false, 'read while it is beside');
  s.messageShown({ id: 'b2', channelId: 'geral', threadId: 't1', content: 'mais', reactions: [] });
  assert.deepEqual([...s.chat.beside.messages.keys()], ['b1', 'b2']);
  assert.deepEqual([...s.chat.messages.keys()], ['m1'], 'the room keeps its own');
  const r = s.reactionApplied({ channelId: 't1', messageId: 'b1', emoji: '👍', count: 1, userId: 'bia', added: true });
  assert.deepEqual(plain(r.reactions), [{ emoji: '👍', customEmojiId: undefined, count: 1, userIds: ['bia'] }].map(plain));
  assert.equal(s.pinApplied({ channelId: 't1', messageId: 'b2', pinned: true }).pinned, true);
  assert.equal(s.messageEdited({ id: 'b1', channelId: 'geral', threadId: 't1', content: 'editada' }), true);
  assert.equal(s.chat.beside.messages.get('b1').content, 'editada');
  assert.equal(s.messageRemoved('b2'), true);
  assert.equal(s.messageRemoved('b2'), false, 'once');
  s.roomOpened('geral');
  s.serverOpened('srv');
  assert.equal(s.chat.beside, null, 'another server (or room) closes it');
});

test('a group conversation: its people name its authors, and a change to it renames them in place', async () => {
  const s = await page();
  const d = { id: 'g1', group: true, name: 'Praia', people: [{ id: 'bia', username: 'bia', avatarUrl: '/f/bia' }, { id: 'caio', username: 'caio', avatarUrl: null }] };
  s.dmsRead([d]);
  assert.equal(s.chat.faces.get('bia'), '/f/bia', 'the group\'s pictures are known');
  s.dmOpened(d, [{ id: 'bia', name: 'Bia' }, { id: 'caio', name: 'Caio' }]);
  assert.deepEqual(plain([...s.chat.names]).map(([id, name]) => (id === 'ana' ? id : name)), ['ana', 'Bia', 'Caio']);
  s.dmChanged({ ...d, people: [d.people[0]] }, [{ id: 'bia', name: 'Bia' }]);
  assert.deepEqual(plain([...s.chat.names]).map(([id]) => id), ['ana', 'bia'], 'who left names no one');
  assert.equal(s.chat.cid, 'g1');
});
