// Events pushed over HTTP: an application's events endpoint receives, signed, in position order
// and in batches, what its bot would receive on the gateway; a failure is tried again until it
// succeeds, and the owner sees each attempt, pauses, resumes and replays.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const crypto = require('node:crypto');
const { startServer, api, appWithBot, install, serverWithMembers, eventually, quiet } = require('./helpers');

const { P } = require('./permissions');
let srv;
let receiver;
// What each path received: every POST with the status it was answered with.
const posts = new Map();
// How each path answers: a function of the POST's number on that path (from 1).
const answers = new Map();

function verify(secret, headers, rawBody) {
  const ts = headers['x-signature-timestamp'];
  const expected = 'sha256=' + crypto.createHmac('sha256', secret).update(`${ts}.${rawBody}`).digest('hex');
  const sig = headers['x-signature-256'] || '';
  return sig.length === expected.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
}

test.before(async () => {
  srv = await startServer({ args: ['--allow-private-endpoints', '--events-retry-ms', '200', '--rate-limit-scale', '100'] });
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      const list = posts.get(req.url) || [];
      posts.set(req.url, list);
      const status = (answers.get(req.url) || (() => 200))(list.length + 1);
      list.push({ headers: req.headers, raw: body, body: JSON.parse(body), status, at: Date.now() });
      res.writeHead(status).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
});
test.after(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  const r = await srv.stop();
  assert.equal(r.code, 0, srv.stderr);
});

const urlOf = (path) => `http://127.0.0.1:${receiver.address().port}${path}`;
// The events a path accepted (2xx), in the order they came.
const accepted = (path) => (posts.get(path) || []).filter((p) => p.status < 300).flatMap((p) => p.body.events);

let worlds = 0;
async function world(s = srv) {
  const w = await serverWithMembers(s.url, 1);
  const info = await appWithBot(s.url, w.owner, { intents: ['messages.read', 'members.read'] });
  await install(s.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  const secret = (await api(s.url, 'POST', `/api/applications/${info.app.id}/interactions/signing-secret/rotate`, { token: w.owner.token })).body.signingSecret;
  const config = `/api/applications/${info.app.id}/events-config`;
  const path = `/eventos-${++worlds}`;
  const send = (content) => api(s.url, 'POST', `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`, { token: w.owner.token, body: { content } });
  const contents = () => accepted(path).filter((e) => e.type === 'MESSAGE_CREATE').map((e) => e.data.content);
  return { ...w, info, secret, config, path, send, contents };
}

test('a push endpoint that fails 3 times then succeeds receives every event once, in order, signed; the log shows the attempts', async () => {
  const w = await world();
  answers.set(w.path, (n) => (n <= 3 ? 500 : 200));
  const set = await api(srv.url, 'PUT', w.config, { token: w.owner.token, body: { eventsEndpointUrl: urlOf(w.path) } });
  assert.equal(set.status, 200, set.text);
  assert.equal(set.body.eventsEndpointUrl, urlOf(w.path));
  assert.equal(set.body.paused, false);
  assert.equal(set.body.cursor, set.body.lastPosition, 'starts at the log’s end: nothing from before');
  const sent = ['um', 'dois', 'três', 'quatro', 'cinco'];
  for (const content of sent) assert.equal((await w.send(content)).status, 200);
  await eventually(() => w.contents().length >= 5 || w.contents(), 15000, 'every message accepted');
  await quiet(400); // and nothing more
  assert.deepEqual(w.contents(), sent, 'each once, in order');
  const list = posts.get(w.path);
  assert.deepEqual(list.slice(0, 4).map((p) => p.status), [500, 500, 500, 200]);
  for (const p of list) {
    assert.ok(verify(w.secret, p.headers, p.raw), 'signed like interactions');
    assert.equal(p.body.type, 'events');
    assert.equal(p.body.applicationId, w.info.app.id);
    assert.ok(p.body.events.length >= 1 && p.body.events.length <= 100);
  }
  // A retried batch starts where the failed one did: the same first event.
  assert.equal(list[1].body.events[0].position, list[0].body.events[0].position);
  const positions = accepted(w.path).map((e) => BigInt(e.position));
  for (let i = 1; i < positions.length; i++) assert.ok(positions[i] > positions[i - 1], 'positions increase');
  const last = list[list.length - 1].body;
  assert.equal(last.next, last.events[last.events.length - 1].position);

  // The attempt and the cursor are written once the endpoint's answer is back.
  let log;
  await eventually(async () => {
    log = await api(srv.url, 'GET', w.config, { token: w.owner.token });
    return log.body.cursor === last.next || log.body.cursor;
  }, 5000, 'the cursor at the last batch');
  assert.equal(log.status, 200);
  const statuses = log.body.deliveries.map((d) => d.status).reverse();
  assert.deepEqual(statuses.slice(0, 4), [500, 500, 500, 200], 'oldest first: three failures, then the success');
  const failed = log.body.deliveries[log.body.deliveries.length - 1];
  assert.equal(failed.error, 'HTTP 500');
  assert.ok(failed.events >= 1 && typeof failed.latencyMs === 'number' && failed.firstPosition && failed.lastPosition);
  assert.equal(log.body.cursor, last.next, 'the cursor is the last position delivered');
});

test('only what the bot may see is pushed: not a channel hidden from it', async () => {
  const w = await world();
  await api(srv.url, 'PUT', w.config, { token: w.owner.token, body: { eventsEndpointUrl: urlOf(w.path) } });
  const hid = (await api(srv.url, 'POST', `/api/servers/${w.sid}/channels`, { token: w.owner.token, body: { name: 'segredo' } })).body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${w.sid}/channels/${hid}/overwrites/${w.sid}`, { token: w.owner.token, body: { type: 'role', deny: P.VER_CANAL } });
  const hidden = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${hid}/messages`, { token: w.owner.token, body: { content: 'escondida' } });
  assert.equal(hidden.status, 200, hidden.text);
  assert.equal((await w.send('visível')).status, 200);
  await eventually(() => w.contents().includes('visível') || w.contents(), 5000, 'the visible message');
  await quiet(300);
  assert.deepEqual(w.contents(), ['visível']);
});

test('pause holds events back, resume delivers them, replay delivers again from a position', async () => {
  const w = await world();
  await api(srv.url, 'PUT', w.config, { token: w.owner.token, body: { eventsEndpointUrl: urlOf(w.path) } });
  assert.equal((await w.send('antes')).status, 200);
  await eventually(() => w.contents().length === 1 || w.contents(), 5000, 'the first message');
  const paused = await api(srv.url, 'POST', `${w.config}/pause`, { token: w.owner.token });
  assert.equal(paused.status, 200);
  assert.equal(paused.body.paused, true);
  assert.equal((await w.send('pausada')).status, 200);
  await quiet(600); // nothing comes while paused
  assert.deepEqual(w.contents(), ['antes']);
  const resumed = await api(srv.url, 'POST', `${w.config}/resume`, { token: w.owner.token });
  assert.equal(resumed.body.paused, false);
  await eventually(() => w.contents().length === 2 || w.contents(), 5000, 'the held message');
  assert.deepEqual(w.contents(), ['antes', 'pausada']);

  const first = accepted(w.path)[0].position;
  const again = await api(srv.url, 'POST', `${w.config}/replay`, { token: w.owner.token, body: { after: String(BigInt(first) - 1n) } });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.cursor, String(BigInt(first) - 1n));
  await eventually(() => w.contents().length === 4 || w.contents(), 5000, 'the replay');
  assert.deepEqual(w.contents(), ['antes', 'pausada', 'antes', 'pausada']);
});

test('bad configuration: URL, no signing secret, no bot, someone else’s application, replay past the end', async () => {
  const w = await world();
  const put = (body, token = w.owner.token, config = w.config) => api(srv.url, 'PUT', config, { token, body });
  assert.equal((await put({ eventsEndpointUrl: 'ftp://example.com/x' })).status, 400);
  assert.match((await put({ eventsEndpointUrl: 'ftp://example.com/x' })).body.error, /^eventsEndpointUrl: /);
  assert.equal((await put({})).status, 400, 'the field is required (null turns pushing off)');
  assert.equal((await put({ eventsEndpointUrl: 'x'.repeat(600) })).status, 400);
  assert.equal((await put({ eventsEndpointUrl: urlOf(w.path) }, w.members[0].token)).status, 404);
  const off = await put({ eventsEndpointUrl: null });
  assert.equal(off.status, 200);
  assert.equal(off.body.eventsEndpointUrl, null);

  const bare = (await api(srv.url, 'POST', '/api/applications', { token: w.owner.token, body: { name: 'Sem robô' } })).body.application;
  const noBot = await put({ eventsEndpointUrl: urlOf(w.path) }, w.owner.token, `/api/applications/${bare.id}/events-config`);
  assert.equal(noBot.status, 400);
  assert.match(noBot.body.error, /^eventsEndpointUrl: crie o bot/);
  const noSecret = await appWithBot(srv.url, w.owner);
  const r = await put({ eventsEndpointUrl: urlOf(w.path) }, w.owner.token, `/api/applications/${noSecret.app.id}/events-config`);
  assert.equal(r.status, 400);
  assert.match(r.body.error, /^signingSecret: /);

  const past = await api(srv.url, 'POST', `${w.config}/replay`, { token: w.owner.token, body: { after: '999999999999' } });
  assert.equal(past.status, 400);
  assert.match(past.body.error, /^after: /);
  const junk = await api(srv.url, 'POST', `${w.config}/replay`, { token: w.owner.token, body: { after: '-1' } });
  assert.equal(junk.status, 400);
});

test('an endpoint that never answers 2xx is tried again with a growing delay, and the cursor stays', async () => {
  const w = await world();
  answers.set(w.path, () => 503);
  const set = await api(srv.url, 'PUT', w.config, { token: w.owner.token, body: { eventsEndpointUrl: urlOf(w.path) } });
  assert.equal((await w.send('nunca')).status, 200);
  await eventually(() => (posts.get(w.path) || []).length >= 4 || (posts.get(w.path) || []).length, 10000, 'four attempts');
  // The delay doubles from --events-retry-ms (200): the fourth try comes at least 800 ms after
  // the third was refused.
  const at = posts.get(w.path).map((p) => p.at);
  assert.ok(at[3] - at[2] >= 790, `waited ${at[3] - at[2]} ms`);
  assert.ok(at[2] - at[1] >= 390, `waited ${at[2] - at[1]} ms`);
  const log = await api(srv.url, 'GET', w.config, { token: w.owner.token });
  assert.equal(log.body.cursor, set.body.cursor, 'nothing was delivered');
  assert.ok(log.body.deliveries.every((d) => d.status === 503 && d.error === 'HTTP 503'));
});

test('past the log’s retention the next batch starts with EVENTS_GAP', async () => {
  const args = ['--allow-private-endpoints', '--events-retry-ms', '200'];
  const s1 = await startServer({ args, single: true });
  let s2;
  try {
    const w = await world(s1);
    await api(s1.url, 'PUT', w.config, { token: w.owner.token, body: { eventsEndpointUrl: urlOf(w.path) } });
    await api(s1.url, 'POST', `${w.config}/pause`, { token: w.owner.token });
    for (const content of ['velha 1', 'velha 2']) assert.equal((await w.send(content)).status, 200);
    const cursor = (await api(s1.url, 'GET', w.config, { token: w.owner.token })).body.cursor;
    s1.proc.kill('SIGTERM');
    await s1.exited;
    // Restarted with a clock two hours on: the trim a second after the start finds the events old.
    s2 = await startServer({ dir: s1.dir, args: [...args, '--test-clock', '--event-retention-hours', '1'], single: true });
    await api(s2.url, 'POST', '/api/test/clock', { body: { advanceMs: 2 * 3600 * 1000 } });
    await eventually(async () => (await api(s2.url, 'GET', `/api/bot/events?after=${cursor}`, { token: w.info.botToken })).body.gap !== undefined, 5000, 'the trim');
    const send = (content) => api(s2.url, 'POST', `/api/servers/${w.sid}/channels/${w.server.channels[0].id}/messages`, { token: w.owner.token, body: { content } });
    assert.equal((await send('nova')).status, 200);
    await api(s2.url, 'POST', `${w.config}/resume`, { token: w.owner.token });
    await eventually(() => w.contents().includes('nova') || accepted(w.path), 5000, 'the batch after the gap');
    const events = accepted(w.path);
    assert.equal(events[0].type, 'EVENTS_GAP');
    assert.equal(events[0].data.after, cursor);
    assert.ok(BigInt(events[0].data.oldestPosition) > BigInt(cursor) + 1n);
    assert.ok(!w.contents().includes('velha 1'), 'trimmed');
    assert.equal(w.contents()[w.contents().length - 1], 'nova');
    // The attempt is written once the endpoint's answer is back, after the endpoint has the batch.
    await eventually(async () => {
      const log = await api(s2.url, 'GET', w.config, { token: w.owner.token });
      return log.body.deliveries.some((d) => d.gap === true);
    }, 5000, 'the gap in the delivery log');
  } finally {
    if (s2) {
      const r = await s2.stop();
      assert.equal(r.code, 0, s2.stderr);
    }
  }
});
