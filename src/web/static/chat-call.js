// A call in a voice channel: one RTCPeerConnection per other participant (a mesh, for a handful
// of people), negotiated over the gateway's channel_voice:signal with the "perfect negotiation"
// pattern (the smaller user ID is polite and yields when two offers cross), audio only, with the
// browser's echo cancellation, noise suppression and gain control. Loaded on the first join, so
// the page pays nothing for it until then. Media flow only between people the gateway says are
// in the room now: one who leaves it (or loses the right to be there) is hung up on at once.
// Each connection has an ID that grows with time, sent with its signals: a signal from a newer
// connection of the same person (their page reconnected and called again) replaces the old one,
// and one from an older connection is left unanswered. Past a mesh's size the gateway moves the
// call to the SFU (chat-sfu.js): then people's media go through it, one connection each way, and
// only bots keep a connection of their own.
import { chat } from './chat-store.js';
import { view } from './chat-ui.js';
import { el } from './common.js';

const SPEAKING = 0.015; // the RMS level over which someone is speaking
const HANGOVER_MS = 600; // still speaking this long after the level fell (between words)
const TICK_MS = 50; // levels read this often (an analyser's window is 43 ms)
const CONNECT_MS = 10000; // a connection not up by then tries another path (an ICE restart)…
const RESTARTS = 1; // …this many times, then says it failed
const QUALITY_MS = 2000; // each connection's round trip and losses read this often

let call = null;

export const inCall = (cid) => !!call && (!cid || call.channelId === cid);
export const callState = () => call && { channelId: call.channelId, muted: call.muted, deafened: call.deafened,
                                         camera: !!call.shown.camera, screen: !!call.shown.screen,
                                         canSpeak: call.canSpeak, ptt: call.ptt, talking: call.talking, micId: call.micId,
                                         speakerId: call.speakerId, volumes: call.volumes, sfu: !!call.sfu };
export const speaking = (uid) => !!call && call.speaking.has(uid);
// The state of my connection to uid: connecting, connected or failed ('' when not in the call).
export const linkOf = (uid) => (call && call.peers.get(uid) ? call.peers.get(uid).link : '');
// The peers no connection could reach, and whether a TURN server was there to help.
export const unreachable = () => (call ? [...call.peers.values()].filter((p) => p.link === 'failed').map((p) => p.uid) : []);
export const hasTurn = () => !!call && call.config.iceServers.some((s) => [].concat(s.urls).some((u) => /^turns?:/.test(u)));

// Starts the call that voice:join's answer describes; onChange repaints what shows it, onName
// names a video tile (a person's name, and whose screen).
export async function startCall(channelId, joined, onChange, onName) {
  stopCall();
  const next = {
    channelId, onChange, onName, peers: new Map(), speaking: new Set(), heardAt: new Map(), muted: false, deafened: false,
    canSpeak: joined.canSpeak !== false, stream: null, noMic: false,
    config: { iceServers: joined.iceServers || [], iceTransportPolicy: joined.iceTransportPolicy || 'all' },
    audio: new AudioContext(), sink: el('div', { class: 'call-audio', hidden: true }),
    shown: { camera: null, screen: null }, // my video streams, each while it is on
    here: participantSet(joined), sfuStreams: new Map(), ...chosen(), talking: false,
  };
  try {
    next.stream = await navigator.mediaDevices.getUserMedia({ audio: microphone(next.micId) });
  } catch {
    next.noMic = true; // listening only: the others are still heard
  }
  if (call) stopCall(); // another join won meanwhile
  call = next;
  document.body.append(call.sink);
  call.meter = call.stream ? meter(call.stream) : () => 0;
  applyMic();
  if (joined.sfu) await throughSfu(joined);
  else for (const p of joined.participants || []) if (p.userId !== chat.me.id) peer(p.userId);
  call.timer = setInterval(tick, TICK_MS);
  call.measuring = setInterval(measure, QUALITY_MS);
  onChange();
}

export function stopCall() {
  if (!call) return;
  const was = call;
  call = null;
  clearInterval(was.timer);
  clearInterval(was.measuring);
  if (was.sfu) was.sfu.close();
  for (const p of was.peers.values()) if (!p.shared) p.pc.close();
  for (const stream of [was.stream, was.shown.camera, was.shown.screen])
    if (stream) for (const track of stream.getTracks()) track.stop();
  was.audio.close().catch(() => {});
  was.sink.remove();
  stage().replaceChildren();
  stage().hidden = true;
  was.onChange();
}

// The participants as the gateway says now: whoever is not among them is hung up on.
export function participantsNow(channelId, participants) {
  if (!call || channelId !== call.channelId) return;
  call.here = new Set(participants.map((p) => p.userId));
  for (const p of [...call.peers.values()]) if (!call.here.has(p.uid)) hangUp(p);
  placeSfu();
  call.onChange();
}

const participantSet = (joined) => (Array.isArray(joined.participants) ? new Set(joined.participants.map((p) => p.userId)) : null);

// Joined again (the gateway connection came back): every connection is made anew, as by one
// who just arrived, since the others hung up when the old session ended (and the SFU let go of
// the old one's feed).
export async function rejoined(channelId, joined) {
  if (!call || channelId !== call.channelId) return;
  for (const p of [...call.peers.values()]) hangUp(p);
  call.here = participantSet(joined) || call.here;
  if (joined.sfu) await throughSfu(joined);
  else for (const p of joined.participants) if (p.userId !== chat.me.id) peer(p.userId);
  call.onChange();
}

// ---- through the SFU ----

export const onSfu = () => !!call && !!call.sfu;
// How many connections carry my sound: one to the SFU, or one per other participant.
export const sending = () => (call && call.sfu ? 1 : 0) + [...(call ? call.peers.values() : [])].filter((p) => !p.shared).length;

// Whose each feed is, and the bots reached directly, as voice:media or a join's answer says.
export function feedsNow(channelId, media) {
  if (!call || channelId !== call.channelId || !call.sfu) return;
  call.feeds = new Map((media.feeds || []).map((f) => [f.feedId, f.userId]));
  call.bots = new Set(media.bots || []);
  for (const p of [...call.peers.values()]) if (p.shared && p.feed && call.feeds.get(p.feed) !== p.uid) hangUp(p);
  placeSfu();
  call.onChange();
}

// The call moves onto the SFU (or its session there begins anew): the people's direct
// connections give way to it; the bots' stay.
async function throughSfu(joined) {
  const { openSfu } = await import('./chat-sfu.js');
  if (call.sfu) call.sfu.close();
  for (const p of [...call.peers.values()]) if (p.shared || !(joined.bots || []).includes(p.uid)) hangUp(p);
  const here = call, mine = {}; // what the SFU's news are for: this call, this session there
  call.sfu = null;
  call.sfuStreams = new Map();
  call.sfuSession = mine;
  call.sfuExpiresAt = joined.sfu.expiresAt;
  const current = () => here === call && call.sfuSession === mine;
  const sfu = await openSfu(joined.sfu, call.config, {
    track: (feed, track, stream, mid, description) => current() && sfuTrack(feed, track, stream, mid, description),
    gone: (mids) => { if (current()) sfuGone(mids); },
    state: (s) => { if (current()) sfuState(s); },
  });
  if (!current()) return sfu.close();
  call.sfu = sfu;
  feedsNow(call.channelId, joined);
  for (const uid of call.bots) peer(uid); // a bot that comes later calls me itself
  if (call.stream) call.sfuAudio = await sfu.add(call.stream.getAudioTracks()[0], call.stream, 'audio');
  for (const kind of ['camera', 'screen']) if (call.shown[kind]) show(null, kind);
}

export async function moveToSfu(channelId, joined) {
  if (call && channelId === call.channelId && joined.sfu) await throughSfu(joined);
}

// What the SFU sends is kept by mid, and people are placed from it whenever it, the feeds or the
// participants change: news that arrive in another order (a feed the gateway has not named yet,
// a participants list from before someone joined again, as two nodes may deliver them) only
// delay a person's sound, never lose it.
function sfuTrack(feed, track, stream, mid, description) {
  call.sfuStreams.set(mid, { feed, track, stream, description });
  placeSfu();
  call.onChange();
}

function placeSfu() {
  if (!call.sfu) return;
  for (const [mid, { feed, track, stream, description }] of call.sfuStreams) {
    const uid = call.feeds.get(feed);
    if (!uid || (call.here && !call.here.has(uid))) continue;
    let p = call.peers.get(uid);
    if (!p || !p.shared || p.feed !== feed) {
      if (p) hangUp(p);
      p = { uid, pc: call.sfu.sub, shared: true, feed, link: linkFor(call.sfu.sub.connectionState), level: () => 0, out: null,
            tiles: new Map(), media: {}, senders: {}, restarts: 0, deadline: Infinity, videos: new Map() };
      call.peers.set(uid, p);
    }
    if (track.kind === 'audio') {
      if (p.mid === mid) continue;
      p.mid = mid;
      hear(p, stream);
    } else if (!p.videos.has(mid)) {
      p.media[stream.id] = description === 'screen' ? 'screen' : 'camera';
      p.videos.set(mid, stream.id);
      see(p, stream);
    }
  }
}

// Streams the SFU no longer sends: a person's sound (they are gone), or a video (its tile goes).
function sfuGone(mids) {
  for (const mid of mids) call.sfuStreams.delete(mid);
  for (const p of [...call.peers.values()]) {
    if (!p.shared) continue;
    if (mids.includes(p.mid)) {
      hangUp(p);
      continue;
    }
    for (const [mid, id] of p.videos) {
      if (!mids.includes(mid)) continue;
      if (p.tiles.has(id)) p.tiles.get(id).remove();
      p.tiles.delete(id);
      p.videos.delete(mid);
    }
  }
  paintStage();
  call.onChange();
}

const linkFor = (state) => (state === 'connected' ? 'connected' : state === 'failed' || state === 'closed' ? 'failed' : 'connecting');

function sfuState(state) {
  for (const p of call.peers.values()) if (p.shared) p.link = linkFor(state);
  call.onChange();
}

// Fresh ICE servers from a join's answer (a TURN credential lives minutes): the paths found from
// now on use them, and a connection relayed through TURN looks for a new path at once (an ICE
// restart: the sound goes on over the old one meanwhile), before its credential runs out. The
// SFU's token is renewed the same way.
export async function iceServersNow(joined) {
  if (!call || !Array.isArray(joined.iceServers)) return;
  call.config = { ...call.config, iceServers: joined.iceServers };
  if (call.sfu && joined.sfu) {
    call.sfu.setToken(joined.sfu.sessionToken);
    call.sfuExpiresAt = joined.sfu.expiresAt;
  }
  for (const p of [...call.peers.values()]) {
    if (p.shared) continue;
    p.pc.setConfiguration(call.config);
    const { local } = pathOf([...(await p.pc.getStats()).values()]);
    if (local && local.candidateType === 'relay' && p.pc.signalingState !== 'closed') p.pc.restartIce();
  }
}

// When the call's first credential runs out (TURN's username is "EXPIRY:USER_ID"; the SFU's
// token says its own), in ms since the epoch; 0 without one.
export function expiresAt() {
  const turn = call && call.config.iceServers.find((x) => typeof x.username === 'string' && /^\d+:/.test(x.username));
  const ends = [turn && Number(turn.username.split(':')[0]) * 1000, call && call.sfu && call.sfuExpiresAt].filter(Boolean);
  return ends.length ? Math.min(...ends) : 0;
}

function hangUp(p) {
  if (!p.shared) p.pc.close();
  if (p.out) p.out.remove();
  for (const tile of p.tiles.values()) tile.remove();
  paintStage();
  call.peers.delete(p.uid);
  call.heardAt.delete(p.uid);
}

// Each connection's quality from its round trip and the audio lost since the last reading:
// good, fair (a delay or some loss one hears) or poor (hard to follow), as a hint on each name.
async function measure() {
  if (!call) return;
  const now = await received();
  let changed = false;
  for (const p of call.peers.values()) {
    const r = now[p.uid];
    if (!r || r.rttMs === null) continue;
    const before = p.counted || { lost: 0, packets: 0 };
    const lost = Math.max(0, r.lost - before.lost), packets = Math.max(1, r.packets - before.packets);
    p.counted = { lost: r.lost, packets: r.packets };
    const loss = lost / (lost + packets);
    const quality = r.rttMs > 400 || loss > 0.1 ? 'poor' : r.rttMs > 200 || loss > 0.03 ? 'fair' : 'good';
    p.rttMs = r.rttMs;
    changed = changed || quality !== p.quality;
    p.quality = quality;
  }
  if (changed && call) call.onChange();
}

// A connection's quality hint: good, fair or poor, and its round trip ('' before the first reading).
export const qualityOf = (uid) => {
  const p = call && call.peers.get(uid);
  return p && p.quality ? { quality: p.quality, rttMs: p.rttMs } : null;
};

// Bytes of media sent and received over all the connections (RTP), for measuring a call.
export async function traffic() {
  let sent = 0, got = 0;
  const pcs = new Set([...(call ? call.peers.values() : [])].map((p) => p.pc));
  if (call && call.sfu) pcs.add(call.sfu.pub).add(call.sfu.sub);
  for (const pc of pcs) {
    for (const r of (await pc.getStats()).values()) {
      if (r.type === 'outbound-rtp') sent += r.bytesSent;
      if (r.type === 'inbound-rtp') got += r.bytesReceived;
    }
  }
  return { sent, received: got };
}

// The path a connection uses, from its getStats reports: the candidate pair chosen and its local
// side (host, srflx or relay); both undefined before one is chosen.
function pathOf(reports) {
  const pair = reports.find((r) => r.type === 'candidate-pair' && r.nominated && r.state === 'succeeded');
  return { pair, local: pair && reports.find((r) => r.id === pair.localCandidateId) };
}

// What each connection received: audio bytes and the last audio level (getStats), for the
// connection-quality hint and for whoever checks that sound arrives.
export async function received() {
  if (!call) return {};
  const out = {};
  for (const p of call.peers.values()) {
    const reports = [...(await p.pc.getStats()).values()];
    const audio = reports.find((r) => r.type === 'inbound-rtp' && r.kind === 'audio' && (!p.shared || r.mid === p.mid));
    const { pair, local } = pathOf(reports);
    out[p.uid] = { bytes: audio ? audio.bytesReceived : 0, level: audio ? audio.audioLevel || 0 : 0,
                   lost: audio ? audio.packetsLost : 0, packets: audio ? audio.packetsReceived : 0, rttMs: pair ? Math.round(pair.currentRoundTripTime * 1000) : null,
                   via: local ? local.candidateType : null };
  }
  return out;
}

export function setMuted(muted) {
  if (!call) return;
  call.muted = muted;
  if (!muted) call.deafened = false; // speaking again means hearing again, as on Discord
  applyMic();
  call.onChange();
}

// Deafened is muted too; hearing again gives back the mute one had before.
export function setDeafened(deafened) {
  if (!call) return;
  if (deafened && !call.deafened) call.mutedBefore = call.muted;
  call.muted = deafened ? true : !!call.mutedBefore;
  call.deafened = deafened;
  applyMic();
  call.onChange();
}

export function setCanSpeak(canSpeak) {
  if (!call) return;
  call.canSpeak = canSpeak;
  applyMic();
  call.onChange();
}

// A relayed signal: a description (offer or answer) or an ICE candidate from another participant.
export function signalCame({ channelId, fromUserId, data }) {
  if (!call || channelId !== call.channelId || !data || typeof data !== 'object') return;
  if (call.sfu && [...call.feeds.values()].includes(fromUserId)) return; // people: through the SFU
  const from = String(data.pc || '');
  let p = call.peers.get(fromUserId);
  if (p && p.remote && from !== p.remote) {
    if (older(from, p.remote)) return; // from a connection replaced since
    hangUp(p); // they called again: the old connection is gone on their side
    p = null;
  }
  p = p || peer(fromUserId);
  p.remote = from;
  p.queue = p.queue.then(() => apply(p, data)).catch((e) => console.warn('voice:', e));
}

// Connection IDs are "MILLISECONDS-RANDOM": the earlier one is older.
const older = (a, b) => Number(a.split('-')[0]) < Number(b.split('-')[0]);
const newId = () => `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

async function apply(p, data) {
  const { pc } = p;
  if (pc.signalingState === 'closed') return;
  if (data.media && typeof data.media === 'object') {
    p.media = data.media;
    for (const [id, tile] of p.tiles) tile.dataset.kind = p.media[id] || 'camera';
  }
  if (data.description) {
    const offer = data.description.type === 'offer';
    const collision = offer && (p.makingOffer || pc.signalingState !== 'stable');
    p.ignoreOffer = !p.polite && collision;
    if (p.ignoreOffer) return;
    await pc.setRemoteDescription(data.description);
    if (offer) {
      await pc.setLocalDescription();
      send(p, { description: plain(pc.localDescription), media: labels() });
    }
  } else if (data.candidate) {
    try {
      await pc.addIceCandidate(data.candidate);
    } catch (e) {
      if (!p.ignoreOffer) throw e;
    }
  }
}

const plain = (d) => ({ type: d.type, sdp: d.sdp });

function send(p, data) {
  if (!call || !view.gateway || call.peers.get(p.uid) !== p) return;
  view.gateway.emitWithAck('channel_voice:signal', { channelId: call.channelId, toUserId: p.uid, data: { pc: p.id, ...data } })
    .then((r) => { if (!r.ok) console.warn('voice: signal refused:', r.error); }, () => {});
}

// My connection to uid, made on first need (a participant I found, or one whose offer came).
function peer(uid) {
  const known = call.peers.get(uid);
  if (known) return known;
  const pc = new RTCPeerConnection(call.config);
  const p = { uid, pc, id: newId(), remote: '', polite: chat.me.id < uid, makingOffer: false, ignoreOffer: false,
              link: 'connecting', restarts: 0, deadline: Date.now() + CONNECT_MS, queue: Promise.resolve(),
              level: () => 0, out: null, tiles: new Map(), media: {}, senders: {} };
  call.peers.set(uid, p);
  if (call.stream) for (const track of call.stream.getTracks()) pc.addTrack(track, call.stream);
  else pc.addTransceiver('audio', { direction: 'recvonly' });
  for (const kind of ['camera', 'screen']) if (call.shown[kind]) show(p, kind);
  pc.onnegotiationneeded = async () => {
    try {
      p.makingOffer = true;
      await pc.setLocalDescription();
      send(p, { description: plain(pc.localDescription), media: labels() });
    } catch (e) {
      console.warn('voice:', e);
    } finally {
      p.makingOffer = false;
    }
  };
  pc.onicecandidate = ({ candidate }) => { if (candidate) send(p, { candidate: candidate.toJSON() }); };
  pc.ontrack = ({ track, streams }) => {
    const stream = streams[0] || new MediaStream([track]);
    if (track.kind === 'audio') hear(p, stream);
    else see(p, stream);
  };
  pc.onconnectionstatechange = () => linkChanged(p);
  return p;
}

function linkChanged(p) {
  if (!call || call.peers.get(p.uid) !== p) return;
  const state = p.pc.connectionState;
  if (state === 'connected') {
    p.link = 'connected';
    p.restarts = 0;
  } else if (state === 'failed') {
    retry(p);
  } else if (state === 'disconnected' || state === 'connecting') {
    p.deadline = Math.min(p.deadline, Date.now() + CONNECT_MS);
    if (p.link === 'connected') p.link = 'connecting';
  }
  call.onChange();
}

// A connection that failed, or is not up in time (no path found: ICE would wait forever): another
// path is looked for (a network change, a path that closed), then it is said to have failed.
function retry(p) {
  p.deadline = Date.now() + CONNECT_MS;
  if (p.restarts < RESTARTS) {
    p.restarts++;
    p.pc.restartIce();
  } else if (p.link !== 'failed') {
    p.link = 'failed';
    call.onChange();
  }
}

// What uid says, played and measured (a remote stream is only heard through a media element).
function hear(p, stream) {
  if (p.out) p.out.remove();
  p.out = el('audio', { autoplay: true });
  p.out.srcObject = stream;
  p.out.muted = call.deafened;
  p.out.volume = call.volumes[p.uid] ?? 1;
  if (call.speakerId && p.out.setSinkId) p.out.setSinkId(call.speakerId).catch(() => {});
  call.sink.append(p.out);
  p.level = meter(stream);
}

function meter(stream) {
  const analyser = call.audio.createAnalyser();
  analyser.fftSize = 2048;
  call.audio.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  return () => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const v of samples) sum += v * v;
    return Math.sqrt(sum / samples.length);
  };
}

function applyMic() {
  const on = !call.muted && call.canSpeak && (!call.ptt || call.talking);
  if (call.stream) for (const track of call.stream.getAudioTracks()) track.enabled = on;
  for (const p of call.peers.values()) if (p.out) p.out.muted = call.deafened;
}

// Who is speaking now, and the peers to let go; repaints only on a change.
function tick() {
  if (!call) return;
  if (call.audio.state === 'suspended') call.audio.resume().catch(() => {});
  const now = Date.now();
  for (const p of call.peers.values())
    if (!p.shared && p.link !== 'connected' && p.pc.connectionState !== 'connected' && now > p.deadline) retry(p);
  if (!call.muted && call.canSpeak && (!call.ptt || call.talking) && call.meter() > SPEAKING) call.heardAt.set(chat.me.id, now);
  for (const p of call.peers.values()) if (p.level() > SPEAKING) call.heardAt.set(p.uid, now);
  const speaking = new Set([...call.heardAt].filter(([uid, at]) => now - at < HANGOVER_MS &&
    (uid === chat.me.id ? !call.muted && (!call.ptt || call.talking) : call.peers.has(uid))).map(([uid]) => uid));
  const changed = speaking.size !== call.speaking.size || [...speaking].some((u) => !call.speaking.has(u));
  call.speaking = speaking;
  if (changed) call.onChange();
}

// ---- camera and screen ----

const stage = () => document.getElementById('call-stage');

// Which of my streams is which, sent with each description: the others label their tiles.
function labels() {
  const out = {};
  for (const kind of ['camera', 'screen']) if (call.shown[kind]) out[call.shown[kind].id] = kind;
  return out;
}

// Turns my camera or my screen on or off; the connections renegotiate by themselves.
export async function setVideo(kind, on) {
  if (!call || !!call.shown[kind] === on) return;
  if (on) {
    const stream = kind === 'camera'
      ? await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } } })
      : await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    if (!call) return stream.getTracks().forEach((track) => track.stop());
    call.shown[kind] = stream;
    // The browser's own "stop sharing" ends the track: the same as the button.
    stream.getVideoTracks()[0].addEventListener('ended', () => setVideo(kind, false));
    for (const p of call.peers.values()) if (!p.shared) show(p, kind);
    if (call.sfu) show(null, kind);
    tile('me', kind, stream, chat.me.id);
  } else {
    const stream = call.shown[kind];
    call.shown[kind] = null;
    for (const p of call.peers.values()) {
      if (p.senders[kind] && p.pc.signalingState !== 'closed') p.pc.removeTrack(p.senders[kind]);
      delete p.senders[kind];
    }
    if (call.sfu && call.sfuVideo && call.sfuVideo[kind]) call.sfu.remove(call.sfuVideo[kind]);
    for (const track of stream.getTracks()) track.stop();
    const mine = stage().querySelector(`[data-owner=me][data-kind=${kind}]`);
    if (mine) mine.remove();
  }
  paintStage();
  call.onChange();
}

// My stream of that kind to p, or (p null) to the SFU.
async function show(p, kind) {
  const stream = call.shown[kind];
  if (p) p.senders[kind] = p.pc.addTrack(stream.getVideoTracks()[0], stream);
  else (call.sfuVideo = call.sfuVideo || {})[kind] = await call.sfu.add(stream.getVideoTracks()[0], stream, kind);
}

// A video from p: a tile while its stream has a video track.
function see(p, stream) {
  if (p.tiles.has(stream.id)) return;
  const t = tile(p.uid, p.media[stream.id] || 'camera', stream, p.uid);
  p.tiles.set(stream.id, t);
  stream.addEventListener('removetrack', () => {
    if (stream.getVideoTracks().length) return;
    t.remove();
    p.tiles.delete(stream.id);
    paintStage();
  });
  paintStage();
}

function tile(owner, kind, stream, uid) {
  const video = el('video', { autoplay: true, playsinline: true, muted: true });
  video.muted = true; // the sound comes with the audio connection
  video.srcObject = stream;
  const t = el('figure', { class: 'call-tile', 'data-owner': owner, 'data-user': uid, 'data-kind': kind },
    video, el('figcaption', { text: call.onName(uid, kind) }));
  stage().append(t);
  return t;
}

function paintStage() {
  const s = stage();
  s.hidden = !call || !s.children.length;
}

// ---- the person's choices: devices, push-to-talk, each one's volume (kept in this browser) ----

const KEPT = 'praca.call';

function chosen() {
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem(KEPT)) || {};
  } catch { /* none yet, or not readable */ }
  return { micId: kept.micId || '', speakerId: kept.speakerId || '', ptt: !!kept.ptt,
           volumes: kept.volumes && typeof kept.volumes === 'object' ? kept.volumes : {} };
}

function keep() {
  const { micId, speakerId, ptt, volumes } = call;
  try {
    localStorage.setItem(KEPT, JSON.stringify({ micId, speakerId, ptt, volumes }));
  } catch { /* private mode: chosen for this call only */ }
}

const microphone = (micId) => ({ echoCancellation: true, noiseSuppression: true, autoGainControl: true,
                                 ...(micId && { deviceId: { exact: micId } }) });

export async function devices() {
  const all = await navigator.mediaDevices.enumerateDevices();
  return { inputs: all.filter((d) => d.kind === 'audioinput'), outputs: all.filter((d) => d.kind === 'audiooutput') };
}

// Another microphone: its track takes the old one's place in every connection (no renegotiation).
export async function useMicrophone(micId) {
  if (!call) return;
  const stream = await navigator.mediaDevices.getUserMedia({ audio: microphone(micId) });
  const track = stream.getAudioTracks()[0];
  if (call.sfu && call.sfuAudio) await call.sfuAudio.replaceTrack(track);
  else if (call.sfu) call.sfuAudio = await call.sfu.add(track, stream, 'audio');
  for (const p of call.peers.values()) {
    if (p.shared) continue;
    const t = p.pc.getTransceivers().find((x) => x.receiver.track.kind === 'audio'); // the first: mine
    if (!t) continue;
    await t.sender.replaceTrack(track);
    if (t.direction === 'recvonly') t.direction = 'sendrecv'; // listening until now: renegotiates
  }
  if (call.stream) for (const old of call.stream.getTracks()) old.stop();
  call.stream = stream;
  call.noMic = false;
  call.meter = meter(stream);
  call.micId = micId;
  keep();
  applyMic();
  call.onChange();
}

export async function useSpeaker(speakerId) {
  if (!call) return;
  call.speakerId = speakerId;
  keep();
  for (const p of call.peers.values()) if (p.out && p.out.setSinkId) await p.out.setSinkId(speakerId);
}

export const canChooseSpeaker = () => 'setSinkId' in HTMLMediaElement.prototype;

export function setVolume(uid, volume) {
  if (!call) return;
  call.volumes[uid] = Math.min(1, Math.max(0, volume));
  const p = call.peers.get(uid);
  if (p && p.out) p.out.volume = call.volumes[uid];
  keep();
}

// Push-to-talk: the microphone is live only while talk(true) holds (a key or the button).
export function setPushToTalk(on) {
  if (!call) return;
  call.ptt = on;
  call.talking = false;
  keep();
  applyMic();
  call.onChange();
}

export function talk(on) {
  if (!call || !call.ptt || call.talking === on) return;
  call.talking = on;
  applyMic();
  call.onChange();
}
