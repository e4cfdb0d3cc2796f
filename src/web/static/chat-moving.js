// Conta's "Trazer uma comunidade": a community's export uploaded (what it is told from its first
// lines, with the server's name and a Mattermost export's teams), imported by the server as
// `praca import` does, and followed while Conta is open until it is done, when its server opens
// with one click.
import { sizeText } from './chat-exports.js';
import { go } from './chat-screens.js';
import { loadServers, openServer } from './chat-servers.js';
import { toast } from './chat-ui.js';
import { $, api, ApiError, el, showError } from './common.js';
import { locale, t } from './i18n.js';

const FOLLOW_MS = 1500;
const PEEK_BYTES = 256 * 1024;
let timer = null;
let teams = [];    // the Mattermost export's, as peek read them
let teamTitle = ''; // the name the server was given after the team chosen

function lineOf(text) {
  try { return JSON.parse(text); } catch { return null; }
}

// The names a zip holds, from its central directory (where its last bytes say it is; at most
// its first MiB of names).
async function zipNames(file) {
  const tailLength = Math.min(file.size, 65557);
  const tail = new DataView(await file.slice(file.size - tailLength).arrayBuffer());
  let end = -1;
  for (let i = tailLength - 22; i >= 0 && end < 0; i--) if (tail.getUint32(i, true) === 0x06054b50) end = i;
  if (end < 0) return [];
  const size = tail.getUint32(end + 12, true), offset = tail.getUint32(end + 16, true);
  const dir = new DataView(await file.slice(offset, offset + Math.min(size, 1 << 20)).arrayBuffer());
  const names = [], text = new TextDecoder();
  for (let at = 0; at + 46 <= dir.byteLength && dir.getUint32(at, true) === 0x02014b50;) {
    const n = dir.getUint16(at + 28, true);
    if (at + 46 + n > dir.byteLength) break;
    names.push(text.decode(new Uint8Array(dir.buffer, at + 46, n)));
    at += 46 + n + dir.getUint16(at + 30, true) + dir.getUint16(at + 32, true);
  }
  return names;
}

// A zip is Slack's export (its users.json), or a DiscordChatExporter folder zipped (its files are
// named "Server - channel [id].json"; the server's name comes first).
async function peekZip(file) {
  const names = (await zipNames(file)).map((n) => n.split('/').pop());
  const channel = names.find((n) => /\[\d+\]\.json$/.test(n));
  if (channel && !names.includes('users.json')) {
    return { format: 'discord', said: 'discord-zip', name: channel.split(' - ')[0], teams: [] };
  }
  return { format: 'slack', name: file.name.replace(/\.zip$/i, '').replace(/ Slack export.*$/i, ''), teams: [] };
}

// What the file's first bytes say: {format, said, name, teams}, or null when they say nothing
// known.
async function peek(file) {
  const magic = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (magic[0] === 0x50 && magic[1] === 0x4b && magic[2] === 3 && magic[3] === 4) return peekZip(file);
  const head = await file.slice(0, PEEK_BYTES).text();
  const lines = head.split('\n').map(lineOf).filter(Boolean);
  const first = lines[0] || {};
  if (first.record === 'archive') {
    const server = lines.find((l) => l.record === 'server');
    return { format: 'praca-archive', name: server ? server.name : '', teams: [] };
  }
  if (first.type === 'version') {
    const teams = lines.filter((l) => l.type === 'team' && l.team).map((l) => ({ name: l.team.name, title: l.team.display_name || l.team.name }));
    return { format: 'mattermost', name: teams.length ? teams[0].title : '', teams };
  }
  const guild = /^\s*\{\s*"guild"\s*:\s*\{[^}]*?"name"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head);
  if (guild) return { format: 'discord', name: lineOf(`"${guild[1]}"`) || '', teams: [] };
  return null;
}

// A server's name is asked for but of an archive, which brings its own.
function nameNeeded() {
  $('#import-name').required = $('#import-format').value !== 'praca-archive';
}

function paintKind(found) {
  $('#import-kind').hidden = false;
  $('#import-kind').textContent = found ? t(`imports.found.${found.said || found.format}`) : t('imports.found.none');
  if (found) $('#import-format').value = found.format;
  if (found && found.name && !$('#import-name').value) $('#import-name').value = found.name;
  teams = found ? found.teams : [];
  teamTitle = teams.length ? teams[0].title : '';
  $('#import-team').replaceChildren(...teams.map((x) => el('option', { value: x.name, text: x.title })));
  $('#import-team-box').hidden = teams.length < 2;
  nameNeeded();
}

// The file sent, its bar following the bytes; resolves with the job.
function send(file, payload) {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  form.append('files[0]', file, file.name);
  const bar = $('#import-upload');
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/imports');
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = e.loaded / e.total; };
    xhr.onload = () => {
      let data = null;
      try { data = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data.import);
      else reject(new ApiError(xhr.status, data));
    };
    xhr.onerror = () => reject(new Error(t('file.upload.failed')));
    bar.hidden = false;
    bar.value = 0;
    xhr.send(form);
  });
}

function jobItem(x) {
  const when = new Date(x.createdAt).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
  const state = x.status === 'running'
    ? el('span', { class: 'import-progress' },
      el('progress', { max: '1000', value: String(x.progress), 'aria-label': t('imports.progress', { name: x.fileName }) }),
      el('span', { class: 'muted small', text: t('imports.running', { n: x.messages.toLocaleString(locale()) }) }))
    : x.status === 'done'
      ? el('span', { class: 'import-done' },
        el('span', { class: 'muted small', text: t('imports.done', { n: x.messages.toLocaleString(locale()) }) }),
        x.serverId ? el('button', { type: 'button', class: 'secondary small', text: t('imports.open'), onclick: () => openImported(x.serverId) }) : '')
      : el('span', { class: 'error-text small', text: x.error ? t('imports.failed.why', { why: x.error }) : t('imports.failed') });
  return el('li', { class: 'import-job', 'data-id': x.id, 'data-status': x.status },
    el('span', { class: 'import-file' }, el('strong', { text: x.fileName }), el('span', { class: 'muted small', text: `${when} · ${sizeText(x.size)}` })),
    state);
}

async function openImported(sid) {
  await loadServers();
  go('channels');
  await openServer(sid).catch(toast);
}

export async function loadImports() {
  clearTimeout(timer);
  try {
    const { imports } = await api('GET', '/api/imports');
    $('#imports').replaceChildren(...imports.map(jobItem));
    const running = imports.some((x) => x.status === 'running');
    $('#import-start').disabled = running;
    if (running && !$('#account').hidden) timer = setTimeout(loadImports, FOLLOW_MS);
    else if (imports.some((x) => x.status === 'done')) await loadServers();
  } catch (e) {
    showError($('#import-error'), e);
  }
}

export function wireImports(openAccount) {
  $('#import-file').addEventListener('change', async () => {
    const file = $('#import-file').files[0];
    $('#import-name').value = '';
    $('#import-file-name').textContent = file ? `${file.name} · ${sizeText(file.size)}` : '';
    if (file) paintKind(await peek(file));
  });
  // The server is named after the team chosen, unless the person named it otherwise.
  $('#import-team').addEventListener('change', () => {
    const team = teams.find((x) => x.name === $('#import-team').value);
    const title = team ? team.title : '';
    if (!$('#import-name').value || $('#import-name').value === teamTitle) $('#import-name').value = title;
    teamTitle = title;
  });
  $('#import-format').addEventListener('change', () => {
    if ($('#import-format').value !== 'mattermost') $('#import-team-box').hidden = true;
    nameNeeded();
  });
  nameNeeded();
  $('#import-open').addEventListener('click', () => {
    openAccount();
    $('#imports-box').scrollIntoView({ block: 'start' });
    $('#import-file').focus();
  });
  $('#import-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#import-error').hidden = true;
    const file = $('#import-file').files[0];
    const format = $('#import-format').value;
    const name = $('#import-name').value.trim();
    const payload = { format, ...(name ? { serverName: name } : {}), ...(!$('#import-team-box').hidden ? { team: $('#import-team').value } : {}) };
    $('#import-start').disabled = true;
    try {
      await send(file, payload);
      $('#import-form').reset();
      $('#import-file-name').textContent = '';
      $('#import-kind').hidden = true;
      $('#import-team-box').hidden = true;
    } catch (err) {
      showError($('#import-error'), err);
    }
    $('#import-upload').hidden = true;
    await loadImports();
    $('#imports').scrollIntoView({ block: 'nearest' });
  });
}
