// The settings' webhooks: a channel's secret URLs for other services (CI, monitoring, GitHub,
// Slack-shaped alerts) to post through. The URL shows once, when made or renewed.
import { ask, askText } from './chat-dialog.js';
import { chat } from './chat-store.js';
import { $, api, copyText, el, showError } from './common.js';
import { t } from './i18n.js';

const textChannels = () => chat.allChannels.filter((c) => c.type === 'text');
const channelName = (id) => (chat.allChannels.find((c) => c.id === id) || { name: '?' }).name;

// The URL just made or renewed, with how to use it; it is not shown again.
function showUrl(name, url) {
  const copy = el('button', { type: 'button', class: 'secondary small-button', text: t('app.invite-copy') });
  copy.onclick = () => copyText(url, copy);
  $('#webhook-new').replaceChildren(
    el('p', { text: t('webhook.url.once', { name }) }),
    el('div', { class: 'webhook-url' }, el('code', { text: url }), copy),
    el('p', { class: 'muted small', text: t('webhook.how') }));
  $('#webhook-new').hidden = false;
}

async function act(fn) {
  $('#settings-error').hidden = true;
  try {
    await fn();
    await loadWebhooks();
  } catch (e) {
    showError($('#settings-error'), e);
  }
}

function webhookItem(h) {
  const path = `/api/servers/${chat.sid}/webhooks/${h.id}`;
  const move = el('select', { 'aria-label': t('webhook.channel.of', { name: h.name }) }, ...textChannels().map((c) => el('option', { value: c.id, text: `#${c.name}` })));
  move.value = h.channelId;
  move.onchange = () => act(() => api('PATCH', path, { channelId: move.value }));
  const button = (text, fn, cls = 'link-button small') => el('button', { type: 'button', class: cls, text, onclick: fn });
  return el('li', { class: 'webhook' },
    el('span', {}, el('strong', { text: h.name }), el('br'), el('small', { class: 'muted', text: t('webhook.in', { channel: channelName(h.channelId) }) })),
    el('span', { class: 'webhook-actions' }, move,
      button(t('rename'), async () => {
        const name = await askText(t('webhook.rename', { name: h.name }), t('webhook.new.name'), { value: h.name, required: true, maxLength: 80 });
        if (name && name.trim()) act(() => api('PATCH', path, { name: name.trim() }));
      }),
      button(t('webhook.new.url'), async () => (await ask(t('webhook.new.url.ask', { name: h.name }), t('webhook.new.url.text'), { confirm: t('webhook.make') })) &&
        act(async () => { const r = await api('POST', `${path}/token`); showUrl(h.name, r.url); })),
      button(t('delete'), async () => (await ask(t('channel.delete.ask', { name: h.name }), t('webhook.delete.text'), { confirm: t('delete'), danger: true })) &&
        act(() => api('DELETE', path)), 'link-button small danger-link')));
}

export async function loadWebhooks() {
  const { webhooks } = await api('GET', `/api/servers/${chat.sid}/webhooks`);
  $('#webhooks').replaceChildren(...webhooks.map(webhookItem));
  $('#no-webhooks').hidden = webhooks.length > 0;
  const select = $('#webhook-channel');
  const keep = select.value;
  select.replaceChildren(...textChannels().map((c) => el('option', { value: c.id, text: `#${c.name}` })));
  if (keep) select.value = keep;
}

export function wireWebhooks() {
  $('#webhook-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('#webhook-name').value.trim();
    // The list of channels may still be on its way: the first text channel, as it will show.
    const channel = $('#webhook-channel').value || (textChannels()[0] || {}).id;
    if (!channel) return;
    act(async () => {
      const r = await api('POST', `/api/servers/${chat.sid}/channels/${channel}/webhooks`, { name });
      $('#webhook-form').reset();
      showUrl(r.webhook.name, r.url);
    });
  });
}
