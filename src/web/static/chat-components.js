// What a bot's message carries besides text: embeds, buttons and select menus, and Components V2
// layouts, drawn from text nodes only; images through praca's media proxy.
import { act } from './chat-actions.js';
import { $, api, el } from './common.js';
import { t } from './i18n.js';

function button(component, message) {
  const b = el('button', { type: 'button', class: `component style-${component.style || 1}`, text: component.label || '…' });
  if (component.disabled) b.disabled = true;
  if (component.style === 5 && component.url) {
    b.addEventListener('click', () => window.open(component.url, '_blank', 'noopener'));
  } else {
    b.addEventListener('click', () => act.invoke({ type: 'component', messageId: message.id, customId: component.customId }));
  }
  return b;
}

function selectMenu(component, message) {
  const s = el('select', { 'aria-label': component.placeholder || t('select.choose') });
  s.append(el('option', { value: '', text: component.placeholder || t('select.choose.more') }));
  for (const o of component.options || []) s.append(el('option', { value: o.value, text: o.label }));
  s.addEventListener('change', () => {
    if (s.value) act.invoke({ type: 'component', messageId: message.id, customId: component.customId, values: [s.value] });
  });
  return s;
}

// An image or file a bot points to: a link, and for an image of a stored message the image
// itself through praca's media proxy (the page loads nothing from elsewhere, so no other site
// learns who reads the message); an image the proxy cannot give stays a link.
function media(m, description, kind = 'image', message = null, label = '') {
  const url = m && m.url;
  if (!/^https?:\/\//.test(url || '')) return el('div', { class: 'media' }, el('span', { text: description || label || url || t(`media.${kind}`) }));
  // Without a description of its own, the caption is only for when the image cannot be shown.
  const caption = el('span', { class: description ? 'media-caption' : 'media-caption generic', text: description || label || url });
  const link = el('a', { href: url, rel: 'noopener noreferrer', target: '_blank' }, caption);
  const room = message && message.serverId && !(message.flags & 64) && (message.threadId || message.channelId);
  if (kind === 'image' && room) {
    const img = el('img', { alt: description || '', loading: 'lazy', decoding: 'async',
      src: `/api/servers/${message.serverId}/channels/${room}/messages/${message.id}/media?url=${encodeURIComponent(url)}` });
    img.addEventListener('error', () => { img.remove(); link.prepend('🖼 '); });
    img.addEventListener('load', () => link.classList.add('shown'));
    link.prepend(img);
  } else {
    link.prepend(`${kind === 'file' ? '📎' : '🖼'} `);
  }
  return el('div', { class: 'media' }, link);
}

export const colour = (n) => `#${n.toString(16).padStart(6, '0')}`;

// One component of a message: action rows as before, and with IS_COMPONENTS_V2 the layout
// pieces (sections, text, media, separators, containers) in the order the bot gave them.
function component(c, message) {
  switch (c.type) {
    case 1: {
      const line = el('div', { class: 'row' });
      for (const x of c.components || []) {
        if (x.type === 2) line.append(button(x, message));
        else if (x.type === 3) line.append(selectMenu(x, message));
      }
      return line;
    }
    case 2: return button(c, message);
    case 9: return el('div', { class: 'section' },
      el('div', { class: 'section-text' }, ...(c.components || []).map((x) => component(x, message))),
      c.accessory ? component(c.accessory, message) : '');
    case 10: return el('p', { class: 'text-display', text: c.content });
    case 11: return media(c.media, c.description, 'image', message);
    case 12: return el('div', { class: 'gallery' }, ...(c.items || []).map((i) => media(i.media, i.description, 'image', message)));
    case 13: return media(c.file, null, 'file');
    case 14: return el('hr', { class: c.divider === false ? 'spacer' : 'divider' });
    case 17: {
      const box = el('div', { class: 'container' }, ...(c.components || []).map((x) => component(x, message)));
      if (Number.isInteger(c.accentColor)) box.style.borderLeftColor = colour(c.accentColor);
      return box;
    }
    default: return el('span');
  }
}

export function components(list, message) {
  return el('div', { class: 'components' }, ...(list || []).map((c) => component(c, message)));
}

export function embed(e, message) {
  const box = el('div', { class: 'embed' });
  if (Number.isInteger(e.color)) box.style.borderLeftColor = colour(e.color);
  if (e.author && e.author.name) box.append(el('small', { class: 'author', text: e.author.name }));
  if (e.title) {
    box.append(/^https?:\/\//.test(e.url || '')
      ? el('a', { class: 'title', href: e.url, rel: 'noopener noreferrer', target: '_blank', text: e.title })
      : el('strong', { text: e.title }));
  }
  if (e.description) box.append(el('p', { text: e.description }));
  for (const f of e.fields || []) box.append(el('p', {}, el('strong', { text: `${f.name}: ` }), f.value));
  if (e.thumbnail) box.append(media(e.thumbnail, null, 'image', message, t('media.thumbnail')));
  if (e.image) box.append(media(e.image, null, 'image', message, t('media.image')));
  if (e.footer && e.footer.text) box.append(el('small', { class: 'muted', text: e.footer.text }));
  return box;
}
