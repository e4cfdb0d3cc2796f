// My status, from the header: online, away, do not disturb (no notifications), invisible (shown
// offline, still reading and sending), and a status text. Away comes by itself after ten
// minutes without a key or a pointer moving, and goes when one does.
import { askText } from './chat-dialog.js';
import { openMenu } from './chat-menu.js';
import { chat, meChanged } from './chat-store.js';
import { statusLabel, toast } from './chat-ui.js';
import { $, api } from './common.js';
import { t } from './i18n.js';

const IDLE_AFTER_MS = 10 * 60 * 1000;
const CHOICES = ['online', 'idle', 'dnd', 'invisible'];
let auto = false; // away because nothing moved, not by choice
let idleTimer = 0;

const presence = () => chat.me.presence || { status: 'online', activity: null };
export const doNotDisturb = () => presence().status === 'dnd';

function paint() {
  const { status, activity } = presence();
  const shown = status === 'invisible' ? 'offline' : status;
  $('#my-status').className = `status ${shown}`;
  const text = activity && activity.name ? ` — ${activity.name}` : '';
  const label = `${statusLabel(status === 'invisible' ? 'invisible' : shown)}${text}`;
  $('#status-open').title = label;
  // What is read starts with what is shown (the name), then the status.
  $('#status-open').setAttribute('aria-label', `${$('#who').textContent}, ${t('status.open.label')}: ${label}`);
}

async function setStatus(status, activity = presence().activity) {
  try {
    const { presence: now } = await api('PUT', '/api/users/@me/presence', { status, activity });
    meChanged({ ...chat.me, presence: now });
    paint();
  } catch (e) {
    toast(e);
  }
}

function menu() {
  const items = CHOICES.map((s) => ({ label: `${presence().status === s ? '✓ ' : ''}${t(`status.choose.${s}`)}`, run: () => { auto = false; setStatus(s); } }));
  items.push({ label: t('status.text.set'), run: async () => {
    const text = await askText(t('status.text.title'), t('status.text.field'), { value: (presence().activity || {}).name || '', maxLength: 128 });
    if (text === null) return;
    setStatus(presence().status, text.trim() ? { type: 'custom', name: text.trim() } : null);
  } });
  if (presence().activity) items.push({ label: t('status.text.clear'), run: () => setStatus(presence().status, null) });
  openMenu($('#status-open'), t('status.open.label'), items);
}

// Ten minutes with nothing moving: away, until something does (only when online by choice).
function activity() {
  clearTimeout(idleTimer);
  if (auto) {
    auto = false;
    setStatus('online');
  }
  idleTimer = setTimeout(() => {
    if (presence().status !== 'online') return;
    auto = true;
    setStatus('idle');
  }, IDLE_AFTER_MS);
}

export function wireStatus() {
  paint();
  $('#status-open').addEventListener('click', menu);
  for (const kind of ['keydown', 'pointerdown', 'pointermove']) document.addEventListener(kind, activity, { passive: true });
  activity();
}

