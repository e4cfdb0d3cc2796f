// PostgreSQL going away under a running praca: requests that need it are 503 with a reason, what
// lives in memory is still served, the node connects again by itself, and nothing acknowledged is
// lost. Runs in `make e2e-postgres` only, on a cluster of its own (it is stopped mid-test).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, appWithBot, install, serverWithMembers, gatewayConnect, eventually, metric, POSTGRES, tempDir } = require('./helpers');

const CLUSTER = path.resolve(__dirname, '../../scripts/pg-cluster.sh');
const { P } = require('./permissions');
const BOT_BITS = P.VER_CANAL | P.ENVIAR_MENSAGENS;
const UNAVAILABLE = 'O banco de dados está indisponível; tente novamente em instantes';

function cluster(cmd, dir) {
  const r = spawnSync(CLUSTER, [cmd, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('PostgreSQL stopped and started again: 503 meanwhile, then the node carries on by itself', { skip: !POSTGRES && 'needs PostgreSQL (make e2e-postgres)' }, async () => {
  const dir = tempDir('praca-pg-own-');
  const sockets = [];
  let srv;
  try {
    const url = cluster('start', dir);
    assert.equal(spawnSync('psql', [url + '/postgres', '-qc', 'CREATE DATABASE praca']).status, 0);
    srv = await startServer({ store: ['--database-url', url + '/praca'], args: ['--metrics-listen', '127.0.0.1:0'] });
    const w = await serverWithMembers(srv.url, 1);
    const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
    assert.equal((await install(srv.url, w.owner, info, w.sid, { permissions: BOT_BITS })).complete.status, 200);
    const cid = w.server.channels[0].id;
    const botSend = (content, channel = cid) => api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${channel}/messages`, { token: info.botToken, body: { content } });
    const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken }, transports: ['websocket'] }, sockets);
    assert.equal((await botSend('antes')).status, 200);
    const late = await register(srv.url); // a session never used since: not in memory

    cluster('stop', dir);
    // A write, and a read that goes to SQL (history), are refused with the reason.
    const send = await botSend('durante');
    assert.equal(send.status, 503, send.text);
    assert.equal(send.body.error, UNAVAILABLE);
    assert.equal(send.headers.get('retry-after'), '1');
    const history = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token });
    assert.equal(history.status, 503, history.text);
    const health = await api(srv.url, 'GET', '/api/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.database, false);
    // What lives in memory goes on: the bot's socket stays, and a bot connecting now is known.
    assert.equal(bot.connected, true);
    const again = await gatewayConnect(srv.url, { auth: { token: info.botToken }, transports: ['websocket'] }, sockets);
    assert.equal(again.connected, true);
    // A credential that cannot be checked now is never called invalid: 503 with Retry-After on
    // HTTP; on the gateway a closed transport, which the official client retries by itself.
    const me = await api(srv.url, 'GET', '/api/users/@me', { token: late.token });
    assert.equal(me.status, 503, me.text);
    assert.equal(me.headers.get('retry-after'), '1');
    const { io } = require('socket.io-client');
    const person = io(srv.url, { auth: { token: late.token }, transports: ['websocket'], reconnectionDelay: 100, reconnectionDelayMax: 500 });
    sockets.push(person);
    const refusals = [];
    person.on('connect_error', (e) => { if (e.data !== undefined || !/websocket error|xhr poll error|timeout/.test(e.message)) refusals.push(e.message); });
    await eventually(async () => (await metric(srv, 'praca_gateway_connects_total', 'result="unchecked"')) >= 1, 10000, 'a connect that could not be checked');
    assert.equal(person.connected, false);

    cluster('start', dir);
    await eventually(async () => (await botSend('depois')).status === 200 || 'not yet', 10000, 'a send after PostgreSQL came back');
    await eventually(() => person.connected, 10000, 'the person\'s client came back by itself');
    assert.deepEqual(refusals, [], 'never told its credential was bad');
    assert.equal((await api(srv.url, 'GET', '/api/health')).body.database, true);
    // The writer's change marks came back with its connection: a channel made now is known.
    const made = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'nova', type: 'text' } });
    assert.equal(made.status, 201, made.text);
    assert.equal((await botSend('na nova', made.body.channel.id)).status, 200);
    const after = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token });
    assert.deepEqual(after.body.messages.map((m) => m.content), ['antes', 'depois']);
    await eventually(() => {
      const got = again.received.filter((e) => e.name === 'MESSAGE_CREATE').map((e) => e.payload.content);
      return JSON.stringify(got) === JSON.stringify(['depois', 'na nova']) || got;
    }, 5000, 'the second socket got each message sent after it came, once');
    const first = bot.received.filter((e) => e.name === 'MESSAGE_CREATE').map((e) => e.payload.content);
    assert.deepEqual(first, ['antes', 'depois', 'na nova']);
  } finally {
    for (const s of sockets) s.disconnect();
    if (srv) {
      const r = await srv.stop();
      assert.equal(r.code, 0, srv.stderr);
    }
    cluster('remove', dir);
  }
});
