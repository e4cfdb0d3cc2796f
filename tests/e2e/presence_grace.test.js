// --presence-grace-ms: a person whose page drops and comes back within it (a reconnect, a
// reload) is neither said offline nor online again to those who watch them; one who leaves is
// said offline once it is over, not before. On several nodes the page may come back on another
// node, which says "online" again: the same status twice in a row counts once.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, serverWithMembers, gatewayConnect, eventually, quiet } = require('./helpers');

const sockets = [];
test.after(() => { for (const s of sockets) s.close(); });

test('a reconnect within the grace says nothing; a departure is said once the grace is over', async () => {
  const srv = await startServer({ args: ['--presence-grace-ms', '2000'] });
  try {
    const w = await serverWithMembers(srv.url, 1);
    const who = w.members[0];
    const watcher = await gatewayConnect(srv.url, { auth: { token: w.owner.token } }, sockets);
    const seen = () => watcher.received.filter((e) => e.name === 'PRESENCE_UPDATE' && e.payload.userId === who.user.id)
      .map((e) => e.payload.status).filter((x, i, all) => i === 0 || x !== all[i - 1]);
    const page = () => gatewayConnect(srv.url, { auth: { token: who.token }, transports: ['websocket'] }, sockets);
    const first = await page();
    await eventually(() => seen().join() === 'online' || seen(), 5000, 'online');
    first.close();
    await quiet(400);
    const again = await page();
    await quiet(3500); // past the grace and the second look
    assert.deepEqual(seen(), ['online'], 'back within the grace: no offline, no second online');
    const status = async () => (await api(srv.url, 'GET', `/api/servers/${w.sid}/members`, { token: w.owner.token })).body.members
      .find((m) => m.userId === who.user.id).status;
    assert.equal(await status(), 'online');
    const left = Date.now();
    again.close();
    await eventually(() => seen().join() === 'online,offline' || seen(), 8000, 'offline once the grace is over');
    assert.ok(Date.now() - left >= 1900, `said offline after ${Date.now() - left} ms, within the grace`);
    assert.equal(await status(), 'offline');
  } finally {
    await srv.stop();
  }
});
