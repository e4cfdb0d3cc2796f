// A call through the SFU (Janus's VideoRoom, over its WebSocket): the page publishes its
// microphone (and camera or screen) once, on one connection, and receives everyone else's on
// another, whatever the call's size. Praça hands over everything needed with voice:join: the
// room, this person's feed number, a room token on the room's list while they may be there,
// and a signed token for Janus's own requests (renewed by a join again). Loaded with the call.
// Janus speaks first to a request with an ack, then with an event; both are matched by the
// request's transaction.

const KEEPALIVE_MS = 25000; // Janus forgets a session after 60 s of silence
const PLUGIN = 'janus.plugin.videoroom';

// Opens the SFU's side of a call: on.track(feedId, track, stream, mid, description) for each
// stream received, on.gone(mids) for those that ended, on.state(s) for the receiving
// connection's state, 'kicked' and 'closed'.
export async function openSfu(sfu, config, on) {
  const ws = new WebSocket(sfu.url, 'janus-protocol');
  const waiting = new Map(); // transaction → { resolve, reject, ack }
  const handles = new Map(); // handle ID → its events' listener
  let token = sfu.sessionToken;
  let session = 0, closed = false, n = 0;

  const send = (msg, ack = false) => new Promise((resolve, reject) => {
    if (closed) return reject(new Error('sfu: closed'));
    const transaction = `t${++n}`;
    waiting.set(transaction, { resolve, reject, ack });
    ws.send(JSON.stringify({ ...msg, transaction, token, ...(session && { session_id: session }) }));
  });
  ws.onmessage = ({ data }) => {
    let m;
    try { m = JSON.parse(data); } catch { return; }
    const w = m.transaction && waiting.get(m.transaction);
    if (w && (m.janus !== 'ack' || w.ack)) {
      waiting.delete(m.transaction);
      const error = m.janus === 'error' ? m.error && m.error.reason : m.plugindata && m.plugindata.data.error;
      if (error) w.reject(new Error(`sfu: ${error}`));
      else w.resolve(m);
    } else if (!w && m.sender && handles.has(m.sender)) {
      handles.get(m.sender)(m, (m.plugindata && m.plugindata.data) || {});
    }
  };
  const done = () => {
    closed = true;
    for (const w of waiting.values()) w.reject(new Error('sfu: closed'));
    waiting.clear();
    on.state('closed');
  };
  ws.onclose = done;
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error('sfu: unreachable'));
  });
  session = (await send({ janus: 'create' })).data.id;
  const keepalive = setInterval(() => send({ janus: 'keepalive' }, true).catch(() => {}), KEEPALIVE_MS);

  // A plugin request: its answer (an event with a jsep when one is due) has its transaction.
  const ask = (handle, body, jsep) => send({ janus: 'message', handle_id: handle.id, body, ...(jsep && { jsep }) });
  // A handle on the VideoRoom; listen hears what comes unasked (others arriving, leaving).
  async function attach(listen) {
    const handle = { id: (await send({ janus: 'attach', plugin: PLUGIN })).data.id };
    handles.set(handle.id, listen);
    return handle;
  }
  const trickle = (handle) => ({ candidate }) =>
    send({ janus: 'trickle', handle_id: handle.id, candidate: candidate ? candidate.toJSON() : { completed: true } }, true).catch(() => {});

  // ---- receiving: one connection for every other feed ----
  const sub = { pc: new RTCPeerConnection(config), handle: null, have: new Set(), streams: [], queue: Promise.resolve() };
  sub.pc.onicecandidate = (e) => sub.handle && trickle(sub.handle)(e);
  sub.pc.onconnectionstatechange = () => on.state(sub.pc.connectionState);
  // What each of the connection's streams (by mid) is told to be now: a feed, or gone. Janus
  // reuses a mid for another stream, and a browser fires no track event for a receiver it
  // already had, so the streams are told from Janus's list, not from track events.
  const shown = new Map(); // mid → feed
  const tell = () => {
    const live = new Map(sub.streams.filter((x) => x.active !== false).map((x) => [x.mid, x]));
    const gone = [...shown].filter(([mid, feed]) => !live.has(mid) || live.get(mid).feed_id !== feed).map(([mid]) => mid);
    for (const mid of gone) shown.delete(mid);
    if (gone.length) on.gone(gone);
    for (const [mid, x] of live) {
      const t = sub.pc.getTransceivers().find((y) => y.mid === mid);
      if (!t || shown.get(mid) === x.feed_id) continue;
      shown.set(mid, x.feed_id);
      on.track(x.feed_id, t.receiver.track, new MediaStream([t.receiver.track]), mid, x.feed_description || '');
    }
  };
  async function answerOffer(m) {
    const data = m.plugindata.data;
    sub.streams = (data.streams || []).filter((x) => x.feed_id);
    // A stream that ended is asked for again if its publisher comes back.
    for (const x of sub.streams.filter((y) => y.active === false)) sub.have.delete(`${x.feed_id}/${x.feed_mid}`);
    await sub.pc.setRemoteDescription(m.jsep);
    await sub.pc.setLocalDescription(await sub.pc.createAnswer());
    tell();
    await ask(sub.handle, { request: 'start' }, { type: 'answer', sdp: sub.pc.localDescription.sdp });
  }
  // Subscribes to the streams of the publishers listed that are not received yet (a publisher
  // that adds its camera is listed again, with one stream more).
  // A stream its publisher turned off (a camera, a screen) is let go of.
  const subscribe = (publishers) => {
    const fresh = [], off = [];
    for (const p of publishers) {
      if (p.id === sfu.feedId) continue;
      for (const st of p.streams || [{ mid: '' }]) {
        const key = `${p.id}/${st.mid}`;
        if (st.disabled && sub.have.delete(key)) off.push({ feed: p.id, mid: st.mid });
        if (st.disabled || sub.have.has(key)) continue;
        sub.have.add(key);
        fresh.push(st.mid ? { feed: p.id, mid: st.mid } : { feed: p.id });
      }
    }
    if (off.length && sub.handle) {
      sub.queue = sub.queue.then(async () => {
        const m = await ask(sub.handle, { request: 'unsubscribe', streams: off });
        if (m.jsep) await answerOffer(m);
      }).catch(warn);
    }
    if (!fresh.length) return sub.queue;
    sub.queue = sub.queue.then(async () => {
      if (!sub.handle) {
        sub.handle = await attach((m) => { if (m.jsep) sub.queue = sub.queue.then(() => answerOffer(m)).catch(warn); });
        await answerOffer(await ask(sub.handle, { request: 'join', ptype: 'subscriber', room: sfu.room, token: sfu.token, streams: fresh }));
      } else {
        const m = await ask(sub.handle, { request: 'subscribe', streams: fresh });
        if (m.jsep) await answerOffer(m);
      }
    }).catch(warn);
    return sub.queue;
  };
  // A publisher left (or was kicked): its streams are over, and asked for again if it returns.
  const forget = (feed) => {
    for (const key of [...sub.have]) if (key.startsWith(`${feed}/`)) sub.have.delete(key);
    sub.streams = sub.streams.filter((x) => x.feed_id !== feed);
    tell();
  };

  // ---- publishing: my streams on one connection ----
  const pub = { pc: new RTCPeerConnection(config), handle: null, kinds: new Map() }; // transceiver → kind
  pub.handle = await attach((m, data) => {
    if (data.publishers && data.publishers.length) subscribe(data.publishers);
    const left = data.unpublished || data.leaving || data.kicked;
    if (left && left !== 'ok') forget(left);
    if (data.leaving === 'ok' && data.reason === 'kicked') on.state('kicked');
  });
  pub.pc.onicecandidate = trickle(pub.handle);
  const joined = await ask(pub.handle, { request: 'join', ptype: 'publisher', room: sfu.room, id: sfu.feedId, token: sfu.token });
  const first = joined.plugindata.data.publishers || [];

  let negotiating = Promise.resolve();
  // Sends what the publisher connection holds now (a first offer, or a track more or less).
  const publish = () => {
    negotiating = negotiating.then(async () => {
      if (closed || !pub.pc.getSenders().some((s) => s.track)) return;
      await pub.pc.setLocalDescription(await pub.pc.createOffer());
      const descriptions = [...pub.kinds].filter(([t]) => t.mid).map(([t, kind]) => ({ mid: t.mid, description: kind }));
      const m = await ask(pub.handle, { request: 'configure', audio: true, video: true, descriptions },
                          { type: 'offer', sdp: pub.pc.localDescription.sdp });
      if (m.jsep) await pub.pc.setRemoteDescription(m.jsep);
    }).catch(warn);
    return negotiating;
  };

  const self = {
    sub: sub.pc,
    pub: pub.pc,
    // Adds one of my tracks (kind: audio, camera or screen); the publisher renegotiates.
    async add(track, stream, kind) {
      const t = pub.pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
      pub.kinds.set(t, kind);
      await publish();
      return t.sender;
    },
    async remove(sender) {
      const t = pub.pc.getTransceivers().find((x) => x.sender === sender);
      if (t) pub.kinds.delete(t);
      pub.pc.removeTrack(sender);
      await publish();
    },
    setToken(t) { token = t; },
    close() {
      if (closed) return;
      clearInterval(keepalive);
      send({ janus: 'destroy' }, true).catch(() => {});
      closed = true;
      sub.pc.close();
      pub.pc.close();
      setTimeout(() => ws.close(), 200);
    },
  };
  subscribe(first);
  return self;
}

const warn = (e) => console.warn('voice:', e);
