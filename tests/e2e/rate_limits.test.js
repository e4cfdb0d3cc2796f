// Limits a bot can see before the 429: what each success has left (X-RateLimit-*), and every
// limit of the caller at GET /api/bot/rate-limits; a 429 still carries no headers.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, sharedServer } = require('./helpers');
const { P } = require('./permissions');

const srv = sharedServer({ args: ['--test-clock'] }, []);

test('the budget counts down on each success and matches the 429 that follows; the list tells every limit', async () => {
  const w = await serverWithMembers(srv.url, 0);
  const info = await appWithBot(srv.url, w.owner, {});
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const cid = w.server.channels[0].id;
  const send = (i) => api(srv.url, 'POST', `/api/bot/servers/${w.sid}/channels/${cid}/messages`, { token: info.botToken, body: { content: `n${i}` } });
  const left = [];
  for (let i = 0; i < 10; i++) {
    const r = await send(i);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('x-ratelimit-limit'), '10');
    assert.equal(r.headers.get('x-ratelimit-bucket'), 'bot-send');
    assert.ok(Number(r.headers.get('x-ratelimit-reset-after')) > 0 && Number(r.headers.get('x-ratelimit-reset-after')) <= 10);
    left.push(Number(r.headers.get('x-ratelimit-remaining')));
  }
  assert.deepEqual(left, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  const refused = await send(10);
  assert.equal(refused.status, 429, 'the budget said 0');
  assert.equal(refused.headers.get('x-ratelimit-remaining'), null, 'a 429 carries no headers');
  assert.equal(refused.headers.get('retry-after'), null);
  assert.ok(refused.body.retryAfterMs > 0);

  const list = await api(srv.url, 'GET', '/api/bot/rate-limits', { token: info.botToken });
  assert.equal(list.status, 200, list.text);
  const byName = Object.fromEntries(list.body.limits.map((l) => [l.name, l]));
  assert.deepEqual(Object.keys(byName.presence), ['name', 'limit', 'windowMs', 'remaining', 'resetAfterMs']);
  assert.equal(byName['bot-send'].limit, 10);
  assert.equal(byName['bot-send'].windowMs, 10000);
  assert.equal(byName['bot-send'].remaining, 0);
  assert.ok(byName['bot-send'].resetAfterMs > 0 && byName['bot-send'].resetAfterMs <= 10000);
  assert.ok(Math.abs(byName['bot-send'].resetAfterMs - refused.body.retryAfterMs) < 1000, 'the list and the 429 agree');
  assert.deepEqual([byName.react.remaining, byName.react.resetAfterMs], [30, 0], 'untouched');
  assert.equal((await api(srv.url, 'GET', '/api/bot/rate-limits', { token: info.botToken })).body.limits.find((l) => l.name === 'bot-send').remaining, 0, 'asking uses nothing');

  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 10001 } });
  const again = await send(11);
  assert.equal(again.status, 200);
  assert.equal(again.headers.get('x-ratelimit-remaining'), '9', 'refilled');
  // A route without a limit says nothing.
  const me = await api(srv.url, 'GET', '/api/bot/@me', { token: info.botToken });
  assert.equal(me.headers.get('x-ratelimit-limit'), null);
});

test('a write with no limit of its own counts the write limit, 50 per 10 s per account, before its handler', async () => {
  const w = await serverWithMembers(srv.url, 1);
  const statuses = [];
  let last;
  for (let i = 0; i < 51; i++) {
    last = await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: `papel ${i}` } });
    statuses.push(last.status);
    if (i === 0) assert.equal(last.headers.get('x-ratelimit-bucket'), 'write');
  }
  assert.deepEqual(statuses, [...Array(50).fill(201), 429]);
  assert.ok(last.body.retryAfterMs > 0);
  // Another account's writes are its own; another kind of write shares the window.
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${w.sid}`, { token: w.owner.token, body: { name: 'outro nome' } })).status, 429);
  assert.notEqual((await api(srv.url, 'PUT', '/api/users/@me/read-states/' + w.server.channels[0].id, { token: w.owner.token, body: {} })).status, 429, 'a limit of its own is apart');
  const other = await appWithBot(srv.url, w.members[0], {});
  const theirs = await api(srv.url, 'PUT', `/api/applications/${other.app.id}/visibility`, { token: w.members[0].token, body: { isPublic: true } });
  assert.equal(theirs.status, 200, theirs.text);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 10001 } });
  assert.equal((await api(srv.url, 'POST', `/api/servers/${w.sid}/roles`, { token: w.owner.token, body: { name: 'depois' } })).status, 201);
});
