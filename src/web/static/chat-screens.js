// On a phone, one screen at a time: servers → channels → room → members, with the back button and the
// browser's back gesture going up a level. On a desktop every column shows; only the steps are kept.
import { $ } from './common.js';
import { t } from './i18n.js';

const SCREENS = ['servers', 'channels', 'room', 'members'];

// The person went deeper (a server, a room): that screen, with a step the back button and the
// browser's back gesture undo. On a desktop every column shows and this only keeps the steps.
export function go(screen) {
  if (document.body.dataset.screen === screen) return;
  document.body.dataset.screen = screen;
  history.pushState({ screen }, '', location.hash);
  paintBack();
}

const PEOPLE_KEY = 'praca-people-hidden';

function showPeopleColumn(shown) {
  document.body.classList.toggle('people-hidden', !shown);
  $('#people-open').setAttribute('aria-pressed', String(shown));
  try { localStorage.setItem(PEOPLE_KEY, shown ? '' : '1'); } catch { /* not kept */ }
}

function paintBack() {
  const at = SCREENS.indexOf(document.body.dataset.screen);
  $('#back').hidden = at <= 0;
  $('#back').setAttribute('aria-label', t(['', 'back.servers', 'back.channels', 'back.room'][at] || 'app.back.label'));
}

export function wireScreens() {
  let hidden = false;
  try { hidden = localStorage.getItem(PEOPLE_KEY) === '1'; } catch { /* shown */ }
  showPeopleColumn(!hidden);
  // The room's 👥: on a phone the open server's people, a screen of their own; on a wide screen
  // it shows or hides the people's column (remembered here). Wired once.
  $('#people-open').addEventListener('click', () => {
    if (matchMedia('(min-width: 1100px)').matches) return showPeopleColumn(document.body.classList.contains('people-hidden'));
    $('#people-box').open = true;
    go('members');
  });
  const hash = new URLSearchParams(location.hash.slice(1));
  // A reload starts where it was; main() then steps down to the room it opens.
  const screen = hash.get('channel') || hash.get('dm') ? 'room' : hash.get('server') ? 'channels' : 'servers';
  document.body.dataset.screen = screen;
  history.replaceState({ screen }, '', location.hash);
  window.addEventListener('popstate', (e) => {
    const at = SCREENS.indexOf(document.body.dataset.screen);
    document.body.dataset.screen = (e.state && e.state.screen) || SCREENS[Math.max(0, at - 1)];
    paintBack();
  });
  $('#back').addEventListener('click', () => {
    const at = SCREENS.indexOf(document.body.dataset.screen);
    if (history.state && history.state.screen === document.body.dataset.screen && history.length > 1) history.back();
    else {
      document.body.dataset.screen = SCREENS[Math.max(0, at - 1)];
      paintBack();
    }
  });
  paintBack();
}
