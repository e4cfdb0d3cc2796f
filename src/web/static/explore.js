// The server directory (/explorar): the discoverable servers, searched by words or a tag, in the
// directory's order (most online first); a server's preview before joining — its description,
// rules, public channels and their latest messages, read only — and joining it, which opens it
// in the app. The address keeps the search (?q=&tag=) so the back button and a shared link work.
import { $, api, el, requireSession } from './common.js';
import { markdownNodes, parseMarkdown } from './markdown.js';
import { locale, t, tn, translatePage } from './i18n.js';

const PAGE = 24;
const view = { q: '', tag: '', offset: 0, servers: [], total: 0, open: null, loads: 0 };

// The page words what went wrong by its status; the API's text is Portuguese.
function said(e) {
  if (e.network) return e.message;
  if (e.status === 403) return t('explore.error.banned');
  if (e.status === 404) return t('explore.error.gone');
  if (e.status === 429) return t('explore.error.slow');
  return t('explore.error.other');
}

function showError(box, e) {
  box.textContent = said(e);
  box.hidden = false;
}

function initials(name) {
  return name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => [...w][0]).join('').toUpperCase();
}

function iconOf(server, size) {
  if (server.iconUrl) return el('img', { class: 'directory-icon', src: server.iconUrl, alt: '', width: size, height: size });
  return el('span', { class: 'directory-icon', 'aria-hidden': 'true', text: initials(server.name) });
}

function counts(server) {
  return `${tn('explore.online', server.onlineCount)} · ${tn('explore.members', server.memberCount)}`;
}

function tagButton(tag, { pressed = false, count } = {}) {
  return el('button', { type: 'button', class: 'tag', 'aria-pressed': String(pressed), 'data-tag': tag,
    text: count ? `#${tag} ${count.toLocaleString(locale())}` : `#${tag}` });
}

function card(server) {
  const open = el('button', { type: 'button', class: 'link-cover', 'aria-label': t('explore.see', { name: server.name }),
    onclick: () => openPreview(server.id) });
  const li = el('li', { class: 'directory-card' },
    el('div', { class: 'directory-card-head' }, iconOf(server, 48),
      el('div', { class: 'grow' }, el('h2', { text: server.name }), el('p', { class: 'muted small', text: counts(server) }))),
    el('p', { class: 'directory-description', text: server.description || t('explore.no-description') }),
    el('div', { class: 'tag-row' }, ...server.tags.map((tag) => tagButton(tag, { pressed: tag === view.tag }))),
    open);
  if (server.joined) li.append(el('span', { class: 'badge ok joined', text: t('explore.joined') }));
  return li;
}

function paint() {
  $('#servers').replaceChildren(...view.servers.map(card));
  const words = view.q || (view.tag && `#${view.tag}`);
  $('#count').textContent = view.total === 0
    ? (words ? t('explore.none-for', { words }) : t('explore.none'))
    : tn('explore.found', view.total);
  $('#more').hidden = view.servers.length >= view.total;
}

function paintTags(tags) {
  const shown = tags.map(({ tag, count }) => tagButton(tag, { pressed: tag === view.tag, count }));
  if (view.tag && !tags.some((x) => x.tag === view.tag)) shown.unshift(tagButton(view.tag, { pressed: true }));
  $('#tags').replaceChildren(...shown);
}

async function load({ more = false } = {}) {
  const generation = ++view.loads;
  const offset = more ? view.servers.length : 0;
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (view.q) query.set('q', view.q);
  if (view.tag) query.set('tag', view.tag);
  try {
    const page = await api('GET', `/api/directory?${query}`);
    if (generation !== view.loads) return; // a newer search answered first
    view.servers = more ? view.servers.concat(page.servers) : page.servers;
    view.total = page.total;
    $('#error').hidden = true;
    paintTags(page.tags);
    paint();
  } catch (e) {
    if (generation === view.loads) showError($('#error'), e);
  }
}

function remember() {
  const query = new URLSearchParams();
  if (view.q) query.set('q', view.q);
  if (view.tag) query.set('tag', view.tag);
  const at = `${location.pathname}${query.size ? `?${query}` : ''}`;
  if (at !== location.pathname + location.search) history.pushState(null, '', at);
}

function fromAddress() {
  const query = new URLSearchParams(location.search);
  view.q = (query.get('q') || '').slice(0, 200);
  view.tag = (query.get('tag') || '').slice(0, 24);
  $('#q').value = view.q;
}

// The preview: a public text channel's newest messages, oldest first, as the channel shows them.
function messageRow(m, authors) {
  const when = new Date(m.createdAt);
  const who = authors[m.fromId];
  const name = who?.name || m.webhook?.name || t('explore.someone');
  return el('li', { class: 'preview-message' },
    el('div', { class: 'preview-meta' }, el('strong', { text: name }),
      who?.isBot || m.webhook ? el('span', { class: 'badge kind', text: t('explore.bot') }) : '',
      el('time', { class: 'muted small', datetime: m.createdAt, text: when.toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' }) })),
    el('div', { class: 'preview-text' }, ...markdownNodes(parseMarkdown(m.content || ''))));
}

async function showChannel(sid, channel) {
  for (const b of $('#preview-channels').querySelectorAll('button')) b.setAttribute('aria-current', String(b.dataset.id === channel.id));
  $('#preview-messages').replaceChildren();
  $('#preview-empty').hidden = true;
  if (channel.type !== 'text') {
    $('#preview-empty').textContent = t(channel.type === 'voice' ? 'explore.voice-only' : 'explore.forum-only');
    $('#preview-empty').hidden = false;
    return;
  }
  try {
    const { messages, authors } = await api('GET', `/api/servers/${sid}/preview/channels/${channel.id}/messages?limit=30`);
    if (view.open !== sid) return;
    $('#preview-messages').replaceChildren(...messages.map((m) => messageRow(m, authors)));
    $('#preview-empty').textContent = t('explore.no-messages');
    $('#preview-empty').hidden = messages.length > 0;
    const box = $('.preview-messages');
    box.scrollTop = box.scrollHeight;
  } catch (e) {
    showError($('#preview-error'), e);
  }
}

const KIND_MARK = { text: '#', forum: '▤', voice: '🔊' };

async function openPreview(sid) {
  view.open = sid;
  $('#preview-error').hidden = true;
  let p;
  try {
    p = await api('GET', `/api/servers/${sid}/preview`);
  } catch (e) {
    showError($('#error'), e);
    return;
  }
  if (view.open !== sid) return;
  const s = p.server;
  $('#preview-icon').replaceWith(Object.assign(iconOf(s, 64), { id: 'preview-icon' }));
  $('#preview-name').textContent = s.name;
  $('#preview-counts').textContent = counts(s);
  $('#preview-description').textContent = s.description || t('explore.no-description');
  $('#preview-tags').replaceChildren(...s.tags.map((tag) => el('span', { class: 'tag', text: `#${tag}` })));
  $('#preview-rules').textContent = s.rules;
  $('#preview-rules-box').hidden = !s.rules;
  $('#preview-channels').replaceChildren(...p.channels.map((c) => el('li', {},
    el('button', { type: 'button', class: 'preview-channel', 'data-id': c.id, onclick: () => showChannel(sid, c) },
      el('span', { class: 'muted', 'aria-hidden': 'true', text: KIND_MARK[c.type] || '#' }), ` ${c.name}`))));
  $('#preview-join').hidden = s.joined;
  $('#preview-open').hidden = !s.joined;
  $('#preview-open').href = `/app#server=${sid}`;
  if (!$('#preview').open) $('#preview').showModal();
  const first = p.channels.find((c) => c.type === 'text') || p.channels[0];
  if (first) await showChannel(sid, first);
  else {
    $('#preview-messages').replaceChildren();
    $('#preview-empty').textContent = t('explore.no-channels');
    $('#preview-empty').hidden = false;
  }
}

async function join() {
  const sid = view.open;
  $('#preview-join').disabled = true;
  try {
    await api('POST', `/api/servers/${sid}/join`);
    location.assign(`/app#server=${sid}`);
  } catch (e) {
    showError($('#preview-error'), e);
    $('#preview-join').disabled = false;
  }
}

function wire() {
  $('#search').addEventListener('submit', (e) => {
    e.preventDefault();
    view.q = $('#q').value.trim();
    remember();
    load();
  });
  document.addEventListener('click', (e) => {
    const tag = e.target.closest('button.tag');
    if (!tag) return;
    view.tag = view.tag === tag.dataset.tag ? '' : tag.dataset.tag;
    remember();
    load();
  });
  $('#more').addEventListener('click', () => load({ more: true }));
  $('#preview-close').addEventListener('click', () => $('#preview').close());
  $('#preview').addEventListener('close', () => { view.open = null; });
  $('#preview-join').addEventListener('click', join);
  window.addEventListener('popstate', () => { fromAddress(); load(); });
}

async function main() {
  translatePage();
  await requireSession(); // comes back here after signing in
  wire();
  fromAddress();
  await load();
}

main().catch((e) => showError($('#error'), e));
