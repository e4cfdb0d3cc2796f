// Voice channels in the channel list: who is in each, live, and a way in and out (the page
// carries no audio: joining makes one a participant for the bots and clients that do).
import { nameOf } from './chat-messages.js';
import { chat, voiceJoined, voiceLeft, voiceRead } from './chat-store.js';
import { toast, view } from './chat-ui.js';
import { $, api, el } from './common.js';
import { t } from './i18n.js';

// A voice channel: its name, whether I am in it, and its participants (no audio in the page:
// joining makes me a participant for the bots and clients that carry the audio).
export function voiceChannel(c) {
  const people = chat.voice.get(c.id) || [];
  const inside = people.some((p) => p.userId === chat.me.id);
  return el('div', { class: 'voice', 'data-id': c.id },
    el('span', { class: 'channel other', text: `🔊 ${c.name}` }),
    el('button', { type: 'button', class: 'voice-toggle', text: inside ? t('voice.leave') : t('voice.join'),
                   'aria-label': t(inside ? 'voice.leave.label' : 'voice.join.label', { name: c.name }),
                   title: t('voice.no.audio'),
                   onclick: () => (inside ? leaveVoice(c) : joinVoice(c)) }),
    el('ul', { class: 'voice-people', 'aria-label': t('voice.people', { name: c.name }) },
      ...people.map((p) => el('li', { text: `${p.muted ? '🔇' : '🎙'} ${nameOf(p.userId)}` }))));
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

async function joinVoice(c) {
  try {
    const joined = await view.gateway.emitWithAck('voice:join', { channelId: c.id });
    if (!joined.ok) throw Object.assign(new Error(joined.error), { status: joined.status });
    voiceJoined(c.id, joined.participants);
    paintVoice(c.id);
  } catch (e) {
    toast(e);
  }
}

async function leaveVoice(c) {
  try {
    const left = await view.gateway.emitWithAck('voice:leave', { channelId: c.id });
    if (!left.ok) throw Object.assign(new Error(left.error), { status: left.status });
    voiceLeft(c.id);
    paintVoice(c.id);
  } catch (e) {
    toast(e);
  }
}
