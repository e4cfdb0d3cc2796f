// Voice channels: who is in each (live, with who is speaking), a way in and out, and the call
// bar (mute, deafen, leave) while this page is in a call. The media live in chat-call.js, loaded
// on the first join.
import { nameOf } from './chat-messages.js';
import { chat, voiceJoined, voiceLeft, voiceRead } from './chat-store.js';
import { toast, view } from './chat-ui.js';
import { $, api, el } from './common.js';
import { has, t } from './i18n.js';

let call = null; // chat-call.js, once a join loaded it
let joining = null; // the channel being joined: one at a time
let callName = ''; // the call's channel, named while another server is open

const inCall = (cid) => !!call && call.inCall(cid);
// A bot in a call gets everyone's sound, as any participant does: the page says so.
const isBot = (uid) => (chat.members || []).some((m) => m.userId === uid && m.user.isBot);

function person(c, p) {
  const mine = p.userId === chat.me.id;
  const link = call && !mine && inCall(c.id) ? call.linkOf(p.userId) : '';
  const speaking = !!call && inCall(c.id) && call.speaking(p.userId);
  const q = link === 'connected' ? call.qualityOf(p.userId) : null;
  const marks = `${p.muted ? '🔇' : '🎙'}${p.deafened ? ' 🎧̸' : ''}`;
  return el('li', { class: speaking ? 'speaking' : null, 'data-user': p.userId, 'data-link': link || null,
                    'data-quality': q ? q.quality : null,
                    title: link === 'failed' ? t('call.link.failed') : q ? t(`call.quality.${q.quality}`, { ms: q.rttMs }) : null },
    el('span', { class: 'voice-dot', 'aria-hidden': 'true' }),
    `${marks} ${nameOf(p.userId)}`,
    isBot(p.userId) ? el('span', { class: 'voice-bot', title: t('call.bot.listening'), text: ' 🤖' }) : '',
    speaking ? el('span', { class: 'sr', text: t('call.speaking') }) : '');
}

// A voice channel: its name, whether I am in it, and its participants.
export function voiceChannel(c) {
  const people = chat.voice.get(c.id) || [];
  const inside = people.some((p) => p.userId === chat.me.id) && (!call || !call.callState() || inCall(c.id));
  return el('div', { class: 'voice', 'data-id': c.id },
    el('span', { class: 'channel other', text: `🔊 ${c.name}` }),
    el('button', { type: 'button', class: 'voice-toggle', text: inside ? t('voice.leave') : t('voice.join'),
                   'aria-label': t(inside ? 'voice.leave.label' : 'voice.join.label', { name: c.name }),
                   onclick: () => (inside ? leaveVoice(c.id) : joinVoice(c)) }),
    el('ul', { class: 'voice-people', 'aria-label': t('voice.people', { name: c.name }) },
      ...people.map((p) => person(c, p))));
}

export async function loadVoice(sid, channels) {
  const voice = channels.filter((c) => c.type === 'voice');
  const lists = await Promise.all(voice.map((c) =>
    api('GET', `/api/servers/${sid}/channels/${c.id}/voice-members`).then((r) => r.members, () => [])));
  if (sid !== chat.sid) return;
  voiceRead(new Map(voice.map((c, i) => [c.id, lists[i]])));
}

export function paintVoice(cid) {
  const c = chat.voiceChannels.find((v) => v.id === cid);
  const at = document.querySelector(`.voice[data-id="${cid}"]`);
  if (c && at) at.replaceWith(voiceChannel(c));
}

// The call bar: where I am, how the connections go, and mute, deafen and leave. Drawn again only
// when what it shows changed (who speaks changes many times a second; a list open in the options
// or a button held must stay).
let barDrawn = '';
function paintCall() {
  const bar = $('#call-bar');
  const state = call && call.callState();
  bar.hidden = !state;
  if (!state) {
    barDrawn = '';
    return bar.replaceChildren();
  }
  const failed = call.unreachable();
  const status = failed.length
    ? t(call.hasTurn() ? 'call.failed' : 'call.failed.no.turn', { names: failed.map(nameOf).join(', ') })
    : t('call.on');
  const people = (chat.voice.get(state.channelId) || []).map((p) => p.userId);
  const where = `🔊 ${callName}${state.sfu ? ` · ${t('call.via.sfu')}` : ''}`;
  const drawn = JSON.stringify([status, callName, state.sfu, people, optionsOpen, state.muted, state.deafened, state.camera,
                                state.screen, state.ptt, state.canSpeak]);
  const talk = document.getElementById('call-talk');
  if (talk) {
    talk.setAttribute('aria-pressed', String(state.talking));
    talk.className = `${state.talking ? 'talking' : 'secondary'} small-button`;
  }
  if (drawn === barDrawn) return;
  barDrawn = drawn;
  bar.replaceChildren(
    el('p', { class: failed.length ? 'call-status failed' : 'call-status', role: 'status', text: status }),
    el('p', { class: 'call-where', text: where, title: where }),
    (chat.voice.get(state.channelId) || []).some((p) => isBot(p.userId))
      ? el('p', { class: 'call-bot', text: `🤖 ${t('call.bot.listening')}` }) : '',
    el('div', { class: 'call-actions' },
      state.ptt && !state.muted
        ? holdToTalk(state)
        : icon('call-mute', state.muted ? '🔇' : '🎙', t(state.muted ? 'call.unmute' : 'call.mute'), 'secondary',
          () => changeState(() => call.setMuted(!state.muted)), state.muted),
      icon('call-deafen', '🎧', t(state.deafened ? 'call.undeafen' : 'call.deafen'), 'secondary',
        () => changeState(() => call.setDeafened(!state.deafened)), state.deafened),
      icon('call-camera', '📷', t(state.camera ? 'call.camera.off' : 'call.camera.on'), 'secondary',
        () => video('camera', !state.camera), state.camera),
      navigator.mediaDevices && navigator.mediaDevices.getDisplayMedia
        ? icon('call-screen', '🖥', t(state.screen ? 'call.screen.off' : 'call.screen.on'), 'secondary',
          () => video('screen', !state.screen), state.screen)
        : '',
      icon('call-options', '⚙', t('call.options'), 'secondary', () => { optionsOpen = !optionsOpen; paintCall(); }, optionsOpen),
      icon('call-leave', '📞', t('call.leave'), 'danger', () => leaveVoice(state.channelId))),
    optionsOpen ? options(state) : '');
  if (optionsOpen) fillDevices(state);
}

let optionsOpen = false;

// The call's options: which microphone and speaker, push-to-talk, and each one's volume.
function options(state) {
  const others = (chat.voice.get(state.channelId) || []).filter((p) => p.userId !== chat.me.id);
  return el('div', { class: 'call-options', id: 'call-options' },
    el('label', { for: 'call-mic', text: t('call.mic') }),
    el('select', { id: 'call-mic', onchange: (e) => call.useMicrophone(e.target.value).catch(toast) }),
    call.canChooseSpeaker() ? el('label', { for: 'call-speaker', text: t('call.speaker') }) : '',
    call.canChooseSpeaker() ? el('select', { id: 'call-speaker', onchange: (e) => call.useSpeaker(e.target.value).catch(toast) }) : '',
    el('label', { class: 'check' },
      el('input', { type: 'checkbox', id: 'call-ptt', checked: state.ptt, onchange: (e) => call.setPushToTalk(e.target.checked) }),
      ` ${t('call.ptt')}`),
    ...others.map((p) => el('label', { class: 'call-volume' }, `${nameOf(p.userId)} `,
      el('input', { type: 'range', min: '0', max: '100', step: '5', 'data-user': p.userId,
                    value: String(Math.round((state.volumes[p.userId] ?? 1) * 100)),
                    'aria-label': t('call.volume.of', { name: nameOf(p.userId) }),
                    oninput: (e) => call.setVolume(p.userId, Number(e.target.value) / 100) }))));
}

async function fillDevices(state) {
  const { inputs, outputs } = await call.devices();
  const fill = (id, list, chosen) => {
    const select = document.getElementById(id);
    if (!select) return;
    select.replaceChildren(...list.map((d, i) => el('option', { value: d.deviceId, text: d.label || t('call.device', { n: i + 1 }) })));
    if (list.some((d) => d.deviceId === chosen)) select.value = chosen;
  };
  fill('call-mic', inputs, state.micId);
  fill('call-speaker', outputs, state.speakerId);
}

// Push-to-talk: the key left of 1 (Backquote) held, away from any text field, opens the
// microphone; so does holding the bar's 🎙 button.
function pttKey(e, on) {
  if (e.code !== 'Backquote' || !call || !call.callState() || !call.callState().ptt) return;
  if (e.target.closest && e.target.closest('input, textarea, select, [contenteditable]')) return;
  e.preventDefault();
  if (!e.repeat) call.talk(on);
}
document.addEventListener('keydown', (e) => pttKey(e, true));
document.addEventListener('keyup', (e) => pttKey(e, false));
window.addEventListener('blur', () => { if (call) call.talk(false); });

function holdToTalk(state) {
  const b = icon('call-talk', '🎙', t('call.talk'), state.talking ? 'talking' : 'secondary', null, state.talking);
  b.addEventListener('pointerdown', () => call.talk(true));
  for (const end of ['pointerup', 'pointerleave', 'pointercancel']) b.addEventListener(end, () => call.talk(false));
  return b;
}

// One of the bar's buttons: an icon, its words for screen readers and the pointer's tooltip.
function icon(id, glyph, words, kind, onclick, pressed) {
  return el('button', { type: 'button', class: `${kind} small-button`, id, 'aria-label': words, title: words, text: glyph,
                        'aria-pressed': pressed === undefined ? null : String(pressed), onclick: onclick || null });
}

const tileName = (uid, kind) => (kind === 'screen' ? t('call.screen.of', { name: nameOf(uid) }) : nameOf(uid));

// The camera or the screen, on or off: refused by the person or the browser, said in a toast.
async function video(kind, on) {
  try {
    await call.setVideo(kind, on);
  } catch (e) {
    toast(e.name === 'NotAllowedError' ? t('call.video.refused') : e);
  }
}

function repaint() {
  const state = call && call.callState();
  if (state) paintVoice(state.channelId);
  else for (const c of chat.voiceChannels) paintVoice(c.id);
  paintCall();
}

async function join(channelId, muted = false, deafened = false) {
  const joined = await view.gateway.emitWithAck('voice:join', { channelId, muted, deafened });
  if (!joined.ok) throw Object.assign(new Error(joined.error), { status: joined.status });
  return joined;
}

async function joinVoice(c) {
  if (joining) return;
  joining = c.id;
  let joined = null;
  try {
    joined = await join(c.id);
    voiceJoined(c.id, joined.participants);
    callName = c.name;
    call = call || (await import('./chat-call.js'));
    await call.startCall(c.id, joined, repaint, tileName);
    renewSoon();
  } catch (e) {
    toast(sfuFailed(e) ? t('call.sfu.failed') : e);
    if (joined) await leaveVoice(c.id); // in the session, but with no media: out again
  } finally {
    joining = null;
    repaint();
  }
}

// The page could not reach the call's SFU (chat-sfu.js's errors say "sfu:").
const sfuFailed = (e) => String((e && e.message) || '').startsWith('sfu:');

// A TURN credential lives minutes (--turn-ttl-seconds): a join again, three quarters of the way
// to its end, brings a fresh one.
let renewing = null;
function renewSoon() {
  clearTimeout(renewing);
  const ends = call && call.callState() ? call.expiresAt() : 0;
  if (!ends) return;
  renewing = setTimeout(async () => {
    const state = call && call.callState();
    if (!state) return;
    try {
      const joined = await join(state.channelId, state.muted, state.deafened);
      voiceJoined(state.channelId, joined.participants);
      await call.iceServersNow(joined);
    } catch (e) {
      console.warn('voice: the TURN credential was not renewed:', e);
    }
    renewSoon();
  }, Math.max(5000, (ends - Date.now()) * 0.75));
}

async function leaveVoice(cid) {
  clearTimeout(renewing);
  if (call) call.stopCall();
  try {
    const left = await view.gateway.emitWithAck('voice:leave', { channelId: cid });
    if (!left.ok && left.status !== 404) throw Object.assign(new Error(left.error), { status: left.status });
  } catch (e) {
    toast(e);
  }
  voiceLeft(cid);
  repaint();
}

// Mute and deafen: the media at once, then the session, so everyone's list shows it.
async function changeState(apply) {
  if (!call || !call.callState()) return;
  apply();
  const state = call.callState();
  try {
    const joined = await join(state.channelId, state.muted, state.deafened);
    voiceJoined(state.channelId, joined.participants);
  } catch (e) {
    toast(e);
  }
  repaint();
}

// ---- from the live connection ----

export function voiceSignal(s) {
  if (call) call.signalCame(s);
}

export function voiceUpdated(u) {
  if (call) call.participantsNow(u.channelId, u.participants);
}

// The call is on the SFU: who each feed is; a page still calling everyone joins again for its
// place there (a join's answer carries it), once at a time.
let moving = null;
export function voiceMedia(m) {
  if (!inCall(m.channelId)) return;
  if (call.onSfu()) {
    call.feedsNow(m.channelId, m);
    return;
  }
  if (moving) return;
  const state = call.callState();
  moving = join(state.channelId, state.muted, state.deafened)
    .then((joined) => call.moveToSfu(state.channelId, joined))
    .then(renewSoon, (e) => { toast(sfuFailed(e) ? t('call.sfu.failed') : e); })
    .finally(() => { moving = null; repaint(); });
}

export function voicePermission({ channelId, canSpeak }) {
  if (inCall(channelId)) call.setCanSpeak(canSpeak);
}

// My session ended. When it was this page's connection that dropped, the page is back already
// and joins again (the media never stopped); anything else ends the call.
export function voiceEnded({ channelId, reason }) {
  if (!inCall(channelId)) return;
  if (reason === 'disconnected') {
    voiceReconnected();
    return;
  }
  call.stopCall();
  voiceLeft(channelId);
  toast(has(`call.ended.${reason}`) ? t(`call.ended.${reason}`) : t('call.ended'));
  repaint();
}

// The live connection is back: the session went with the old one, so the page joins again and
// calls everyone anew (they hung up when the session ended). Once for a reconnect: the end of
// the old session may also be told to the new connection.
let rejoinedAt = 0;
export function voiceReconnected() {
  const state = call && call.callState();
  if (!state || Date.now() - rejoinedAt < 3000) return;
  rejoinedAt = Date.now();
  join(state.channelId, state.muted, state.deafened)
    .then((joined) => {
      voiceJoined(state.channelId, joined.participants);
      return call.rejoined(state.channelId, joined);
    })
    .then(() => {
      repaint();
    })
    .catch((e) => { call.stopCall(); voiceLeft(state.channelId); toast(e); repaint(); });
}
