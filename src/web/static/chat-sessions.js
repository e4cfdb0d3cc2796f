// Conta's sessions: where the person is signed in (the browser and system the device said, the
// address, the last use), this one marked; end one, or every other.
import { ask } from './chat-dialog.js';
import { toast } from './chat-ui.js';
import { $, api, el, showError } from './common.js';
import { locale, t, tn } from './i18n.js';

// "Firefox · Linux" from a User-Agent, as far as it says.
export function deviceName(ua) {
  if (!ua) return t('sessions.unknown.device');
  const browser = /Edg\//.test(ua) ? 'Edge' : /OPR\//.test(ua) ? 'Opera' : /Firefox\//.test(ua) ? 'Firefox'
    : /Chrom(e|ium)\//.test(ua) ? 'Chrome' : /Version\/.*Safari\//.test(ua) ? 'Safari' : null;
  const system = /Android/.test(ua) ? 'Android' : /iPhone|iPad|iPod/.test(ua) ? 'iOS' : /CrOS/.test(ua) ? 'ChromeOS'
    : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : null;
  return [browser, system].filter(Boolean).join(' · ') || ua.slice(0, 60);
}

function sessionItem(s) {
  const when = new Date(s.lastUsedAt).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
  const about = [s.address, t('sessions.used', { when })].filter(Boolean).join(' · ');
  return el('li', { class: 'session', 'data-id': s.id },
    el('span', {}, el('strong', { text: deviceName(s.device) }), s.current ? ' ' : '', s.current ? el('span', { class: 'pin-tag', text: t('sessions.this') }) : '',
      el('br'), el('small', { class: 'muted', text: about })),
    s.current ? '' : el('button', { type: 'button', class: 'secondary small-button', text: t('sessions.end'),
                                    'aria-label': t('sessions.end.label', { device: deviceName(s.device) }), onclick: () => endOne(s) }));
}

export async function loadSessions() {
  try {
    const { sessions } = await api('GET', '/api/users/@me/sessions');
    $('#sessions').replaceChildren(...sessions.map(sessionItem));
    $('#sessions-end-others').disabled = sessions.length < 2;
  } catch (e) {
    showError($('#account-error'), e);
  }
}

async function endOne(s) {
  if (!(await ask(t('sessions.end.ask', { device: deviceName(s.device) }), t('sessions.end.text'), { confirm: t('sessions.end'), danger: true }))) return;
  try {
    await api('DELETE', `/api/users/@me/sessions/${s.id}`);
    await loadSessions();
  } catch (e) {
    showError($('#account-error'), e);
  }
}

export function wireSessions() {
  $('#sessions-end-others').addEventListener('click', async () => {
    if (!(await ask(t('sessions.others.ask'), t('sessions.end.text'), { confirm: t('app.sessions-end-others'), danger: true }))) return;
    try {
      const { revoked } = await api('DELETE', '/api/users/@me/sessions');
      toast(tn('sessions.others.done', revoked));
      await loadSessions();
    } catch (e) {
      showError($('#account-error'), e);
    }
  });
}
