// Read state kept on the server: what is unread when the page opens, and the person's mark moved
// as they read (a room opened, a message arriving in the open room), at most once a second.
'use strict';

const READ_EVERY_MS = 1000;
const reading = { timer: 0, pending: new Map() }; // room id → the newest message seen there

async function loadUnread() {
  const { unread } = await api('GET', '/api/users/@me/unread');
  for (const u of unread) {
    chat.readMarks.set(u.channelId, u.lastReadId);
    if (u.channelId === chat.cid) continue;
    chat.unread.add(u.channelId);
    if (u.serverId && u.serverId !== chat.sid) chat.unread.add(u.serverId);
  }
  paintUnread();
}

function markRead(cid, messageId) {
  if (!cid || !messageId) return;
  chat.readMarks.set(cid, messageId);
  reading.pending.set(cid, messageId);
  if (!reading.timer) reading.timer = setTimeout(sendMarks, READ_EVERY_MS);
}

async function sendMarks() {
  reading.timer = 0;
  const marks = [...reading.pending];
  reading.pending.clear();
  for (const [cid, messageId] of marks)
    await api('PUT', `/api/users/@me/read-states/${cid}`, { messageId }).catch(() => {}); // the next read tries again
}
