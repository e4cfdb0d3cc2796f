// Endpoint-URL mode: interactions POSTed to the application's own HTTP server, signed with the
// signing secret; the endpoint's answer is the interaction's answer. Also the config test ping.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const crypto = require('node:crypto');
const { io } = require('socket.io-client');
const { startServer, api, appWithBot, install, serverWithMembers, quiet } = require('./helpers');

const { P } = require('./permissions');
let srv;
let endpoint;
const requests = [];
let handler = (req, body, res) => res.end();
const sockets = [];

// The receiver every bot author writes: reject bad signatures and old timestamps.
function verify(secret, headers, rawBody) {
  const ts = headers['x-signature-timestamp'];
  const sig = headers['x-signature-256'] || '';
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = 'sha256=' + crypto.createHmac('sha256', secret).update(`${ts}.${rawBody}`).digest('hex');
  return sig.length === expected.length && crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
}

test.before(async () => {
  // A proxy in the environment that does not exist: calls must go to the endpoint directly.
  srv = await startServer({ args: ['--allow-private-endpoints'], env: { http_proxy: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' } });
  endpoint = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => { requests.push({ method: req.method, url: req.url, headers: req.headers, body }); handler(req, body, res); });
  });
  await new Promise((r) => endpoint.listen(0, '127.0.0.1', r));
});
test.after(async () => {
  for (const s of sockets) s.close();
  endpoint.closeAllConnections();
  await new Promise((r) => endpoint.close(r));
  const r = await srv.stop();
  assert.equal(r.code, 0, srv.stderr);
});

const json = (res, status, value) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
const endpointUrl = (p = '/interacoes') => `http://127.0.0.1:${endpoint.address().port}${p}`;

async function world() {
  const w = await serverWithMembers(srv.url, 1);
  const info = await appWithBot(srv.url, w.owner, { intents: ['interactions.receive'] });
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  await api(srv.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [{ name: 'ping', description: 'Ping' }] } });
  const appUrl = `/api/applications/${info.app.id}`;
  const cid = w.server.channels[0].id;
  const member = w.members[0];
  const invoke = () => api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/interactions`, { token: member.token, body: { type: 'command', applicationId: info.app.id, commandName: 'ping' } });
  return { ...w, info, appUrl, cid, member, invoke };
}

test('the config test sends a signed ping and reports {ok, status, latencyMs}', async () => {
  const w = await world();
  const test1 = () => api(srv.url, 'POST', `${w.appUrl}/interactions-config/test`, { token: w.owner.token });
  const none = await test1();
  assert.equal(none.status, 400);
  assert.equal(none.body.error, 'interactionsEndpointUrl: nenhuma URL configurada');
  await api(srv.url, 'PUT', `${w.appUrl}/interactions-config`, { token: w.owner.token, body: { interactionsEndpointUrl: endpointUrl('/teste') } });
  const noSecret = await test1();
  assert.equal(noSecret.status, 400);
  assert.match(noSecret.body.error, /^signingSecret: /);

  const old = (await api(srv.url, 'POST', `${w.appUrl}/interactions/signing-secret/rotate`, { token: w.owner.token })).body.signingSecret;
  const secret = (await api(srv.url, 'POST', `${w.appUrl}/interactions/signing-secret/rotate`, { token: w.owner.token })).body.signingSecret;
  let verified = null;
  handler = (req, body, res) => {
    verified = { now: verify(secret, req.headers, body), old: verify(old, req.headers, body) };
    if (JSON.parse(body).type === 'ping') json(res, 200, { type: 'pong' });
    else json(res, 400, {});
  };
  const ok = await test1();
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.ok, true);
  assert.equal(ok.body.status, 200);
  assert.ok(Number.isInteger(ok.body.latencyMs) && ok.body.latencyMs >= 0);
  assert.deepEqual(verified, { now: true, old: false }, 'signed with the rotated secret only');
  const last = requests.at(-1);
  assert.equal(last.method, 'POST');
  assert.equal(last.url, '/teste');
  assert.equal(last.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(last.body), { type: 'ping' });

  handler = (req, body, res) => json(res, 500, { type: 'pong' });
  assert.deepEqual((await test1()).body.ok, false);
  handler = (req, body, res) => json(res, 200, { type: 'nope' });
  const wrong = await test1();
  assert.deepEqual([wrong.body.ok, wrong.body.status], [false, 200]);
  handler = (req, body, res) => { res.writeHead(302, { location: endpointUrl('/teste') }); res.end(); };
  const redirect = await test1();
  assert.deepEqual([redirect.body.ok, redirect.body.status], [false, 302], 'redirects are not followed');
  handler = () => { /* never answers */ };
  const slow = await test1();
  assert.deepEqual([slow.body.ok, slow.body.status], [false, null]);
  assert.ok(slow.body.latencyMs >= 2900 && slow.body.latencyMs < 6000, String(slow.body.latencyMs));

  handler = (req, body, res) => json(res, 200, { type: 'pong' });
  for (let i = 0; i < 5; i++) assert.equal((await test1()).status, 200);
  const over = await test1();
  assert.equal(over.status, 429, 'ten tests per minute');
});

test('interactions go to the endpoint, not the gateway; its answer is the interaction answer', async () => {
  const w = await world();
  await api(srv.url, 'PUT', `${w.appUrl}/interactions-config`, { token: w.owner.token, body: { interactionsEndpointUrl: endpointUrl() } });
  const sentBefore = requests.length;
  const unsigned = await w.invoke();
  assert.equal(unsigned.status, 502, 'no signing secret yet: nothing is sent');
  assert.equal(unsigned.body.error, 'A aplicação não está configurada: falta o segredo de assinatura');
  assert.equal(requests.length, sentBefore);
  const secret = (await api(srv.url, 'POST', `${w.appUrl}/interactions/signing-secret/rotate`, { token: w.owner.token })).body.signingSecret;
  const bot = io(srv.url, { auth: { token: w.info.botToken }, reconnection: false, transports: ['websocket'] });
  sockets.push(bot);
  const onGateway = [];
  bot.on('INTERACTION_CREATE', (e) => onGateway.push(e));
  await new Promise((r, j) => { bot.on('connect', r); bot.on('connect_error', j); });

  let received = null;
  handler = (req, body, res) => {
    received = { valid: verify(secret, req.headers, body), payload: JSON.parse(body) };
    json(res, 200, { type: 'message', data: { content: 'pong' } });
  };
  const r = await w.invoke();
  assert.equal(r.status, 202, r.text);
  assert.equal(received.valid, true);
  assert.equal(received.payload.id, r.body.interactionId);
  assert.equal(received.payload.type, 'command');
  assert.equal(received.payload.commandName, 'ping');
  assert.equal(received.payload.user.id, w.member.user.id);
  const history = await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.member.token });
  const answer = history.body.messages[0];
  assert.equal(answer.content, 'pong');
  assert.equal(answer.commandName, 'ping');
  assert.equal(answer.commandInvokerId, w.member.user.id);
  assert.equal(answer.fromId, w.info.app.botUserId);
  assert.equal(answer.applicationId, w.info.app.id);
  await quiet(300);
  assert.deepEqual(onGateway, [], 'nothing on the gateway in endpoint mode');
  const again = await api(srv.url, 'POST', `/api/bot/interactions/${r.body.interactionId}/respond`, { token: w.info.botToken, body: { type: 'message', data: { content: 'de novo' } } });
  assert.equal(again.status, 409, 'the endpoint already answered');

  handler = (req, body, res) => json(res, 200, { type: 'message', data: {} });
  const refused = await w.invoke();
  assert.equal(refused.status, 502);
  assert.match(refused.body.error, /^A resposta da aplicação foi recusada: content: /);
  assert.ok(refused.body.interactionId);

  handler = (req, body, res) => json(res, 500, { error: 'boom' });
  const failed = await w.invoke();
  assert.equal(failed.status, 502);
  assert.equal(failed.body.error, 'A aplicação não respondeu à interação a tempo');

  handler = () => { /* never answers */ };
  const started = Date.now();
  const late = await w.invoke();
  assert.equal(late.status, 502);
  assert.ok(Date.now() - started < 6000);

  await api(srv.url, 'PUT', `${w.appUrl}/interactions-config`, { token: w.owner.token, body: { interactionsEndpointUrl: null } });
  const back = new Promise((res) => bot.once('INTERACTION_CREATE', res));
  assert.equal((await w.invoke()).status, 202);
  assert.equal((await back).commandName, 'ping', 'without a URL the gateway gets it again');
});

test('a slow endpoint holds no worker: other requests are answered while its calls wait; 8 in flight per application', async () => {
  // Two workers only: before, two waiting calls took every worker for up to 3 s.
  // The cap is each process's: one node.
  const s = await startServer({ args: ['--allow-private-endpoints', '--workers', '2'], single: true });
  const held = [];
  const slow = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => held.push(res));
  });
  await new Promise((r) => slow.listen(0, '127.0.0.1', r));
  try {
    const w = await serverWithMembers(s.url, 1);
    const info = await appWithBot(s.url, w.owner, { intents: ['interactions.receive'] });
    await install(s.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
    await api(s.url, 'PUT', '/api/bot/commands', { token: info.botToken, body: { commands: [{ name: 'ping', description: 'Ping' }] } });
    const appUrl = `/api/applications/${info.app.id}`;
    await api(s.url, 'POST', `${appUrl}/interactions/signing-secret/rotate`, { token: w.owner.token });
    await api(s.url, 'PUT', `${appUrl}/interactions-config`, { token: w.owner.token, body: { interactionsEndpointUrl: `http://127.0.0.1:${slow.address().port}/i` } });
    const cid = w.server.channels[0].id;
    const invoke = () => api(s.url, 'POST', `/api/servers/${w.sid}/channels/${cid}/interactions`, { token: w.members[0].token, body: { type: 'command', applicationId: info.app.id, commandName: 'ping' } });
    let finished = 0;
    const calls = Array.from({ length: 10 }, () => invoke().then((r) => { finished++; return r; }));
    const deadline = Date.now() + 5000;
    while ((held.length < 8 || finished < 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(held.length, 8, 'eight calls reach the endpoint');
    assert.equal(finished, 2, 'the two past the cap are answered at once');
    for (let i = 0; i < 5; i++) {
      const me = await api(s.url, 'GET', '/api/users/@me', { token: w.owner.token });
      assert.equal(me.status, 200);
    }
    assert.equal(finished, 2, 'answered while every call still waits on the endpoint');
    for (const res of held) { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ type: 'message', data: { content: 'tarde' } })); }
    const statuses = (await Promise.all(calls)).map((r) => r.status).sort();
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 202, 202, 202, 503, 503]);
    const busy = (await Promise.all(calls)).find((r) => r.status === 503);
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.match(busy.body.error, /muitas interações em andamento/);
  } finally {
    slow.closeAllConnections();
    await new Promise((r) => slow.close(r));
    const r = await s.stop();
    assert.equal(r.code, 0, s.stderr);
  }
});

test('a person invokes at most 20 interactions in 10 s', async () => {
  const w = await world();
  const statuses = [];
  for (let i = 0; i < 21; i++) statuses.push((await w.invoke()).status);
  assert.deepEqual(statuses, [...Array(20).fill(202), 429]);
});

test('an endpoint answers defer within its 3 s, then finishes through the interaction token', async () => {
  const w = await world();
  await api(srv.url, 'PUT', `${w.appUrl}/interactions-config`, { token: w.owner.token, body: { interactionsEndpointUrl: endpointUrl() } });
  await api(srv.url, 'POST', `${w.appUrl}/interactions/signing-secret/rotate`, { token: w.owner.token });
  let payload = null;
  handler = (req, body, res) => { payload = JSON.parse(body); json(res, 200, { type: 'defer' }); };
  const r = await w.invoke();
  assert.equal(r.status, 202, r.text);
  assert.match(payload.token, /^[A-Za-z0-9_-]{43}$/);
  const history = async () => (await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${w.cid}/messages`, { token: w.member.token })).body.messages;
  const thinking = (await history())[0];
  assert.deepEqual([thinking.flags, thinking.content, thinking.commandName], [128, '', 'ping']);
  const done = await api(srv.url, 'PATCH', `/api/interactions/${payload.id}/${payload.token}/messages/@original`, { body: { content: 'pong, depois' } });
  assert.equal(done.status, 200, done.text);
  const answer = (await history())[0];
  assert.deepEqual([answer.id, answer.content, answer.flags], [thinking.id, 'pong, depois', 0]);
});

test('an endpoint answers autocomplete in its 3 s: the choices reach the person typing', async () => {
  const w = await world();
  await api(srv.url, 'PUT', '/api/bot/commands', { token: w.info.botToken, body: { commands: [{ name: 'busca', description: 'Busca', options: [{ name: 'termo', description: 'O quê', type: 'string', required: true, autocomplete: true }] }] } });
  await api(srv.url, 'PUT', `${w.appUrl}/interactions-config`, { token: w.owner.token, body: { interactionsEndpointUrl: endpointUrl() } });
  await api(srv.url, 'POST', `${w.appUrl}/interactions/signing-secret/rotate`, { token: w.owner.token });
  let payload = null;
  handler = (req, body, res) => {
    payload = JSON.parse(body);
    const typed = payload.options.find((o) => o.focused).value;
    json(res, 200, { type: 'autocomplete', data: { choices: [`${typed}ia`, `${typed}ola`].map((v) => ({ name: v, value: v })) } });
  };
  const person = io(srv.url, { auth: { token: w.member.token }, transports: ['websocket'] });
  sockets.push(person);
  await new Promise((resolve, reject) => { person.on('connect', resolve); person.on('connect_error', reject); });
  const shown = new Promise((resolve) => person.on('INTERACTION_AUTOCOMPLETE', resolve));
  const r = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/interactions`, { token: w.member.token, body: { type: 'autocomplete', applicationId: w.info.app.id, commandName: 'busca', focused: 'termo', options: [{ name: 'termo', value: 'Bah' }] } });
  assert.equal(r.status, 202, r.text);
  assert.equal(payload.type, 'autocomplete');
  const got = await shown;
  assert.deepEqual(got.choices.map((c) => c.value), ['Bahia', 'Bahola']);

  // 26 choices from the endpoint: refused, and the person is told why.
  handler = (req, body, res) => json(res, 200, { type: 'autocomplete', data: { choices: Array.from({ length: 26 }, (_, i) => ({ name: `n${i}`, value: `v${i}` })) } });
  const many = await api(srv.url, 'POST', `/api/servers/${w.sid}/channels/${w.cid}/interactions`, { token: w.member.token, body: { type: 'autocomplete', applicationId: w.info.app.id, commandName: 'busca', focused: 'termo' } });
  assert.equal(many.status, 502);
  assert.equal(many.body.error, 'A resposta da aplicação foi recusada: data.choices: deve ser uma lista de até 25 {name, value}');
});
