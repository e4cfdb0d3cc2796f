// A server's own emoji as the page shows them outside text: in reactions (by customEmojiId), in
// the picker's tab and in ":" suggestions. The open server's come with its tree; another
// server's, or a deleted one (shown by its name), are read once by ID.
import { chat, emojiLearned } from './chat-store.js';
import { api } from './common.js';
import { customEmojiImage } from './markdown.js';

const asked = new Set();

// What the page knows of emoji id: {id, name, animated, url (null once deleted)}, or null.
export function customEmoji(id) {
  return chat.emojis.find((e) => e.id === id) || chat.emojiMeta.get(id) || null;
}

// Reads an emoji the page does not know yet, then calls redraw (once per emoji and page).
export function learnEmoji(id, redraw) {
  if (customEmoji(id) || asked.has(id)) return;
  asked.add(id);
  api('GET', `/api/emojis/${encodeURIComponent(id)}`).then(({ emoji }) => { emojiLearned(emoji); redraw(); }).catch(() => {});
}

// Its picture, or ":nome:" when it is deleted (name: what the text called it, while the page
// does not know it yet).
export function customEmojiNode(id, name = '?') {
  const e = customEmoji(id);
  if (e && !e.url) return document.createTextNode(`:${e.name}:`);
  return customEmojiImage(id, e ? e.name : name);
}

// What a message's text writes for it.
export const customEmojiText = (e) => `<${e.animated ? 'a' : ''}:${e.name}:${e.id}>`;
