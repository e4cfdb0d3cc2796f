// A person's card at the top of their menu, as Discord's popout shows one: the banner colour, the
// picture, the names and the "about". Drawn at once from what the page knows, then completed by
// GET /api/users/:uid/profile.
import { avatar } from './chat-flow.js';
import { api, el } from './common.js';
import { t } from './i18n.js';

export function personCard(userId, name, username) {
  const banner = el('div', { class: 'profile-banner none' });
  const about = el('p', { class: 'small person-about', hidden: true });
  const said = el('p', { class: 'small person-status', hidden: true });
  const card = el('div', { class: 'profile-card person-card' }, banner,
    el('div', { class: 'profile-body' }, avatar(userId, name, 'avatar', true),
      el('strong', { text: name }), ' ', el('span', { class: 'muted small', text: `@${username}` }), said, about));
  api('GET', `/api/users/${encodeURIComponent(userId)}/profile`).then(({ user }) => {
    if (user.bannerColor !== null) {
      banner.style.background = `#${user.bannerColor.toString(16).padStart(6, '0')}`; // the CSSOM, which the CSP allows
      banner.classList.remove('none');
    }
    about.textContent = user.imported ? t('message.imported.title') : user.about || '';
    about.hidden = !user.imported && !user.about;
    const activity = user.presence && user.presence.activity;
    if (activity && activity.type === 'custom') {
      said.replaceChildren(el('span', { class: `status ${user.presence.status}`, 'aria-hidden': 'true' }),
        ` ${activity.emoji ? `${activity.emoji} ` : ''}${activity.name}`);
      said.hidden = false;
    }
  }).catch(() => {}); // the card stays as drawn
  return card;
}
