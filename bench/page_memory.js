// A person's page left open on a busy channel: MINUTES (default 10) at RATE messages a second
// (default 20) arriving live while the page sits at the bottom. Every minute, after a garbage
// collection, the page's JavaScript heap, its DOM nodes and the messages it holds are printed as
// one JSON line, so bench/RESULTS.md can say how its memory grows with the messages.
//
//   PRACA_BIN=build/praca node bench/page_memory.js            (MINUTES=2 RATE=20 for a short run)
'use strict';
const { startServer, api, serverWithMembers, launchChromium } = require('../tests/e2e/helpers');

const MINUTES = Number(process.env.MINUTES || 10);
const RATE = Number(process.env.RATE || 20);

async function main() {
  const srv = await startServer({ args: ['--rate-limit-scale', '100000'] });
  const browser = await launchChromium();
  try {
    const { owner: ana, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
    const cid = server.channels[0].id;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'session', value: bia.token, url: srv.url }]);
    const page = await context.newPage();
    await page.goto(`${srv.url}/app`);
    await page.waitForSelector('#live.on');
    await page.waitForSelector('#composer:not([hidden])');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const sample = async (minute, sent) => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
      const shown = await page.evaluate(() => ({ dom: document.querySelectorAll('.message').length, held: praca.chat.messages.size }));
      console.log(JSON.stringify({ minute, sent, heapMB: +(m.JSHeapUsedSize / 1048576).toFixed(2), domNodes: m.Nodes,
                                   messagesInDom: shown.dom, messagesHeld: shown.held }));
    };
    await sample(0, 0);
    let sent = 0;
    for (let minute = 1; minute <= MINUTES; minute++) {
      const end = Date.now() + 60000;
      while (Date.now() < end) {
        const tick = Date.now();
        await Promise.all(Array.from({ length: RATE }, () =>
          api(srv.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: ana.token, body: { content: `mensagem ${++sent} com um pouco de texto, como uma conversa de verdade` } })));
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - tick))));
      }
      await page.waitForSelector(`.message:has-text("mensagem ${sent} ")`);
      await sample(minute, sent);
    }
  } finally {
    await browser.close();
    await srv.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
