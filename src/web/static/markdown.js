// Markdown as Discord renders it, for message text: **bold**, *italic* or _italic_, __underline__,
// ~~strikethrough~~, ||spoiler||, `code`, ``` code blocks ```, > quotes (>>> quotes the rest),
// # headings, - and 1. lists, links (bare or [masked](https://…), http and https only) and
// @mentions, :shortcodes: of emoji and a server's own emoji (<:nome:id>, <a:nome:id> animated). parseMarkdown turns text into a small tree with no I/O (tests run it in Node);
// markdownNodes builds DOM nodes from it with createElement and text nodes only: whatever anyone
// writes is never parsed as HTML.
import { $, el } from './common.js';
import { SHORTCODES } from './emoji-names.js';
import { t } from './i18n.js';

const MD_DEPTH_MAX = 8; // nesting beyond this stays text
const MD_INLINE = [ // longest first: ** before *
  ['**', 'b'], ['__', 'u'], ['~~', 's'], ['||', 'spoiler'], ['`', 'code'], ['*', 'i'], ['_', 'i'],
];
const MD_URL = /^https?:\/\/[^\s<>]+[^\s<>.,:;"')\]!?]/;
const MD_MASKED = /^\[([^\]\n]{1,200})\]\((https?:\/\/[^\s()<>]{1,2000})\)/;
const MD_MENTION = /^@([a-z0-9_.]{2,32})/;
const MD_SHORTCODE = /^:([a-z0-9_+-]{1,32}):/;
const MD_CUSTOM_EMOJI = /^<(a?):([a-z0-9_]{2,32}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/;
const CUSTOM_EMOJI_ALL = new RegExp(MD_CUSTOM_EMOJI.source.slice(1), 'g');
const EMOJI_ONLY = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|[\u200d\ufe0f\u20e3\s]|[#*0-9]\ufe0f?\u20e3)*$/u;
const JUMBO_MAX = 27; // emoji in a message drawn large, as Discord draws them

// Whether a message is only emoji (Unicode or a server's own), at most JUMBO_MAX of them: drawn
// larger, as Discord does.
export function emojiOnly(text) {
  const s = String(text || '');
  const custom = (s.match(CUSTOM_EMOJI_ALL) || []).length;
  const rest = s.replace(CUSTOM_EMOJI_ALL, '');
  const pictographs = (rest.match(/\p{Extended_Pictographic}|\p{Regional_Indicator}{2}|[#*0-9]\ufe0f?\u20e3/gu) || []).length;
  return custom + pictographs > 0 && custom + pictographs <= JUMBO_MAX && EMOJI_ONLY.test(rest);
}

function mdSafeHref(href) {
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch (_) {
    return null;
  }
}

// Inline spans of one line (or one code-free run): a list of nodes.
function mdInline(text, depth = 0) {
  const out = [];
  let plain = '';
  const flush = () => { if (plain) out.push({ t: 'text', v: plain }); plain = ''; };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    if (text[i] === '\\' && i + 1 < text.length && /[*_~|`\\[\]>#@-]/.test(text[i + 1])) { // an escape
      plain += text[i + 1];
      i += 2;
      continue;
    }
    let m;
    if (text[i] === '[' && (m = MD_MASKED.exec(rest)) && mdSafeHref(m[2])) {
      flush();
      out.push({ t: 'link', href: mdSafeHref(m[2]), c: depth < MD_DEPTH_MAX ? mdInline(m[1], depth + 1) : [{ t: 'text', v: m[1] }] });
      i += m[0].length;
      continue;
    }
    if (text[i] === 'h' && (m = MD_URL.exec(rest)) && mdSafeHref(m[0])) {
      flush();
      out.push({ t: 'link', href: mdSafeHref(m[0]), c: [{ t: 'text', v: m[0] }] });
      i += m[0].length;
      continue;
    }
    if (text[i] === '@' && (i === 0 || /\s/.test(text[i - 1])) && (m = MD_MENTION.exec(rest))) {
      flush();
      out.push({ t: 'mention', v: m[1] });
      i += m[0].length;
      continue;
    }
    if (text[i] === '<' && (m = MD_CUSTOM_EMOJI.exec(rest))) {
      flush();
      out.push({ t: 'emoji', animated: m[1] === 'a', name: m[2], id: m[3] });
      i += m[0].length;
      continue;
    }
    if (text[i] === ':' && (m = MD_SHORTCODE.exec(rest)) && SHORTCODES.has(m[1])) { // :joinha: → 👍
      plain += SHORTCODES.get(m[1]);
      i += m[0].length;
      continue;
    }
    if (text.startsWith('```', i)) { // a fence that did not make a block stays as written
      plain += '```';
      i += 3;
      continue;
    }
    let matched = false;
    for (const [mark, kind] of MD_INLINE) {
      if (!text.startsWith(mark, i)) continue;
      // The closing mark, with something between: `*` alone or `****` stay text.
      const close = text.indexOf(mark, i + mark.length + 1);
      if (close < 0) continue;
      const inner = text.slice(i + mark.length, close);
      if (kind !== 'code' && (/^\s/.test(inner) || /\s$/.test(inner))) continue;
      flush();
      if (kind === 'code') out.push({ t: 'code', v: inner });
      else out.push({ t: kind, c: depth < MD_DEPTH_MAX ? mdInline(inner, depth + 1) : [{ t: 'text', v: inner }] });
      i = close + mark.length;
      matched = true;
      break;
    }
    if (matched) continue;
    plain += text[i];
    i++;
  }
  flush();
  return out;
}

// Blocks: code fences first (their text is never parsed), then quotes, headings, lists and
// paragraphs, line by line.
export function parseMarkdown(text) {
  const lines = String(text).split('\n');
  const blocks = [];
  let para = null;
  const endPara = () => { para = null; };
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (line.startsWith('```')) {
      const end = lines.findIndex((l, k) => k > n && l.trimEnd() === '```');
      if (end > n) { // an unclosed fence is text, as Discord shows it
        endPara();
        blocks.push({ t: 'pre', lang: line.slice(3).trim().slice(0, 20), v: lines.slice(n + 1, end).join('\n') });
        n = end;
        continue;
      }
    }
    if (line.startsWith('>>> ')) {
      endPara();
      blocks.push({ t: 'quote', c: parseMarkdown([line.slice(4), ...lines.slice(n + 1)].join('\n')).filter((b) => b.t !== 'quote') });
      break;
    }
    let m;
    if (line.startsWith('> ') || line === '>') {
      endPara();
      const last = blocks[blocks.length - 1];
      const body = { t: 'p', c: mdInline(line.slice(2)) }; // quotes do not nest
      if (last && last.t === 'quote' && last.open) last.c.push(body);
      else blocks.push({ t: 'quote', open: true, c: [body] });
      continue;
    }
    if ((m = /^(#{1,3}) (\S.*)$/.exec(line))) {
      endPara();
      blocks.push({ t: 'h', level: m[1].length, c: mdInline(m[2]) });
      continue;
    }
    if ((m = /^(?:[-*]|(\d{1,3})\.) (.*)$/.exec(line))) {
      endPara();
      const kind = m[1] ? 'ol' : 'ul';
      const last = blocks[blocks.length - 1];
      if (last && last.t === kind) last.items.push(mdInline(m[2]));
      else blocks.push({ t: kind, start: m[1] ? Number(m[1]) : 1, items: [mdInline(m[2])] });
      continue;
    }
    if (!para) {
      para = { t: 'p', c: [] };
      blocks.push(para);
    } else {
      para.c.push({ t: 'br' });
    }
    para.c.push(...mdInline(line));
  }
  for (const b of blocks) delete b.open;
  return blocks;
}

// A server's own emoji: its picture, or ":nome:" when it is gone (deleted) or cannot be read.
export function customEmojiImage(id, name) {
  const label = `:${name}:`;
  const img = el('img', { class: 'custom-emoji', src: `/api/emojis/${encodeURIComponent(id)}/image`, alt: label, title: label, draggable: 'false' });
  img.addEventListener('error', () => img.replaceWith(document.createTextNode(label)));
  return img;
}

// DOM nodes for the tree. mentionOf(username) → {label, self} for a known person, else null.
// emojiNode(id, name) draws a server's own emoji (the page's own knowledge of it: a deleted one
// by its name), its picture by default.
export function markdownNodes(blocks, mentionOf = () => null, emojiNode = customEmojiImage) {
  const inline = (nodes) => nodes.map((x) => {
    switch (x.t) {
    case 'text': return document.createTextNode(x.v);
    case 'br': return document.createElement('br');
    case 'code': return el('code', { text: x.v });
    case 'b': return el('strong', {}, ...inline(x.c));
    case 'i': return el('em', {}, ...inline(x.c));
    case 'u': return el('u', {}, ...inline(x.c));
    case 's': return el('s', {}, ...inline(x.c));
    case 'spoiler': {
      // Named by its own text (WCAG's label in name); the title says what a click does.
      const s = el('span', { class: 'spoiler', tabindex: '0', role: 'button', 'aria-expanded': 'false', title: t('spoiler.title') }, ...inline(x.c));
      const show = () => { s.classList.add('shown'); s.removeAttribute('role'); s.removeAttribute('aria-expanded'); s.removeAttribute('tabindex'); };
      s.addEventListener('click', show);
      s.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') show(); });
      return s;
    }
    case 'link': return el('a', { href: x.href, target: '_blank', rel: 'noopener noreferrer nofollow' }, ...inline(x.c));
    case 'emoji': return emojiNode(x.id, x.name);
    case 'mention': {
      const who = mentionOf(x.v);
      return who ? el('span', { class: who.self ? 'mention self' : 'mention', text: `@${who.label}` }) : document.createTextNode(`@${x.v}`);
    }
    default: return document.createTextNode('');
    }
  });
  return blocks.map((b) => {
    switch (b.t) {
    case 'pre': return el('pre', { class: 'code-block' }, el('code', { text: b.v }));
    case 'quote': return el('blockquote', {}, ...markdownNodes(b.c, mentionOf, emojiNode));
    case 'h': return el(`h${b.level + 2}`, { class: 'md-heading' }, ...inline(b.c));
    case 'ul': return el('ul', {}, ...b.items.map((it) => el('li', {}, ...inline(it))));
    case 'ol': return el('ol', { start: String(b.start) }, ...b.items.map((it) => el('li', {}, ...inline(it))));
    default: return el('p', {}, ...inline(b.c));
    }
  });
}
