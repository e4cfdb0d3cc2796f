// Archives made on the server, followed while their panel is open until ready, then offered to
// download (kept seven days): Conta's "Seus dados", and a server's portable archive in its
// owner's settings ("Levar o servidor para outra Praça").
import { chat } from './chat-store.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';

const FOLLOW_MS = 2000;

export function sizeText(n) {
  return n >= 1e6 ? `${(n / 1e6).toLocaleString(locale(), { maximumFractionDigits: 1 })} MB`
    : `${Math.max(1, Math.round(n / 1e3)).toLocaleString(locale())} KB`;
}

// One kind of archive: where it is listed and started, and its routes.
function archives({ list, start, error, panel, path, key, file }) {
  let timer = null;
  const item = (x) => {
    const when = new Date(x.createdAt).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
    const state = x.status === 'ready'
      ? el('a', { class: 'button secondary small', href: `${path()}/${x.id}/${file}`, download: '', text: t('exports.download', { size: sizeText(x.size) }) })
      : el('span', { class: x.status === 'failed' ? 'error-text small' : 'muted small', text: t(`exports.${x.status}`) });
    return el('li', { 'data-id': x.id, 'data-status': x.status }, el('span', { text: when }), state);
  };
  const load = async () => {
    clearTimeout(timer);
    try {
      const all = (await api('GET', path()))[key];
      $(list).replaceChildren(...all.map(item));
      const pending = all.some((x) => x.status === 'pending');
      $(start).disabled = pending;
      if (pending && !$(panel).hidden) timer = setTimeout(load, FOLLOW_MS);
    } catch (e) {
      showError($(error), e);
    }
  };
  const wire = () => $(start).addEventListener('click', async () => {
    $(error).hidden = true;
    try {
      await api('POST', path());
    } catch (e) {
      showError($(error), e);
    }
    await load();
  });
  return { load, wire };
}

const mine = archives({ list: '#exports', start: '#export-start', error: '#account-error', panel: '#account',
  path: () => '/api/users/@me/exports', key: 'exports', file: 'archive' });
const servers = archives({ list: '#server-archives', start: '#server-archive-start', error: '#settings-error', panel: '#settings',
  path: () => `/api/servers/${chat.sid}/archives`, key: 'archives', file: 'file' });

export const loadExports = mine.load;

// The open server's archives, for its owner only.
export function paintServerArchive() {
  const owner = chat.server.ownerId === chat.me.id;
  $('#server-archive').hidden = !owner;
  if (owner) servers.load();
}

export function wireExports() {
  mine.wire();
  servers.wire();
}
