// The operator's automatic join (--join-on-signup, the seed's third way in): every account made
// from then on is a member of those servers at once, and their bots with members.read hear
// GUILD_MEMBER_ADD as for a join by invite; a server that is gone is passed over, and a list
// that is not server IDs stops the start.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, serverWithMembers, appWithBot, install, gatewayConnect, nextEvent, BIN, tempDir } = require('./helpers');
const { P } = require('./permissions');

test('a new account joins the operator\'s servers, and their bot hears GUILD_MEMBER_ADD', async () => {
  const first = await startServer();
  let w, info, other;
  try {
    w = await serverWithMembers(first.url, 0);
    info = await appWithBot(first.url, w.owner, { intents: ['members.read'] });
    await install(first.url, w.owner, info, w.sid, { permissions: P.VER_CANAL });
    other = (await api(first.url, 'POST', '/api/servers', { token: w.owner.token, body: { name: 'Outro' } })).body.server;
  } finally {
    const r = await first.stop();
    assert.equal(r.code, 0, first.stderr);
  }
  const gone = '01a1fe3b-0000-7000-8000-000000000000'; // no such server: passed over
  const srv = await startServer({ dir: first.dir, args: ['--join-on-signup', `${w.sid},${gone},${other.id}`] });
  const sockets = [];
  try {
    const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken }, transports: ['websocket'] }, sockets);
    const added = nextEvent(bot, 'GUILD_MEMBER_ADD');
    const ana = await register(srv.url);
    const event = await added;
    assert.deepEqual([event.serverId, event.userId, event.user.username], [w.sid, ana.user.id, ana.user.username]);
    const mine = (await api(srv.url, 'GET', '/api/servers', { token: ana.token })).body.servers.map((s) => s.id).sort();
    assert.deepEqual(mine, [w.sid, other.id].sort());
    // Signing in again joins nothing more.
    const login = await api(srv.url, 'POST', '/api/auth/login', { body: { username: ana.user.username, password: ana.password } });
    assert.equal(login.status, 200);
    const again = (await api(srv.url, 'GET', '/api/servers', { token: login.body.token })).body.servers.map((s) => s.id).sort();
    assert.deepEqual(again, [w.sid, other.id].sort());
  } finally {
    for (const s of sockets) s.disconnect();
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
  assert.match(srv.stderr, /--join-on-signup: 01a1fe3b-0000-7000-8000-000000000000 could not be joined/);
});

test('a list that is not server IDs stops the start', () => {
  for (const bad of ['nao-e-um-id', `${'01a1fe3b-0000-7000-8000-000000000000,'.repeat(11)}`.slice(0, -1), '01a1fe3b-0000-7000-8000-000000000000,,x']) {
    const r = spawnSync(BIN, ['serve', '--port', '0', '--data', `${tempDir()}/p.db`, '--join-on-signup', bad], { encoding: 'utf8', timeout: 20000 });
    assert.notEqual(r.status, 0, bad);
    assert.match(r.stderr, /--join-on-signup: server IDs separated by commas, 10 at most/);
  }
});
