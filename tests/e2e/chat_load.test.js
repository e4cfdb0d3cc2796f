// The chat client under load in headless Chromium: a channel of 10,000 messages opens at its
// newest and pages back; 50 messages a second arrive live, and the page keeps only the newest
// 200. What the page went through (time to open, long tasks, the longest gap between frames) is
// printed as one JSON line for bench/RESULTS.md, never asserted as a timing.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, serverWithMembers, launchChromium } = require('./helpers');

const HISTORY = 10000;
const PAGES_BACK = 20;
const BURST_PER_S = 50;
const BURST_S = 10;

// Runs fn(i) for i in [0, n) with `width` calls in flight.
async function pool(n, width, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await fn(next++);
  }));
}

test('10,000 messages open at the newest and page back; 50 a second arrive live', { timeout: 600000 }, async () => {
  const srv = await startServer({ args: ['--rate-limit-scale', '100000'] });
  const browser = await launchChromium();
  try {
    const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
    const cid = server.channels[0].id;
    const post = (who, content) => api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: who.token, body: { content } });
    await pool(HISTORY, 8, (i) => post(ana, `histórico ${i + 1}`));

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'session', value: bia.token, url: srv.url }]);
    // Long tasks and the gaps between animation frames, from the first script on.
    await context.addInitScript(() => {
      window.__load = { longTasks: [], maxFrameGap: 0 };
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__load.longTasks.push(e.duration); })
        .observe({ type: 'longtask', buffered: true });
      let last = performance.now();
      const frame = (t) => { window.__load.maxFrameGap = Math.max(window.__load.maxFrameGap, t - last); last = t; requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const t0 = Date.now();
    await page.goto(`${srv.url}/app`);
    await page.waitForSelector(`.message:has-text("histórico ${HISTORY}")`);
    const openMs = Date.now() - t0;
    await page.waitForSelector('#live.on');
    assert.equal(await page.locator('.message').count(), 50, 'the newest page, not the whole channel');
    const reset = () => page.evaluate(() => { const l = window.__load; const r = { longTasks: l.longTasks, maxFrameGap: l.maxFrameGap }; l.longTasks = []; l.maxFrameGap = 0; return r; });
    const opening = await reset();

    const t1 = Date.now();
    for (let p = 1; p <= PAGES_BACK; p++) {
      await page.evaluate(() => { document.querySelector('#messages').scrollTop = 0; });
      await page.waitForFunction((n) => document.querySelectorAll('.message').length >= n, 50 * (p + 1));
    }
    const backMs = Date.now() - t1;
    assert.equal(await page.$eval('.message .content', (e) => e.textContent), `histórico ${HISTORY - 50 * (PAGES_BACK + 1) + 1}`);
    const paging = await reset();
    await page.evaluate(() => { const l = document.querySelector('#messages'); l.scrollTop = l.scrollHeight; });

    const t2 = Date.now();
    for (let s = 0; s < BURST_S; s++) {
      const tick = Date.now();
      await pool(BURST_PER_S, 4, (i) => post(ana, `ao vivo ${s * BURST_PER_S + i + 1}`));
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - tick))));
    }
    const sentMs = Date.now() - t2;
    const total = BURST_PER_S * BURST_S;
    await page.waitForFunction((last) => [...document.querySelectorAll('.message .content')].some((c) => c.textContent === last), `ao vivo ${total}`, { timeout: 60000 });
    const burst = await reset();
    // A page left at the end holds the newest 200 messages, in order; the older ones went.
    const shown = await page.$$eval('.message .content', (cs) => cs.map((c) => c.textContent));
    assert.deepEqual(shown, Array.from({ length: 200 }, (_, i) => `ao vivo ${total - 199 + i}`));
    assert.equal(await page.evaluate(() => praca.chat.messages.size), 200);
    const sum = (xs) => Math.round(xs.reduce((a, b) => a + b, 0));
    console.log(JSON.stringify({
      scenario: 'chat-load', history: HISTORY,
      openMs, openLongTasks: opening.longTasks.length, openLongestTaskMs: Math.round(Math.max(0, ...opening.longTasks)),
      pagesBack: PAGES_BACK, pagingMs: backMs, pagingLongTaskMs: sum(paging.longTasks), pagingMaxFrameGapMs: Math.round(paging.maxFrameGap),
      burst: `${BURST_PER_S}/s for ${BURST_S} s`, burstSendMs: sentMs, burstLongTasks: burst.longTasks.length,
      burstLongestTaskMs: Math.round(Math.max(0, ...burst.longTasks)), burstMaxFrameGapMs: Math.round(burst.maxFrameGap),
      domMessages: await page.locator('.message').count(),
    }));
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    await browser.close();
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});
