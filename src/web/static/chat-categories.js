// A server's channels in its categories, as Discord lists them: channels in no category first,
// then each category in its order with its channels (text and forums before voice, each in the
// server's order). A person folds a category for themselves (kept in this browser); whoever may
// manage channels drags one onto another (placed before it, in its category) or onto a category's
// heading (placed last in it), which places the channels of the one or two categories touched
// at once (PATCH /api/servers/:sid/channels).
import { chat } from './chat-store.js';
import { api } from './common.js';

const FOLDED_KEY = 'praca-folded-categories';
const rank = (c) => (c.type === 'voice' ? 1 : 0);
const byOrder = (a, b) => rank(a) - rank(b) || a.position - b.position || (a.id < b.id ? -1 : 1);

// [{category (null for none), channels}] in the order shown.
export function channelGroups(channels) {
  const categories = channels.filter((c) => c.type === 'category').sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  const known = new Set(categories.map((c) => c.id));
  const rooms = channels.filter((c) => c.type !== 'category' && c.type !== 'thread');
  const loose = rooms.filter((c) => !c.parentId || !known.has(c.parentId)).sort(byOrder);
  return [{ category: null, channels: loose },
    ...categories.map((category) => ({ category, channels: rooms.filter((c) => c.parentId === category.id).sort(byOrder) }))];
}

function foldedSet() {
  try {
    const list = JSON.parse(localStorage.getItem(FOLDED_KEY) || '[]');
    return new Set(Array.isArray(list) ? list : []);
  } catch (_) {
    return new Set();
  }
}

export const isFolded = (id) => foldedSet().has(id);

export function setFolded(id, folded) {
  const set = foldedSet();
  if (folded) set.add(id);
  else set.delete(id);
  localStorage.setItem(FOLDED_KEY, JSON.stringify([...set].slice(-200)));
}

// The positions after moving channel id into category to (null: none), before channel before
// (null: last): every channel of the categories it leaves and enters, numbered in order.
export function placement(channels, id, to, before = null) {
  const moving = channels.find((c) => c.id === id);
  if (!moving || moving.type === 'category' || before === id) return [];
  const groups = channelGroups(channels);
  const from = moving.parentId && groups.some((g) => g.category && g.category.id === moving.parentId) ? moving.parentId : null;
  const target = groups.find((g) => (g.category ? g.category.id : null) === to);
  if (!target) return [];
  const list = target.channels.filter((c) => c.id !== id);
  const at = before ? list.findIndex((c) => c.id === before) : -1;
  list.splice(at < 0 ? list.length : at, 0, moving);
  const out = list.map((c, position) => ({ id: c.id, position, ...(c.id === id ? { parentId: to } : {}) }));
  if (from !== to) {
    const left = groups.find((g) => (g.category ? g.category.id : null) === from);
    out.push(...left.channels.filter((c) => c.id !== id).map((c, position) => ({ id: c.id, position })));
  }
  return out;
}

export async function moveChannel(id, to, before = null) {
  const channels = placement(chat.allChannels, id, to, before);
  if (channels.length) await api('PATCH', `/api/servers/${chat.sid}/channels`, { channels });
}

// Dragging in list (the channel list): rows carry data-id; category headings data-category.
export function wireChannelDrag(list, { onError }) {
  let dragged = null;
  list.addEventListener('dragstart', (e) => {
    const row = e.target.closest('[data-drag-id]');
    if (!row) return;
    dragged = row.dataset.dragId;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', dragged);
    row.classList.add('dragging');
    list.classList.add('drag-on');
  });
  list.addEventListener('dragend', (e) => {
    dragged = null;
    e.target.closest('[data-drag-id]')?.classList.remove('dragging');
    list.classList.remove('drag-on');
    for (const x of list.querySelectorAll('.drop-before, .drop-into')) x.classList.remove('drop-before', 'drop-into');
  });
  const targetOf = (e) => e.target.closest('[data-drag-id], [data-category]');
  list.addEventListener('dragover', (e) => {
    const over = dragged && targetOf(e);
    if (!over) return;
    e.preventDefault();
    for (const x of list.querySelectorAll('.drop-before, .drop-into')) x.classList.remove('drop-before', 'drop-into');
    over.classList.add(over.dataset.category !== undefined ? 'drop-into' : 'drop-before');
  });
  list.addEventListener('drop', (e) => {
    const over = dragged && targetOf(e);
    if (!over) return;
    e.preventDefault();
    const id = dragged;
    if (over.dataset.category !== undefined) {
      moveChannel(id, over.dataset.category || null).catch(onError);
    } else {
      const before = chat.allChannels.find((c) => c.id === over.dataset.dragId);
      if (before) moveChannel(id, before.parentId || null, before.id).catch(onError);
    }
  });
}
