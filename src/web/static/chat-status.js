// My status, from the header: online, away, do not disturb (no notifications), invisible (shown
// offline, still reading and sending), and a status text. Away comes by itself after ten
// minutes without a key or a pointer moving, and goes when one does. A status text may start with
// an emoji (kept apart, as the card shows it) and be cleared after a while.
import { askChoice } from './chat-dialog.js';
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
  const text = activity && activity.name ? ` — ${activity.emoji ? `${activity.emoji} ` : ''}${activity.name}` : '';
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

// How long a status text stays: the choices Discord offers.
const CLEAR_AFTER = [['never', 0], ['30m', 30 * 60 * 1000], ['1h', 60 * 60 * 1000], ['4h', 4 * 60 * 60 * 1000], ['today', -1]];
const LEADING_EMOJI = /^(\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic}|\p{Emoji_Modifier})*)\s*/u;

export function customStatus(text, clear, now = new Date()) {
  const found = text.match(LEADING_EMOJI);
  const name = (found ? text.slice(found[0].length) : text).trim() || (found ? found[1] : text);
  const activity = { type: 'custom', name: name.slice(0, 128) };
  if (found && name !== found[1]) activity.emoji = found[1];
  const ms = (CLEAR_AFTER.find(([v]) => v === clear) || [])[1];
  if (ms > 0) activity.expiresAt = new Date(now.getTime() + ms).toISOString();
  if (ms === -1) activity.expiresAt = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).toISOString();
  return activity;
}

function menu() {
  const items = CHOICES.map((s) => ({ label: `${presence().status === s ? '✓ ' : ''}${t(`status.choose.${s}`)}`, run: () => { auto = false; setStatus(s); } }));
  items.push({ label: t('status.text.set'), run: async () => {
    const answer = await askChoice(t('status.text.title'), t('status.clear.after'), CLEAR_AFTER.map(([v]) => [v, t(`status.clear.${v}`)]),
                                   { wordsLabel: t('status.text.field'), maxLength: 160, confirm: t('dialog.save') });
    if (!answer) return;
    setStatus(presence().status, answer.words ? customStatus(answer.words, answer.choice) : null);
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

