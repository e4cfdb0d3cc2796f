// What an operator watches: the access log (text and JSON, never a token) and the Prometheus
// metrics on their own listen address.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, serverWithMembers, appWithBot, install, gatewayConnect, eventually, BIN, sample, POSTGRES } = require('./helpers');

const sockets = [];
test.after(() => { for (const s of sockets) s.disconnect(); });

async function metricsOf(srv) {
  const m = srv.stdout.match(/metrics on (http:\/\/\S+)/);
  assert.ok(m, 'the metrics address is printed: ' + srv.stdout);
  const r = await fetch(m[1]);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return { url: m[1], text: await r.text() };
}

test('text access log: one line per answer with the route pattern, status, time, caller and peer; never a token', async () => {
  const srv = await startServer();
  try {
    const u = await register(srv.url);
    await api(srv.url, 'GET', '/api/users/@me', { token: u.token });
    await api(srv.url, 'GET', `/api/servers/${'0'.repeat(8)}-aaaa-7aaa-8aaa-${'0'.repeat(12)}`, { token: u.token });
    await api(srv.url, 'GET', '/api/nada?token=segredo', {});
    await eventually(() => srv.stderr.includes('route=/api/nada') || srv.stderr.includes('status=404 '), 2000, 'the 404 line');
    const me = srv.stderr.split('\n').find((l) => l.includes('route=/api/users/@me'));
    assert.match(me, new RegExp(`^\\S+Z info http method=GET route=/api/users/@me status=200 ms=[0-9.]+ caller=${u.user.id} peer=127\\.0\\.0\\.1$`));
    assert.ok(srv.stderr.includes('method=GET route=/api/servers/:sid status=404'), 'patterns, not paths with IDs');
    assert.ok(!srv.stderr.includes(u.token), 'no token in the log');
    assert.ok(!srv.stderr.includes('segredo'), 'no query string in the log');
    assert.match(srv.stderr, /http method=GET route=- status=404 ms=[0-9.]+ caller=- peer=127\.0\.0\.1/);
  } finally {
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});

test('JSON logs: every line is one JSON object; answers and gateway connects and refusals', async () => {
  const srv = await startServer({ args: ['--log-format', 'json'] });
  try {
    const w = await serverWithMembers(srv.url);
    const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
    await install(srv.url, w.owner, info, w.sid, { permissions: 256 });
    await gatewayConnect(srv.url, { auth: { token: info.botToken }, transports: ['websocket'] }, sockets);
    await assert.rejects(gatewayConnect(srv.url, { auth: { token: 'errado' }, transports: ['websocket'] }, sockets));
    await eventually(() => srv.stderr.includes('"event":"refused"'), 2000, 'the refusal line');
    const lines = srv.stderr.trim().split('\n').map((l) => JSON.parse(l));
    for (const l of lines) {
      assert.match(l.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(['debug', 'info', 'warn', 'error'].includes(l.level));
    }
    const created = lines.find((l) => l.kind === 'http' && l.route === '/api/applications' && l.method === 'POST');
    assert.deepEqual(Object.keys(created), ['time', 'level', 'kind', 'method', 'route', 'status', 'ms', 'caller', 'peer']);
    assert.equal(created.status, 201);
    assert.equal(created.caller, w.owner.user.id);
    assert.equal(typeof created.ms, 'number');
    const connect = lines.find((l) => l.kind === 'gateway' && l.event === 'connect');
    assert.match(info.app.botUserId, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...connect, time: 0 }, { time: 0, level: 'info', kind: 'gateway', event: 'connect', caller: info.app.botUserId, as: 'bot', recovery: 0 });
    const refused = lines.find((l) => l.kind === 'gateway' && l.event === 'refused');
    assert.equal(refused.caller, null);
    assert.ok(lines.some((l) => l.msg && l.msg.startsWith('migrate: applied')), 'other lines too');
    assert.ok(!srv.stderr.includes(info.botToken));
  } finally {
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});

test('--access-log=0 keeps the log to events', async () => {
  const srv = await startServer({ args: ['--access-log=0'] });
  try {
    await api(srv.url, 'GET', '/api/health');
    assert.ok(!/ info http /.test(srv.stderr));
  } finally {
    await srv.stop();
  }
});

test('metrics: requests by route and status with latency, gateway, writer and queues, on their own address', async () => {
  const srv = await startServer({ args: ['--metrics-listen', '127.0.0.1:0'], single: true }); // one process's figures
  try {
    const w = await serverWithMembers(srv.url);
    const info = await appWithBot(srv.url, w.owner, { intents: ['messages.read'] });
    await install(srv.url, w.owner, info, w.sid, { permissions: 256 | 512 });
    const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken }, transports: ['websocket'] }, sockets);
    const before = (await metricsOf(srv)).text;
    const got = new Promise((resolve) => bot.once('MESSAGE_CREATE', resolve));
    for (let i = 0; i < 3; i++) {
      const r = await api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`, { token: info.botToken, body: { content: `m${i}` } });
      assert.equal(r.status, 200);
    }
    await got;
    await api(srv.url, 'GET', '/api/nada');
    const { url, text } = await metricsOf(srv);
    const send = 'method="POST",route="/api/bot/servers/:sid/channels/:cid/messages",status="200"';
    assert.equal(sample(text, 'praca_http_requests_total', send), 3);
    assert.equal(sample(text, 'praca_http_request_duration_seconds_count', send), 3);
    assert.equal(sample(text, 'praca_http_request_duration_seconds_bucket', `${send},le="+Inf"`), 3);
    assert.ok(sample(text, 'praca_http_request_duration_seconds_sum', send) > 0);
    assert.equal(sample(text, 'praca_http_requests_total', 'method="GET",route="unmatched",status="404"'), 1);
    assert.equal(sample(text, 'praca_gateway_connections', 'as="bot"'), 1);
    assert.ok(sample(text, 'praca_gateway_deliveries_total') >= sample(before, 'praca_gateway_deliveries_total') + 1);
    assert.ok(sample(text, 'praca_gateway_events_total') >= 3);
    assert.ok(sample(text, 'praca_writer_jobs_total') >= sample(before, 'praca_writer_jobs_total') + 3);
    assert.ok(sample(text, 'praca_writer_transactions_total') >= 1);
    assert.equal(sample(text, 'praca_queue_depth', 'queue="hashing"'), 0);
    if (POSTGRES) {
      assert.doesNotMatch(text, /praca_sqlite_/, 'PostgreSQL has no -wal of ours');
    } else {
      assert.ok(sample(text, 'praca_sqlite_wal_pages') >= 1, 'the sends are in the -wal');
      assert.ok(Number.isInteger(sample(text, 'praca_sqlite_checkpoints_total')));
    }
    assert.ok(sample(text, 'praca_http_connections') >= 1);
    for (const l of text.split('\n')) {
      if (l && !l.startsWith('#')) assert.match(l, /^[a-z_]+(\{[^}]*\})? -?[0-9.e+]+$/, l);
    }
    assert.equal((await fetch(url.replace('/metrics', '/outra'))).status, 404);
    assert.equal((await api(srv.url, 'GET', '/metrics')).status, 404, 'not on the public address');
  } finally {
    const r = await srv.stop();
    assert.equal(r.code, 0, srv.stderr);
  }
});

test('a bad metrics address or log format stops the start with the reason', () => {
  const bad = spawnSync(BIN, ['serve', '--port', '0', '--data', '/tmp/praca-obs-never.db', '--metrics-listen', 'semporta'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--metrics-listen: want HOST:PORT/);
  const fmt = spawnSync(BIN, ['serve', '--log-format', 'xml'], { encoding: 'utf8' });
  assert.equal(fmt.status, 2);
  assert.match(fmt.stderr, /--log-format: text or json/);
});
