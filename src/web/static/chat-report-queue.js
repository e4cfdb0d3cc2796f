// The server's reports, under Moderação for those with GERENCIAR_MENSAGENS: who reported whom and
// why, the message as it was when reported, and the two ways to settle one.
import { toast } from './chat-ui.js';
import { chat } from './chat-store.js';
import { $, api, el, showError } from './common.js';
import { locale, t } from './i18n.js';

function reportItem(r) {
  const when = new Date(r.createdAt).toLocaleString(locale(), { dateStyle: 'short', timeStyle: 'short' });
  const copy = r.content ? el('blockquote', { class: 'report-copy', text: r.content.content || t('reports.no.text') }) : '';
  const settle = (status) => async () => {
    try {
      await api('PATCH', `/api/servers/${chat.sid}/reports/${r.id}`, { status });
      item.remove();
      $('#no-reports').hidden = $('#reports').children.length > 0;
      toast(t(status === 'resolved' ? 'reports.resolved' : 'reports.dismissed'));
    } catch (e) {
      showError($('#settings-error'), e);
    }
  };
  const item = el('li', { class: 'report-item', 'data-id': r.id },
    el('div', {}, el('strong', { text: r.reporterName }), ` ${t(r.messageId ? 'reports.reported.message' : 'reports.reported.member')} `,
      el('strong', { text: r.targetName }), ' ', el('span', { class: 'badge', text: t(`report.reason.${r.reason}`) }),
      el('time', { class: 'muted small', datetime: r.createdAt, text: ` ${when}` })),
    copy,
    r.details ? el('p', { class: 'small report-details', text: r.details }) : '',
    el('div', { class: 'actions' },
      el('button', { type: 'button', class: 'small', text: t('reports.resolve'), onclick: settle('resolved') }),
      el('button', { type: 'button', class: 'secondary small', text: t('reports.dismiss'), onclick: settle('dismissed') })));
  return item;
}

export async function loadReports() {
  try {
    const { reports } = await api('GET', `/api/servers/${chat.sid}/reports`);
    $('#reports').replaceChildren(...reports.map(reportItem));
    $('#no-reports').hidden = reports.length > 0;
  } catch (e) {
    showError($('#settings-error'), e);
  }
}
