// Voice calls between pages (headless Chromium with a fake microphone, a beep each half second):
//  - join to first audio: a page already in the channel, another clicks "Entrar"; the time until
//    its connection to the first has received audio (getStats inbound bytes > 0), JOINS times
//    (leaving between), p50 and p99;
//  - a mesh of MESH pages for SECONDS: what each participant sends and receives (kbit/s, from
//    getStats), the server's CPU per minute (its threads' run time from /proc/PID/task/*/schedstat:
//    only signaling and the participant lists cross it), against the same pages out of the call,
//    and the browser's CPU per participant (this process's Chromium, divided by the pages).
//
//   JOINS=20 MESH=4 SECONDS=20 PRACA_BIN=build/praca node bench/voice.js
'use strict';
const { cpuNs, descendantsTicks, pct } = require('./measure');
const { openPage } = require('./pages');
const { startServer, api, serverWithMembers, launchChromium } = require('../tests/e2e/helpers');

const JOINS = Number(process.env.JOINS || 20);
const MESH = Number(process.env.MESH || 4);
const SECONDS = Number(process.env.SECONDS || 20);






const stats = (page) => page.evaluate(async () => {
  const call = await import('/static/chat-call.js');
  return call.received();
});

// Bytes each page sent and received over all its connections (RTP, audio).
const traffic = (page) => page.evaluate(async () => {
  const call = await import('/static/chat-call.js');
  return call.traffic();
});

async function join(page, vcid) {
  await page.click(`.voice[data-id="${vcid}"] button:has-text("Entrar")`);
  await page.waitForSelector('#call-bar:not([hidden])');
}

async function main() {
  const srv = await startServer({ single: true, args: ['--rate-limit-scale', '1000', '--access-log=0'] });
  const browser = await launchChromium();
  try {
    const { owner, sid, members } = await serverWithMembers(srv.url, MESH - 1);
    const ch = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'Sala', type: 'voice' } });
    const vcid = ch.body.channel.id;
    const first = await openPage(browser, srv.url, owner);
    await join(first, vcid);
    const second = await openPage(browser, srv.url, members[0]);
    const times = [];
    for (let i = 0; i < JOINS; i++) {
      const t0 = Date.now();
      await join(second, vcid);
      for (;;) {
        const r = (await stats(second))[owner.user.id];
        if (r && r.bytes > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      times.push(Date.now() - t0);
      await second.click('#call-leave');
      await second.waitForSelector('#call-bar', { state: 'hidden' });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    console.log(JSON.stringify({ measure: 'join to first audio', joins: JOINS, p50Ms: pct(times, 0.5), p99Ms: pct(times, 0.99), maxMs: Math.max(...times) }));

    const pages = [first, second];
    for (const m of members.slice(1)) pages.push(await openPage(browser, srv.url, m));
    for (const p of pages.slice(1)) await join(p, vcid);
    await new Promise((resolve) => setTimeout(resolve, 5000)); // every connection up
    const before = await Promise.all(pages.map(traffic));
    const cpu0 = cpuNs(srv.proc.pid), ticks0 = descendantsTicks(srv.proc.pid), t0 = Date.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const after = await Promise.all(pages.map(traffic));
    const seconds = (Date.now() - t0) / 1000;
    const serverMs = (cpuNs(srv.proc.pid) - cpu0) / 1e6;
    const browserMs = ((descendantsTicks(srv.proc.pid) - ticks0) / 100) * 1000; // USER_HZ 100
    const kbits = (k) => after.map((a, i) => ((a[k] - before[i][k]) * 8) / 1000 / seconds);
    const sent = kbits('sent'), got = kbits('received');
    console.log(JSON.stringify({
      measure: `mesh of ${MESH}`, seconds: +seconds.toFixed(1),
      sentKbitPerParticipant: +(sent.reduce((a, b) => a + b, 0) / MESH).toFixed(1),
      receivedKbitPerParticipant: +(got.reduce((a, b) => a + b, 0) / MESH).toFixed(1),
      serverCpuMsPerMinute: +(serverMs * (60 / seconds)).toFixed(1),
      browserCpuPctPerParticipant: +((browserMs / MESH / (seconds * 1000)) * 100).toFixed(1),
    }));
    // The same pages out of the call, for what an open page costs the server anyway.
    for (const p of pages) await p.click('#call-leave');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle0 = cpuNs(srv.proc.pid), i0 = Date.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const idleMs = (cpuNs(srv.proc.pid) - idle0) / 1e6, idleSeconds = (Date.now() - i0) / 1000;
    console.log(JSON.stringify({ measure: `the same ${MESH} pages out of the call`, seconds: +idleSeconds.toFixed(1),
      serverCpuMsPerMinute: +(idleMs * (60 / idleSeconds)).toFixed(1) }));
  } finally {
    await browser.close();
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
