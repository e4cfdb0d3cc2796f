// Voice calls through the SFU (Janus's VideoRoom from Debian, set up from deploy/janus/), with
// pages in headless Chromium sending a fake microphone (a beep each half second):
//  - join to first audio: a page already in a call on the SFU, another clicks "Entrar"; the time
//    until it has received the first's audio (getStats inbound bytes > 0), JOINS times, p50/p99;
//  - calls of each size in SIZES for SECONDS: what each participant sends and receives (kbit/s,
//    getStats), Janus's CPU (its threads' run time) and Praça's, and the browser's per page.
//
//   JOINS=20 SIZES=10,25 SECONDS=20 PRACA_BIN=build/praca node bench/voice_sfu.js
'use strict';
const { startServer, api, serverWithMembers, launchChromium } = require('../tests/e2e/helpers');
const { startJanus } = require('../tests/e2e/janus');
const { cpuNs, descendantsTicks, pct } = require('./measure');

const JOINS = Number(process.env.JOINS || 20);
const SIZES = (process.env.SIZES || '10,25').split(',').map(Number);
const SECONDS = Number(process.env.SECONDS || 20);
let idleJanusPct = 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function open(browser, base, who) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'session', value: who.token, url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/app`);
  await page.waitForSelector('#live.on');
  return page;
}

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
  return { people: [owner, ...members], vcid: ch.body.channel.id };
}

async function joinsToFirstAudio(browser, base) {
  const { people: [a, b], vcid } = await world(base, 2);
  const first = await open(browser, base, a);
  await join(first, vcid);
  const second = await open(browser, base, b);
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

async function callOf(browser, base, janus, srv, n) {
  const { people, vcid } = await world(base, n);
  const pages = [];
  for (const who of people) {
    const page = await open(browser, base, who);
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
  const before = await Promise.all(pages.map((p) => onPage(p, 'traffic')));
  const machine0 = machineTicks();
  const janus0 = cpuNs(janus.pid), praca0 = cpuNs(srv.proc.pid), ticks0 = descendantsTicks(srv.proc.pid, janus.pid), t0 = Date.now();
  await sleep(SECONDS * 1000);
  const after = await Promise.all(pages.map((p) => onPage(p, 'traffic')));
  const seconds = (Date.now() - t0) / 1000;
  const janusMs = (cpuNs(janus.pid) - janus0) / 1e6, pracaMs = (cpuNs(srv.proc.pid) - praca0) / 1e6;
  const browserMs = ((descendantsTicks(srv.proc.pid, janus.pid) - ticks0) / 100) * 1000;
  const kbits = (k) => after.map((a, i) => ((a[k] - before[i][k]) * 8) / 1000 / seconds);
  const sent = kbits('sent'), got = kbits('received');
  const streams = n * (n - 1); // what Janus forwards: each one's audio to each other one
  console.log(JSON.stringify({
    measure: `a call of ${n} on the SFU`, seconds: +seconds.toFixed(1),
    pagesHearingEveryone: heard.filter((h) => h >= n - 1).length,
    sentKbitPerParticipant: +(sent.reduce((x, y) => x + y, 0) / n).toFixed(1),
    receivedKbitPerParticipant: +(got.reduce((x, y) => x + y, 0) / n).toFixed(1),
    janusCpuPct: +((janusMs / (seconds * 1000)) * 100).toFixed(2),
    // what the call adds to an idle Janus, per stream it forwards (µs of CPU per second)
    janusCpuUsPerSecondPerForwardedStream: +((((janusMs / (seconds * 1000)) * 100 - idleJanusPct) * 10000) / streams).toFixed(1),
    // and the machine's two cores, to tell whether Chromium starved the rest
    machineBusyPct: +busyPct(machine0).toFixed(1),
    pracaCpuMsPerMinute: +(pracaMs * (60 / seconds)).toFixed(1),
    browserCpuPctPerPage: +((browserMs / n / (seconds * 1000)) * 100).toFixed(1),
  }));
  for (const page of pages) await page.context().close();
}

// The machine's busy and total ticks (/proc/stat), and the share busy since a reading.
function machineTicks() {
  const f = require('node:fs').readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { busy: f[0] + f[1] + f[2] + f[5] + f[6] + f[7], total: f.reduce((a, b) => a + b, 0) };
}
const busyPct = (from) => { const now = machineTicks(); return ((now.busy - from.busy) / (now.total - from.total)) * 100; };

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
    for (const n of SIZES) await callOf(browser, srv.url, janus, srv, n);
  } finally {
    await browser.close();
    await srv.stop();
    janus.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
