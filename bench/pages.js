// What the benches that drive Chromium share: a person's /app in a context of its own, live.
'use strict';

async function openPage(browser, base, who, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'session', value: who.token, url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/app`);
  await page.waitForSelector('#live.on');
  return page;
}

module.exports = { openPage };
