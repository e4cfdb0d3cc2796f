// The people's page against WCAG 2 A and AA (axe-core): /app with messages, a reply, reactions,
// Markdown, a file, and a message's menu open, light and dark, at a desktop's width and a
// phone's. Any violation fails the test with what and where.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startServer, api, upload, serverWithMembers, launchChromium } = require('./helpers');

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const NOTE = fs.readFileSync(path.join(__dirname, 'fixtures', 'note.png'));
let srv;
let browser;
let world;

test.before(async () => {
  srv = await startServer({ args: ['--rate-limit-scale', '100'] });
  browser = await launchChromium();
  const { owner: ana, members: [bia], sid, server } = await serverWithMembers(srv.url, 1);
  const cid = server.channels[0].id;
  const path_ = `/api/servers/${sid}/channels/${cid}/messages`;
  const say = async (who, body) => (await api(srv.url, 'POST', path_, { token: who.token, body })).body.message;
  const first = await say(bia, { content: 'Bom dia! **Reunião** às 10h, veja `agenda.md` e https://example.com' });
  await say(ana, { content: 'Combinado, ||surpresa|| guardada', replyToId: first.id });
  await api(srv.url, 'POST', `${path_}/${first.id}/react`, { token: ana.token, body: { emoji: '👍' } });
  await upload(srv.url, 'POST', path_, bia.token, { content: 'a pauta' }, [{ name: 'nota.png', type: 'image/png', data: NOTE }]);
  await say(bia, { content: `> uma citação\n- um item\n- outro @${ana.user.username}` });
  world = { ana, sid, cid };
});

test.after(async () => {
  if (browser) await browser.close();
  const r = await srv.stop();
  assert.equal(r.code, 0, srv.stderr);
});

// axe's violations, one line each: rule, impact, the first few elements.
async function violations(page) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => (await window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  })).violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`));
  return found;
}

for (const [label, viewport] of [['1280', { width: 1280, height: 800 }], ['390', { width: 390, height: 844 }]]) {
  for (const scheme of ['light', 'dark']) {
    test(`${label} px, ${scheme}: no WCAG 2 A/AA violation in a room with a reply, reactions, a file and a menu open`, async () => {
      // The page's CSP keeps out any script it did not serve; axe is the test's, let in here only.
      const context = await browser.newContext({ viewport, colorScheme: scheme, bypassCSP: true });
      await context.addCookies([{ name: 'session', value: world.ana.token, url: srv.url }]);
      const page = await context.newPage();
      await page.goto(`${srv.url}/app#server=${world.sid}&channel=${world.cid}`);
      await page.waitForSelector('#live.on');
      await page.waitForSelector('.message:has-text("a pauta") img');
      await page.waitForSelector('.message .reaction:has-text("👍")');
      const plain = await violations(page);
      const li = page.locator('.message:has-text("Reunião")').first();
      await li.hover();
      await li.locator('.actions-inline button.more').click();
      await page.waitForSelector('.menu [role=menuitem]');
      const withMenu = await violations(page);
      assert.deepEqual([...new Set([...plain, ...withMenu])], []);
      await context.close();
    });
  }
}

test('every page names Praça\'s icon and the manifest, and the icon is served', async () => {
  for (const page of ['/app', '/login', '/developers', '/docs', '/invite/x', '/explorar', '/nada-aqui']) {
    const html = await (await fetch(srv.url + page, { headers: { cookie: `session=${world.ana.token}` } })).text();
    assert.match(html, /<link rel="icon" href="\/static\/icon\.svg" type="image\/svg\+xml">/, page);
    assert.match(html, /<link rel="manifest" href="\/manifest\.webmanifest">/, page);
  }
  const icon = await fetch(`${srv.url}/static/icon.svg`);
  assert.equal(icon.status, 200);
  assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
  assert.match(await icon.text(), /^<svg/);
});
