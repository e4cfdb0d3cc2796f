// The developer portal's "Endpoint de eventos" card (tab Eventos): where the bot's events are
// POSTed, pause and resume, replay from a position, and the delivery log (docs/api.md, "Events
// pushed over HTTP").
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';

function deliveryRow(d) {
  const ok = d.status >= 200 && d.status < 300;
  const span = d.firstPosition === d.lastPosition ? d.firstPosition : `${d.firstPosition}–${d.lastPosition}`;
  return el('tr', {},
    el('td', { text: new Date(d.createdAt).toLocaleTimeString(locale()) }),
    el('td', { 'data-label': t('dev.posicoes').toLowerCase(), text: span }),
    el('td', { 'data-label': t('dev.eventos').toLowerCase(), text: String(d.events) }, d.gap ? el('span', { class: 'badge kind', text: t('dev.gap') }) : ''),
    el('td', {}, el('span', { class: ok ? 'badge ok' : 'badge held', text: ok ? `${d.status}` : (d.status ? `${d.status}` : t('live.no.answer')) }),
       ok ? '' : ` ${d.error || ''}`),
    el('td', { 'data-label': t('dev.latencia').toLowerCase(), text: `${d.latencyMs} ms` }));
}

export function renderPush(config) {
  const on = Boolean(config.eventsEndpointUrl);
  if (document.activeElement !== $('#push-url')) $('#push-url').value = config.eventsEndpointUrl || '';
  $('#push-state').textContent = !on
    ? t('dev.push.none')
    : t(config.paused ? 'dev.push.paused' : 'dev.push.on', { cursor: config.cursor, last: config.lastPosition });
  $('#push-pause').hidden = !on || config.paused;
  $('#push-resume').hidden = !on || !config.paused;
  $('#push-replay-form').hidden = !on;
  const rows = $('#push-rows');
  rows.replaceChildren(...config.deliveries.map(deliveryRow));
  $('#push-table').hidden = config.deliveries.length === 0;
}

// Reads the configuration of app; called by the console's poll while the tab is open.
export async function loadPush(app) {
  try {
    renderPush(await api('GET', `/api/applications/${app.id}/events-config`));
    $('#push-error').hidden = true;
  } catch (e) {
    showError($('#push-error'), e);
  }
}

export function wirePush(currentApp, guarded) {
  const base = () => `/api/applications/${currentApp().id}/events-config`;
  const act = (fn) => guarded($('#push-error'), async () => renderPush(await fn()));
  $('#push-save').addEventListener('click', act(() =>
    api('PUT', base(), { eventsEndpointUrl: $('#push-url').value.trim() || null })));
  $('#push-pause').addEventListener('click', act(() => api('POST', `${base()}/pause`)));
  $('#push-resume').addEventListener('click', act(() => api('POST', `${base()}/resume`)));
  $('#push-replay-form').addEventListener('submit', act(() =>
    api('POST', `${base()}/replay`, { after: $('#push-replay').value.trim() })));
}
