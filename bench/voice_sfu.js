// Voice calls through the SFU (Janus's VideoRoom from Debian, set up from deploy/janus/), with
// pages in headless Chromium sending a fake microphone (a beep each half second):
//  - join to first audio: a page already in a call on the SFU, another clicks "Entrar"; the time
//    until it has received the first's audio (getStats inbound bytes > 0), JOINS times, p50/p99;
//  - CONECTAR_VOZ taken from a participant to their feed out of Janus's room, REVOKES times;
//  - calls of each size in SIZES for SECONDS: what each participant sends and receives (kbit/s,
//    getStats), Janus's CPU (its threads' run time) and Praça's, and the browser's per page. Up
//    to FULL participants are whole pages of /app that hear everyone; past that, the others only
//    send (a bare page that publishes a tone to the room with the place its
//    voice:join handed out): two cores cannot decode 25 × 24 streams, and what Janus does per
//    forwarded stream is measured either way.
//
//   JOINS=20 REVOKES=10 SIZES=10,25 FULL=10 SECONDS=20 PRACA_BIN=build/praca node bench/voice_sfu.js
'use strict';
const { startServer, api, serverWithMembers, launchChromium, gatewayConnect } = require('../tests/e2e/helpers');
const { openPage } = require('./pages');
const { startJanus } = require('../tests/e2e/janus');
const { cpuNs, descendantsTicks, pct } = require('./measure');
const { P } = require('../tests/e2e/permissions');

const JOINS = Number(process.env.JOINS || 20);
const SIZES = (process.env.SIZES || '10,25').split(',').map(Number);
const SECONDS = Number(process.env.SECONDS || 20);
const FULL = Number(process.env.FULL || 10);
const REVOKES = Number(process.env.REVOKES || 10);
let idleJanusPct = 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));



const onPage = (page, fn) => page.evaluate(async (name) => (await import('/static/chat-call.js'))[name](), fn);

async function join(page, vcid) {
  await page.click(`.voice[data-id="${vcid}"] button:has-text("Entrar")`);
  await page.waitForSelector('#call-bar:not([hidden])');
}

async function leave(page) {
  await page.click('#call-leave');
  await page.waitForSelector('#call-bar', { state: 'hidden' });
}

// A server of `n` people (the first its owner) with a voice channel; each person's session.
async function world(base, n) {
  const { owner, sid, members } = await serverWithMembers(base, n - 1);
  const ch = await api(base, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'Sala', type: 'voice' } });
  return { people: [owner, ...members], vcid: ch.body.channel.id, sid };
}

async function joinsToFirstAudio(browser, base) {
  const { people: [a, b], vcid } = await world(base, 2);
  const first = await openPage(browser, base, a);
  await join(first, vcid);
  const second = await openPage(browser, base, b);
  const times = [];
  for (let i = 0; i < JOINS; i++) {
    const t0 = Date.now();
    await join(second, vcid);
    for (;;) {
      const r = (await onPage(second, 'received'))[a.user.id];
      if (r && r.bytes > 0) break;
      await sleep(10);
    }
    times.push(Date.now() - t0);
    await leave(second);
    await sleep(300);
  }
  console.log(JSON.stringify({ measure: 'join to first audio, on the SFU', joins: JOINS, p50Ms: pct(times, 0.5), p99Ms: pct(times, 0.99), maxMs: Math.max(...times) }));
  await first.context().close();
  await second.context().close();
}

// A participant that only sends: joins over its own gateway connection, then publishes a tone
// to the room from a bare page of Praça's origin (whose policy lets it reach Janus).
async function sender(browser, base, who, vcid, sockets) {
  const socket = await gatewayConnect(base, { auth: { token: who.token } }, sockets);
  const joined = await socket.timeout(10000).emitWithAck('voice:join', { channelId: vcid });
  if (!joined.sfu) throw new Error(`no place on the SFU: ${JSON.stringify(joined)}`);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.evaluate(async (sfu) => {
    const ws = new WebSocket(sfu.url, 'janus-protocol');
    await new Promise((resolve) => { ws.onopen = resolve; });
    let n = 0, session = 0;
    const waiting = new Map();
    ws.onmessage = ({ data }) => {
      const m = JSON.parse(data);
      if (m.janus !== 'ack' && waiting.has(m.transaction)) waiting.get(m.transaction)(m);
    };
    const send = (msg) => new Promise((resolve) => {
      const transaction = `s${++n}`;
      waiting.set(transaction, resolve);
      ws.send(JSON.stringify({ ...msg, transaction, token: sfu.sessionToken, ...(session && { session_id: session }) }));
    });
    session = (await send({ janus: 'create' })).data.id;
    const handle = (await send({ janus: 'attach', plugin: 'janus.plugin.videoroom' })).data.id;
    await send({ janus: 'message', handle_id: handle, body: { request: 'join', ptype: 'publisher', room: sfu.room, id: sfu.feedId, token: sfu.token } });
    const pc = new RTCPeerConnection();
    // A tone from Web Audio rather than the fake microphone, which Chromium opens only so often.
    const audio = new AudioContext(), tone = audio.createOscillator(), out = audio.createMediaStreamDestination();
    tone.connect(out);
    tone.start();
    pc.addTransceiver(out.stream.getAudioTracks()[0], { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((resolve) => { if (pc.iceGatheringState === 'complete') resolve(); else pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve(); });
    const m = await send({ janus: 'message', handle_id: handle, body: { request: 'configure', audio: true }, jsep: { type: 'offer', sdp: pc.localDescription.sdp } });
    await pc.setRemoteDescription(m.jsep);
    setInterval(() => ws.send(JSON.stringify({ janus: 'keepalive', session_id: session, transaction: `k${++n}`, token: sfu.sessionToken })), 25000);
    window.benchTraffic = async () => {
      let sent = 0;
      for (const r of (await pc.getStats()).values()) if (r.type === 'outbound-rtp') sent += r.bytesSent;
      return { sent, received: 0 };
    };
  }, joined.sfu);
  page.feed = joined.sfu.feedId;
  page.room = joined.sfu.room;
  return page;
}

// From the overwrite that takes CONECTAR_VOZ away to the feed out of Janus's room (asked every
// 20 ms), REVOKES times, p50 and p99.
async function revocations(browser, base, janus) {
  const { people: [owner, member], vcid, sid } = await world(base, 2);
  const times = [], sockets = [];
  const overwrite = `/api/servers/${sid}/channels/${vcid}/overwrites/${member.user.id}`;
  for (let i = 0; i < REVOKES; i++) {
    const page = await sender(browser, base, member, vcid, sockets);
    while (!(await janus.participants(page.room)).includes(page.feed)) await sleep(20);
    const t0 = Date.now();
    await api(base, 'PUT', overwrite, { token: owner.token, body: { type: 'member', allow: 0, deny: P.CONECTAR_VOZ } });
    while ((await janus.participants(page.room)).includes(page.feed)) await sleep(20);
    times.push(Date.now() - t0);
    await api(base, 'DELETE', overwrite, { token: owner.token });
    await page.context().close();
    for (const s of sockets.splice(0)) s.disconnect();
  }
  console.log(JSON.stringify({ measure: 'CONECTAR_VOZ taken → out of the SFU room', revokes: REVOKES, p50Ms: pct(times, 0.5), p99Ms: pct(times, 0.99), maxMs: Math.max(...times) }));
}

async function callOf(browser, base, janus, srv, n) {
  const { people, vcid } = await world(base, n);
  const full = Math.min(n, FULL), sockets = [];
  const senders = [];
  for (const who of people.slice(full)) senders.push(await sender(browser, base, who, vcid, sockets));
  const pages = [];
  for (const who of people.slice(0, full)) {
    const page = await openPage(browser, base, who);
    await join(page, vcid);
    pages.push(page);
  }
  // Every page hears every other before the measure.
  const until = Date.now() + 60000;
  for (const page of pages) {
    for (;;) {
      const heard = Object.values(await onPage(page, 'received')).filter((r) => r.bytes > 0).length;
      if (heard >= n - 1 || Date.now() > until) break;
      await sleep(200);
    }
  }
  const heard = await Promise.all(pages.map(async (p) => Object.values(await onPage(p, 'received')).filter((r) => r.bytes > 0).length));
  const traffic = () => Promise.all([...pages.map((p) => onPage(p, 'traffic')), ...senders.map((p) => p.evaluate(() => window.benchTraffic()))]);
  const before = await traffic();
  const janus0 = cpuNs(janus.pid), praca0 = cpuNs(srv.proc.pid), ticks0 = descendantsTicks(srv.proc.pid, janus.pid), t0 = Date.now();
  await sleep(SECONDS * 1000);
  const after = await traffic();
  const seconds = (Date.now() - t0) / 1000;
  const janusMs = (cpuNs(janus.pid) - janus0) / 1e6, pracaMs = (cpuNs(srv.proc.pid) - praca0) / 1e6;
  const browserMs = ((descendantsTicks(srv.proc.pid, janus.pid) - ticks0) / 100) * 1000;
  const kbits = (k) => after.map((a, i) => ((a[k] - before[i][k]) * 8) / 1000 / seconds);
  const sent = kbits('sent'), got = kbits('received').slice(0, full);
  const streams = full * (n - 1); // what Janus forwards: each one's audio to each page that hears
  console.log(JSON.stringify({
    measure: `a call of ${n} on the SFU`, seconds: +seconds.toFixed(1), pagesHearingEveryone: `${heard.filter((h) => h >= n - 1).length} of ${full}`,
    sendersOnly: n - full, forwardedStreams: streams,
    sentKbitPerParticipant: +(sent.reduce((x, y) => x + y, 0) / n).toFixed(1),
    receivedKbitPerHearingPage: +(got.reduce((x, y) => x + y, 0) / full).toFixed(1),
    janusCpuPct: +((janusMs / (seconds * 1000)) * 100).toFixed(2),
    janusIdleCpuPct: +idleJanusPct.toFixed(2),
    pracaCpuMsPerMinute: +(pracaMs * (60 / seconds)).toFixed(1),
    browserCpuPct: +((browserMs / (seconds * 1000)) * 100).toFixed(1),
  }));
  for (const page of [...pages, ...senders]) await page.context().close();
  for (const s of sockets) s.disconnect();
}

async function main() {
  const janus = await startJanus();
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '1000', '--access-log=0', '--voice-mesh-max', '0',
                                                       '--sfu-url', janus.api, '--sfu-ws-url', janus.ws, '--sfu-secret', janus.secret] });
  const browser = await launchChromium();
  try {
    // Janus with nobody in it, for what a call adds.
    const idle0 = cpuNs(janus.pid), i0 = Date.now();
    await sleep(SECONDS * 1000);
    idleJanusPct = ((cpuNs(janus.pid) - idle0) / 1e6 / (Date.now() - i0)) * 100;
    console.log(JSON.stringify({ measure: 'Janus with no call', seconds: SECONDS, janusCpuPct: +idleJanusPct.toFixed(2) }));
    await joinsToFirstAudio(browser, srv.url);
    await revocations(browser, srv.url, janus);
    for (const n of SIZES) await callOf(browser, srv.url, janus, srv, n);
  } finally {
    await browser.close();
    await srv.stop();
    janus.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
