// The app installed and offline: /app registers its service worker (sw.js: the shell kept by
// version, the last rooms read kept for reading without a network), and when a new version has
// installed beside the running one, a toast offers it; taking it reloads the page once.
import { t } from './i18n.js';
import { $, el, lastReads } from './common.js';

export async function startOffline() {
  if (!('serviceWorker' in navigator)) return;
  // Reloaded once the version taken controls the page. A first worker taking control is handed
  // what the page read before it was there, to keep for a visit offline.
  let controlled = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!controlled) {
      controlled = true;
      navigator.serviceWorker.controller.postMessage({ read: lastReads });
      return;
    }
    if (!taking) return;
    taking = false;
    location.reload();
  });
  try {
    const reg = await navigator.serviceWorker.register('/sw.js');
    if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
    reg.addEventListener('updatefound', () => {
      const next = reg.installing;
      next.addEventListener('statechange', () => {
        if (next.state === 'installed' && navigator.serviceWorker.controller) offer(next);
      });
    });
    // A page kept open for days still hears of a new version.
    setInterval(() => reg.update().catch(() => {}), 60 * 60 * 1000);
  } catch (e) {
    console.warn('offline: the service worker was not registered:', e);
  }
}

let taking = false;

// A new version is ready: a lasting note with the button that takes it.
function offer(worker) {
  if ($('#update-ready')) return;
  const note = el('div', { class: 'toast', role: 'status', id: 'update-ready' },
    el('span', { text: t('app.update.ready') }),
    el('button', { type: 'button', class: 'small-button', text: t('app.update.take'), onclick: () => { taking = true; worker.postMessage('take-over'); } }));
  $('#toasts').append(note);
}
