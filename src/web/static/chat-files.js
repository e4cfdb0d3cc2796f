// Files: chosen by the button, dropped on the room or pasted; shown above the composer until sent,
// each with its progress and a way out; sent with the message as multipart (payload_json +
// files[n]). In messages: pictures and videos in place (a viewer on click), sound with the
// browser's player, anything else as a card to download.
import { openMenu } from './chat-menu.js';
import { $, ApiError, el } from './common.js';
import { t } from './i18n.js';

const MAX_FILES = 10;
const pending = []; // {file, id, bar, chip, preview}
let uploading = null; // the XMLHttpRequest on its way

export function pendingCount() {
  return pending.length;
}

export function formatSize(n) {
  if (n < 1000) return `${n} B`;
  if (n < 1000 * 1000) return `${(n / 1000).toFixed(n < 10000 ? 1 : 0)} KB`;
  return `${(n / 1000 / 1000).toFixed(1)} MB`;
}

export function addFiles(list) {
  for (const file of list) {
    if (pending.length >= MAX_FILES) break;
    const item = { file, id: `${Date.now()}-${Math.random()}` };
    const bar = el('progress', { max: '100', value: '0', 'aria-label': t('file.progress', { name: file.name }) });
    const remove = el('button', { type: 'button', class: 'link-button', text: '✕', 'aria-label': t('file.remove', { name: file.name }),
                                  onclick: () => drop(item) });
    item.preview = file.type.startsWith('image/') ? URL.createObjectURL(file) : null;
    item.chip = el('li', { class: 'pending-file' },
      item.preview ? el('img', { src: item.preview, alt: '' }) : el('span', { class: 'file-icon', text: '📄' }),
      el('span', { class: 'name', text: file.name || t('file.pasted') }),
      el('span', { class: 'muted small', text: formatSize(file.size) }), bar, remove);
    item.bar = bar;
    pending.push(item);
    $('#pending-files').append(item.chip);
  }
  $('#pending-files').hidden = pending.length === 0;
}

// A file taken out: before sending it just goes; while sending, the whole upload stops.
function drop(item) {
  if (uploading) uploading.abort();
  const i = pending.indexOf(item);
  if (i >= 0) pending.splice(i, 1);
  if (item.preview) URL.revokeObjectURL(item.preview);
  item.chip.remove();
  $('#pending-files').hidden = pending.length === 0;
}

export function clearPending() {
  for (const item of [...pending]) drop(item);
}

// Sends body and the pending files to path; each file's bar follows the bytes sent past it.
export function uploadWith(path, body) {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(body));
  pending.forEach((p, i) => form.append(`files[${i}]`, p.file, p.file.name || 'imagem.png'));
  const sizes = pending.map((p) => p.file.size);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    uploading = xhr;
    xhr.open('POST', path);
    xhr.upload.onprogress = (e) => {
      let before = 0;
      pending.forEach((p, i) => {
        const done = Math.max(0, Math.min(sizes[i], e.loaded - before));
        p.bar.value = sizes[i] ? Math.round((done / sizes[i]) * 100) : 100;
        before += sizes[i];
      });
    };
    xhr.onload = () => {
      uploading = null;
      let data = null;
      try { data = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data);
      reject(new ApiError(xhr.status, data));
    };
    xhr.onerror = () => { uploading = null; reject(Object.assign(new Error(t('file.upload.failed')), { network: true })); };
    xhr.onabort = () => { uploading = null; reject(new Error(t('file.upload.cancelled'))); };
    xhr.send(form);
  });
}

// ---- in messages ----

export function attachmentsView(m) {
  const box = el('div', { class: 'attachments' });
  for (const a of m.attachments || []) box.append(attachmentView(a));
  return box;
}

function sized(node, a) {
  if (a.width && a.height) {
    const w = Math.min(a.width, 400);
    node.setAttribute('width', String(w));
    node.setAttribute('height', String(Math.round((a.height * w) / a.width)));
  }
  return node;
}

function attachmentView(a) {
  const type = a.contentType || '';
  if (type.startsWith('image/')) {
    // A GIF moves only in its own bytes; the others show their thumbnail.
    const src = a.thumbnailUrl && type !== 'image/gif' ? a.thumbnailUrl : a.url;
    return el('button', { type: 'button', class: 'attachment-image', 'aria-label': t('file.view', { name: a.filename }), onclick: () => openViewer(a) },
      sized(el('img', { src, alt: a.filename, loading: 'lazy' }), a));
  }
  if (type.startsWith('video/')) return sized(el('video', { class: 'attachment-video', src: a.url, controls: true, preload: 'metadata' }), a);
  if (type.startsWith('audio/')) {
    return el('div', { class: 'attachment-card' }, el('span', { class: 'name', text: a.filename }),
      el('audio', { src: a.url, controls: true, preload: 'none' }));
  }
  return el('div', { class: 'attachment-card' }, el('span', { class: 'file-icon', text: '📄' }),
    el('span', { class: 'file-meta' }, el('a', { href: a.url, download: a.filename, class: 'name', text: a.filename }),
      el('span', { class: 'muted small', text: formatSize(a.size) })),
    el('a', { href: a.url, download: a.filename, class: 'link-button', text: t('file.download'), 'aria-label': t('file.download.name', { name: a.filename }) }));
}

// The picture at its size, over the page: Esc, ✕ or a click outside closes it.
export function openViewer(a) {
  const dialog = $('#viewer');
  $('#viewer-image').src = a.url;
  $('#viewer-image').alt = a.filename;
  $('#viewer-name').textContent = a.filename;
  $('#viewer-open').href = a.url;
  dialog.showModal();
}

// more(): what else the composer's ＋ offers here ([{label, run}]); with nothing, it picks files.
export function initFiles(more = () => []) {
  $('#attach').addEventListener('click', () => {
    const items = more();
    if (!items.length) return void $('#file-input').click();
    openMenu($('#attach'), t('app.attach.title'), [{ label: t('poll.attach.files'), run: () => $('#file-input').click() }, ...items]);
  });
  $('#file-input').addEventListener('change', (e) => {
    addFiles(e.target.files);
    e.target.value = '';
    $('#text').focus();
  });
  $('#text').addEventListener('paste', (e) => {
    const files = [...(e.clipboardData ? e.clipboardData.files : [])];
    if (!files.length) return;
    e.preventDefault();
    addFiles(files);
  });
  const room = $('#messages').parentElement;
  room.addEventListener('dragover', (e) => {
    if (!e.dataTransfer || ![...e.dataTransfer.types].includes('Files') || $('#composer').hidden) return;
    e.preventDefault();
    room.classList.add('dropping');
  });
  room.addEventListener('dragleave', (e) => { if (e.target === room) room.classList.remove('dropping'); });
  room.addEventListener('drop', (e) => {
    room.classList.remove('dropping');
    if (!e.dataTransfer || !e.dataTransfer.files.length || $('#composer').hidden) return;
    e.preventDefault();
    addFiles(e.dataTransfer.files);
  });
  const dialog = $('#viewer');
  $('#viewer-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('click', (e) => { if (e.target === dialog) dialog.close(); });
  dialog.addEventListener('close', () => { $('#viewer-image').removeAttribute('src'); });
}
