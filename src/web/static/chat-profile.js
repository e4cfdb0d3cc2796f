// Conta's "Seu perfil": the name others see, a short "about" and a banner colour, with a preview
// drawn as the people list and messages will show them.
import { avatar } from './chat-flow.js';
import { chat, meChanged } from './chat-store.js';
import { flash } from './chat-ui.js';
import { $, api, showError } from './common.js';
import { t } from './i18n.js';

const hex = (n) => `#${n.toString(16).padStart(6, '0')}`;
let color = null; // the banner colour chosen, or null

function paintPreview() {
  const name = $('#profile-display').value.trim() || chat.me.username;
  $('#profile-banner').style.background = color === null ? '' : hex(color);
  $('#profile-banner').classList.toggle('none', color === null);
  $('#profile-avatar').replaceChildren(avatar(chat.me.id, name, 'avatar', true));
  $('#profile-picture-remove').hidden = !chat.me.avatarUrl;
  $('#profile-name').textContent = name;
  $('#profile-username').textContent = `@${chat.me.username}`;
  $('#profile-about').textContent = $('#profile-about-text').value.trim();
  $('#profile-color-none').hidden = color === null;
}

export function paintProfile() {
  $('#profile-display').value = chat.me.displayName && chat.me.displayName !== chat.me.username ? chat.me.displayName : '';
  $('#profile-display').placeholder = chat.me.username;
  $('#profile-about-text').value = chat.me.about || '';
  color = chat.me.bannerColor ?? null;
  $('#profile-color').value = hex(color ?? 0x1f6f5c);
  paintPreview();
}

// A new picture is sent as soon as it is chosen (PUT /api/users/@me/avatar), or taken away.
async function setPicture(file) {
  $('#account-error').hidden = true;
  try {
    let user;
    if (file) {
      const form = new FormData();
      form.append('avatar', file);
      ({ user } = await api('PUT', '/api/users/@me/avatar', form));
    } else {
      ({ user } = await api('DELETE', '/api/users/@me/avatar'));
    }
    meChanged(user);
    paintPreview();
    flash('#profile-done', t(file ? 'profile.picture.saved' : 'profile.picture.removed'));
  } catch (err) {
    showError($('#account-error'), err);
  }
}

export function wireProfile() {
  paintProfile();
  $('#profile-picture').addEventListener('change', (e) => {
    const [file] = e.target.files;
    e.target.value = ''; // the same file may be chosen again
    if (file) setPicture(file);
  });
  $('#profile-picture-choose').addEventListener('click', () => $('#profile-picture').click());
  $('#profile-picture-remove').addEventListener('click', () => setPicture(null));
  $('#profile-display').addEventListener('input', paintPreview);
  $('#profile-about-text').addEventListener('input', paintPreview);
  $('#profile-color').addEventListener('input', () => { color = parseInt($('#profile-color').value.slice(1), 16); paintPreview(); });
  $('#profile-color-none').addEventListener('click', () => { color = null; paintPreview(); });
  $('#profile-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('#account-error').hidden = true;
    try {
      const { user } = await api('PATCH', '/api/users/@me', {
        displayName: $('#profile-display').value.trim() || null,
        about: $('#profile-about-text').value.trim() || null,
        bannerColor: color,
      });
      meChanged(user);
      $('#who').textContent = user.displayName || user.username;
      paintProfile();
      flash('#profile-done', t('profile.saved'));
    } catch (err) {
      showError($('#account-error'), err);
    }
  });
}
