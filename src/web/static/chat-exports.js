// Conta's "Seus dados": an archive of the person's data, made on the server; the page follows
// it while Conta is open until it is ready, then offers it to download (kept for seven days).
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';

const FOLLOW_MS = 2000;
let timer = null;

function sizeText(n) {
  return n >= 1e6 ? `${(n / 1e6).toLocaleString(locale(), { maximumFractionDigits: 1 })} MB`
    : `${Math.max(1, Math.round(n / 1e3)).toLocaleString(locale())} KB`;
}

function exportItem(x) {
  const when = new Date(x.createdAt).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
  const state = x.status === 'ready'
    ? el('a', { class: 'button secondary small', href: `/api/users/@me/exports/${x.id}/archive`, download: '', text: t('exports.download', { size: sizeText(x.size) }) })
    : el('span', { class: x.status === 'failed' ? 'error-text small' : 'muted small', text: t(`exports.${x.status}`) });
  return el('li', { 'data-id': x.id, 'data-status': x.status }, el('span', { text: when }), state);
}

export async function loadExports() {
  clearTimeout(timer);
  try {
    const { exports } = await api('GET', '/api/users/@me/exports');
    $('#exports').replaceChildren(...exports.map(exportItem));
    const pending = exports.some((x) => x.status === 'pending');
    $('#export-start').disabled = pending;
    if (pending && !$('#account').hidden) timer = setTimeout(loadExports, FOLLOW_MS);
  } catch (e) {
    showError($('#account-error'), e);
  }
}

export function wireExports() {
  $('#export-start').addEventListener('click', async () => {
    $('#account-error').hidden = true;
    try {
      await api('POST', '/api/users/@me/exports');
    } catch (e) {
      showError($('#account-error'), e);
    }
    await loadExports();
  });
}
