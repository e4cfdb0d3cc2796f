// --presence-carry-ms: after a restart, who was online stays online while the pages come back. A
// page that comes back before the others sees them online, hears nothing when they come back,
// and hears "offline" only for one who does not come back, once the carry is over. With it off,
// every page coming back is said online again to each watcher: the wave this removes.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, serverWithMembers, gatewayConnect, eventually, quiet } = require('./helpers');

const sockets = [];
test.after(() => { for (const s of sockets) s.close(); });

// Watcher, stayer and leaver in one server, all online; then the node restarts on the same data.
async function restartWithThree(carryMs) {
  const args = ['--presence-carry-ms', String(carryMs)];
  let srv = await startServer({ single: true, args });
  const w = await serverWithMembers(srv.url, 2);
  const [stayer, leaver] = w.members;
  const page = (who) => gatewayConnect(srv.url, { auth: { token: who.token }, transports: ['websocket'] }, sockets);
  const pages = [await page(w.owner), await page(stayer), await page(leaver)];
  const status = async (who, as = w.owner) => (await api(srv.url, 'GET', `/api/servers/${w.sid}/members`, { token: as.token })).body.members
    .find((m) => m.userId === who.user.id).status;
  await eventually(async () => (await status(stayer)) === 'online' && (await status(leaver)) === 'online', 5000, 'all online');
  const stopped = await srv.stop();
  assert.equal(stopped.code, 0);
  srv = await startServer({ single: true, dir: srv.dir, args: ['--port', String(srv.port), ...args] });
  for (const p of pages) p.close();
  return { srv, w, stayer, leaver, status, page: (who) => gatewayConnect(srv.url, { auth: { token: who.token }, transports: ['websocket'] }, sockets) };
}

test('after a restart, who was online stays so while pages come back; one who does not is said offline after the carry', async () => {
  const { srv, w, stayer, leaver, status, page } = await restartWithThree(3000);
  try {
    const started = Date.now();
    const watcher = await page(w.owner);
    const said = (who) => watcher.received.filter((e) => e.name === 'PRESENCE_UPDATE' && e.payload.userId === who.user.id).map((e) => e.payload.status);
    assert.equal(await status(stayer), 'online', 'shown online before their page is back');
    assert.equal(await status(leaver), 'online');
    await page(stayer);
    await quiet(500);
    assert.deepEqual(said(stayer), [], 'coming back is no news');
    await eventually(() => said(leaver).join() === 'offline' || said(leaver), 8000, 'the one who did not come back, said offline');
    assert.ok(Date.now() - started >= 2500, `said offline after ${Date.now() - started} ms, within the carry`);
    assert.equal(await status(leaver), 'offline');
    assert.equal(await status(stayer), 'online');
    assert.deepEqual(said(stayer), [], 'the one who came back stays online, said nothing');
    assert.match(srv.stderr, /presence: 3 people carried online for 3000 ms/);
  } finally {
    await srv.stop();
  }
});

test('with --presence-carry-ms 0 a restart forgets who was online: each page back is said online again', async () => {
  const { srv, w, stayer, status, page } = await restartWithThree(0);
  try {
    const watcher = await page(w.owner);
    assert.equal(await status(stayer), 'offline', 'nobody carried');
    await page(stayer);
    await eventually(() => watcher.received.some((e) => e.name === 'PRESENCE_UPDATE' && e.payload.userId === stayer.user.id && e.payload.status === 'online'), 5000, 'said online again');
  } finally {
    await srv.stop();
  }
});
