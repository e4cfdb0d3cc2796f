// A message's link previews: a card per link (its site, its title as the link, its description,
// its picture through praca's media proxy), and for the message's author a ✕ that removes them.
import { api, el, showError, $ } from './common.js';
import { chat } from './chat-store.js';
import { t } from './i18n.js';

function card(m, p, path) {
  const box = el('div', { class: 'link-preview' },
    p.siteName ? el('div', { class: 'link-preview-site muted small', text: p.siteName }) : '',
    p.title ? el('a', { class: 'link-preview-title', href: p.url, rel: 'noopener noreferrer', target: '_blank', text: p.title }) : '',
    p.description ? el('div', { class: 'link-preview-text small', text: p.description }) : '');
  if (p.image) {
    const img = el('img', { class: 'link-preview-image', alt: '', loading: 'lazy', decoding: 'async',
                            src: `${path}/${m.id}/media?url=${encodeURIComponent(p.image)}` });
    img.addEventListener('error', () => img.remove());
    box.append(img);
  }
  return box;
}

// m's previews; path is its messages' route; redraw(m) shows the message changed.
export function previewsView(m, path, redraw) {
  const row = el('div', { class: 'link-previews' }, ...m.previews.map((p) => card(m, p, path)));
  if (m.fromId === chat.me.id) {
    row.append(el('button', { type: 'button', class: 'link-button small link-previews-remove', text: '✕',
                              title: t('previews.remove'), 'aria-label': t('previews.remove'),
                              onclick: async () => {
                                try {
                                  await api('DELETE', `${path}/${m.id}/previews`);
                                  redraw({ ...m, previews: [], flags: (m.flags || 0) | 4 });
                                } catch (e) {
                                  showError($('#send-error'), e);
                                }
                              } }));
  }
  return row;
}
