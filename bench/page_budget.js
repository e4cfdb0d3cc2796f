// The people's page against its budget (shared/spec/client.md): what /app weighs gzipped, how
// long until the newest messages of a 10,000-message channel are on screen, and the longest
// frame while 500 messages arrive at 50 a second. One JSON line per measure.
//
//   PRACA_BIN=build/praca node bench/page_budget.js        (MESSAGES=10000 BURST=500 RATE=50)
'use strict';
const zlib = require('node:zlib');
const { startServer, api, serverWithMembers, launchChromium } = require('../tests/e2e/helpers');

const MESSAGES = Number(process.env.MESSAGES || 10000);
const BURST = Number(process.env.BURST || 500);
const RATE = Number(process.env.RATE || 50);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const srv = await startServer({ args: ['--rate-limit-scale', '100000', '--access-log=0'] });
  const browser = await launchChromium();
  try {
    const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
    const cid = server.channels[0].id;
    const path = `/api/servers/${sid}/channels/${cid}/messages`;
    const say = (i) => api(srv.url, 'POST', path, { token: ana.token, body: { content: `mensagem ${i}: **texto** com um link https://example.com/${i}` } });
    for (let i = 0; i < MESSAGES; i += 50) await Promise.all(Array.from({ length: Math.min(50, MESSAGES - i) }, (_, k) => say(i + k)));

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'session', value: bia.token, url: srv.url }]);
    const page = await context.newPage();
    // Weight: every response the page loads, gzipped as a server in front would send it.
    const bodies = [];
    page.on('response', async (r) => {
      const type = r.headers()['content-type'] || '';
      if (!/javascript|css|html|svg/.test(type)) return;
      try { bodies.push({ url: r.url(), raw: (await r.body()).length, gzip: zlib.gzipSync(await r.body(), { level: 9 }).length }); } catch { /* gone */ }
    });
    const t0 = Date.now();
    await page.goto(`${srv.url}/app#server=${sid}&channel=${cid}`);
    await page.waitForSelector(`.message:has-text("mensagem ${MESSAGES - 1}:")`);
    const firstMessageMs = await page.evaluate(() => performance.now());
    const wallMs = Date.now() - t0;
    await sleep(500);
    const weight = bodies.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
    console.log(JSON.stringify({ measure: 'weight', files: bodies.length, rawKB: +(weight.raw / 1024).toFixed(1), gzipKB: +(weight.gzip / 1024).toFixed(1) }));
    console.log(JSON.stringify({ measure: 'first message', messagesInChannel: MESSAGES, sinceNavigationMs: Math.round(firstMessageMs), wallMs }));

    // Frames: Chromium's long animation frames (any over 50 ms) and the longest frame seen.
    await page.evaluate(() => {
      window.frames_ = { longest: 0, long: 0 };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) { window.frames_.long++; window.frames_.longest = Math.max(window.frames_.longest, e.duration); }
      }).observe({ type: 'long-animation-frame', buffered: false });
      let last = performance.now();
      const tick = (now) => { window.frames_.longest = Math.max(window.frames_.longest, now - last); last = now; requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    const start = Date.now();
    for (let i = 0; i < BURST; i++) {
      say(MESSAGES + i);
      const due = start + ((i + 1) * 1000) / RATE;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    await page.waitForSelector(`.message:has-text("mensagem ${MESSAGES + BURST - 1}:")`, { timeout: 30000 });
    const frames = await page.evaluate(() => window.frames_);
    console.log(JSON.stringify({ measure: 'frames', messages: BURST, rate: RATE, longestFrameMs: Math.round(frames.longest), longFrames: frames.long }));
    await context.close();
  } finally {
    await browser.close();
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
