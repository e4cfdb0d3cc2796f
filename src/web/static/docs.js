// The API reference as a page: docs/api.md (served at /docs/api.md) rendered here, with the
// contents of its ## and ### headings. What the reference uses of Markdown: headings, paragraphs,
// lists (nested by two spaces), fenced code, tables, `code`, **bold**, *italic* and [links](…).
// Everything is built from text nodes: nothing in the document is read as HTML.
import { $, el } from './common.js';

export function slug(text) {
  return text.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/`/g, '')
    .replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

// Inline text: `code`, **bold**, *italic*, [text](href); the rest as it is.
export function inline(text) {
  const out = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m; (m = re.exec(text));) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    if (m[1] !== undefined) out.push(el('code', { text: m[1] }));
    else if (m[2] !== undefined) out.push(el('strong', {}, ...inline(m[2])));
    else if (m[3] !== undefined) out.push(el('em', {}, ...inline(m[3])));
    else {
      const href = /^(https?:|\/|#|mailto:)/.test(m[5]) ? m[5] : m[5].startsWith('docs/') ? '/docs' : '#';
      out.push(el('a', { href }, ...inline(m[4])));
    }
    last = re.lastIndex;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

function cells(line) {
  return line.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

// Markdown lines → block nodes, and the headings for the contents.
export function render(md) {
  const lines = md.replace(/\r/g, '').split('\n');
  const blocks = [];
  const headings = [];
  const used = new Set();
  let i = 0;
  const isBlockStart = (l) => /^(#{1,6} |```|\||\s*[-*] |\s*\d+\. )/.test(l) || !l.trim();
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const h = /^(#{1,6}) (.*)$/.exec(line);
    if (h) {
      let id = slug(h[2]);
      for (let n = 2; used.has(id); n++) id = `${slug(h[2])}-${n}`;
      used.add(id);
      blocks.push(el(`h${h[1].length}`, { id }, ...inline(h[2])));
      if (h[1].length === 2 || h[1].length === 3) headings.push({ level: h[1].length, id, text: h[2].replace(/`/g, '') });
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) code.push(lines[i]);
      i++;
      blocks.push(el('pre', {}, el('code', { text: code.join('\n') })));
      continue;
    }
    if (line.startsWith('|') && i + 1 < lines.length && /^\|[\s:|-]+\|$/.test(lines[i + 1].trim())) {
      const head = cells(line);
      const table = el('table', {}, el('thead', {}, el('tr', {}, ...head.map((c) => el('th', {}, ...inline(c))))));
      const body = el('tbody');
      for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) body.append(el('tr', {}, ...cells(lines[i]).map((c) => el('td', {}, ...inline(c)))));
      table.append(body);
      blocks.push(table);
      continue;
    }
    if (/^\s*([-*]|\d+\.) /.test(line)) {
      const [list, next] = readList(lines, i, indentOf(line));
      blocks.push(list);
      i = next;
      continue;
    }
    const para = [line.trim()];
    for (i++; i < lines.length && !isBlockStart(lines[i]); i++) para.push(lines[i].trim());
    blocks.push(el('p', {}, ...inline(para.join(' '))));
  }
  return { blocks, headings };
}

function indentOf(line) {
  return line.length - line.trimStart().length;
}

// A list at this indentation: its items (with their continuation lines and nested lists).
function readList(lines, i, indent) {
  const ordered = /^\s*\d+\. /.test(lines[i]);
  const list = el(ordered ? 'ol' : 'ul');
  while (i < lines.length && indentOf(lines[i]) === indent && /^\s*([-*]|\d+\.) /.test(lines[i])) {
    const text = [lines[i].trim().replace(/^([-*]|\d+\.) /, '')];
    const item = el('li');
    for (i++; i < lines.length && lines[i].trim() && indentOf(lines[i]) > indent && !/^\s*([-*]|\d+\.) /.test(lines[i]) && !lines[i].trim().startsWith('```'); i++)
      text.push(lines[i].trim());
    item.append(...inline(text.join(' ')));
    if (i < lines.length && indentOf(lines[i]) > indent && /^\s*([-*]|\d+\.) /.test(lines[i])) {
      const [sub, next] = readList(lines, i, indentOf(lines[i]));
      item.append(sub);
      i = next;
    }
    list.append(item);
  }
  return [list, i];
}

function contents(headings) {
  const top = el('ul');
  let current = null;
  for (const h of headings) {
    const li = el('li', {}, el('a', { href: `#${h.id}`, text: h.text }));
    if (h.level === 2 || !current) {
      top.append(li);
      current = li;
    } else {
      let sub = current.querySelector('ul');
      if (!sub) current.append(sub = el('ul'));
      sub.append(li);
    }
  }
  return top;
}

async function main() {
  const res = await fetch('/docs/api.md');
  const { blocks, headings } = render(await res.text());
  $('#doc').replaceChildren(...blocks);
  $('#toc').replaceChildren(el('h2', { text: 'Contents' }), contents(headings));
  const title = blocks.find((b) => b.tagName === 'H1');
  if (title) document.title = `${title.textContent} · Praça`;
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

if (typeof document !== 'undefined' && document.querySelector('#doc')) main();
