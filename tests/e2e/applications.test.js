// Application management: every route, owner-only (404 for others), secrets shown once,
// bot generation and token rotation, intents, redirect URIs, visibility, limits.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const { startServer, api, register, appWithBot, install, serverWithMembers, eventually, BIN, sharedServer } = require('./helpers');

const BOGUS_ID = '01a1fe3b-0000-7000-8000-000000000000';
const srv = sharedServer({ args: ['--test-clock'] });

const APP_KEYS = ['id', 'name', 'description', 'iconUrl', 'botUserId', 'botUsername', 'clientId', 'hasBot', 'isPublic', 'intents',
  'interactionsEndpointUrl', 'hasInteractionSigningSecret', 'redirectUris', 'hasClientSecret', 'suspended',
  'suspendedReason', 'createdAt', 'updatedAt'];

test('create returns 201 with the whole Application object, list and get show it', async () => {
  const owner = await register(srv.url);
  const r = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'Meu App', description: 'Faz coisas', iconUrl: 'data:image/png;base64,iVBORw0KGgo=' } });
  assert.equal(r.status, 201);
  const app = r.body.application;
  assert.deepEqual(Object.keys(app), APP_KEYS);
  assert.equal(app.name, 'Meu App');
  assert.equal(app.description, 'Faz coisas');
  assert.equal(app.iconUrl, 'data:image/png;base64,iVBORw0KGgo=');
  assert.match(app.clientId, /^[0-9a-f]{32}$/);
  assert.equal(app.hasBot, false);
  assert.equal(app.botUserId, null);
  assert.equal(app.isPublic, true);
  assert.deepEqual(app.intents, []);
  assert.deepEqual(app.redirectUris, []);
  assert.equal(app.hasClientSecret, false);
  assert.equal(app.hasInteractionSigningSecret, false);
  assert.equal(app.suspended, false);
  assert.equal(app.suspendedReason, null);
  const list = await api(srv.url, 'GET', '/api/applications', { token: owner.token });
  assert.deepEqual(list.body.applications.map((a) => a.id), [app.id]);
  const got = await api(srv.url, 'GET', `/api/applications/${app.id}`, { token: owner.token });
  assert.deepEqual(got.body.application, app);
});

test('create validates name, description and icon; an icon over 2 MB is 413', async () => {
  const owner = await register(srv.url);
  for (const [body, msg] of [[{}, 'name: obrigatório'], [{ name: '' }, /^name: /], [{ name: 'x'.repeat(33) }, /^name: /], [{ name: 3 }, 'name: deve ser um texto'], [{ name: 'ok', description: 5 }, /^description: /], [{ name: 'ok', iconUrl: 'https://x/y.png' }, /^iconUrl: /], [{ name: 'ok', iconUrl: 12 }, /^iconUrl: /]]) {
    const r = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    if (msg instanceof RegExp) assert.match(r.body.error, msg); else assert.equal(r.body.error, msg);
  }
  const big = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'ok', iconUrl: 'data:image/png;base64,' + 'A'.repeat(2_100_000) } });
  assert.equal(big.status, 413);
  const edge = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'x'.repeat(32) } });
  assert.equal(edge.status, 201);
});

test('a person who has just signed up creates an application with a 1 MB icon, also as the first request after a restart', async () => {
  const icon = 'data:image/png;base64,' + 'A'.repeat(1_060_000); // a body over the 1 MiB of a credential not yet checked
  const fresh = await register(srv.url);
  const r = await api(srv.url, 'POST', '/api/applications', { token: fresh.token, body: { name: 'Ícone grande', iconUrl: icon } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.application.iconUrl.length, icon.length);
  const own = await startServer();
  try {
    const who = await register(own.url);
    await own.stop();
    const again = await startServer({ dir: own.dir }); // the session is in the database only
    try {
      const first = await api(again.url, 'POST', '/api/applications', { token: who.token, body: { name: 'Depois do reinício', iconUrl: icon } });
      assert.equal(first.status, 201, first.text);
      // A credential that turns out unknown keeps the small limit, and the 413 says which.
      const unknown = await api(again.url, 'POST', '/api/applications', { token: 'inventado', body: { name: 'x', iconUrl: icon } });
      assert.equal(unknown.status, 413);
      assert.equal(unknown.body.error, 'Corpo da requisição grande demais (máximo 1 MiB)');
    } finally { await again.stop(); }
  } finally { await own.stop(); }
});

test("someone else's application is 404 on every route", async () => {
  const owner = await register(srv.url);
  const other = await register(srv.url);
  const { app } = await appWithBot(srv.url, owner);
  const routes = [
    ['GET', ''], ['PUT', '', { name: 'x' }], ['DELETE', ''], ['POST', '/bot'], ['POST', '/bot/token/rotate'],
    ['PUT', '/intents', { intents: [] }], ['PUT', '/interactions-config', { interactionsEndpointUrl: null }],
    ['POST', '/interactions/signing-secret/rotate'], ['PUT', '/oauth/redirect-uris', { redirectUris: [] }],
    ['PUT', '/visibility', { isPublic: false }], ['GET', '/installs'], ['DELETE', `/installs/${BOGUS_ID}`],
    ['POST', '/oauth/client-secret/rotate'], ['GET', '/commands'],
  ];
  for (const [method, suffix, body] of routes) {
    const r = await api(srv.url, method, `/api/applications/${app.id}${suffix}`, { token: other.token, body });
    assert.equal(r.status, 404, `${method} ${suffix}`);
  }
  assert.equal((await api(srv.url, 'GET', `/api/applications/${BOGUS_ID}`, { token: owner.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', '/api/applications/nope', { token: owner.token })).status, 404);
  const still = await api(srv.url, 'GET', `/api/applications/${app.id}`, { token: owner.token });
  assert.equal(still.body.application.name, app.name, 'nothing changed');
});

test('generate bot: 201 with the token once, 409 the second time; the token authenticates the bot', async () => {
  const owner = await register(srv.url);
  const created = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'Ajudante Ótimo' } });
  const id = created.body.application.id;
  const r = await api(srv.url, 'POST', `/api/applications/${id}/bot`, { token: owner.token });
  assert.equal(r.status, 201);
  assert.equal(r.body.application.hasBot, true);
  assert.match(r.body.application.botUserId, /^[0-9a-f-]{36}$/);
  assert.equal(r.body.botUsername, 'ajudante_otimo_bot');
  assert.ok(r.body.token.length >= 43);
  const again = await api(srv.url, 'POST', `/api/applications/${id}/bot`, { token: owner.token });
  assert.equal(again.status, 409);
  const me = await api(srv.url, 'GET', '/api/bot/@me', { token: r.body.token });
  assert.equal(me.status, 200);
  assert.equal(me.body.user.id, r.body.application.botUserId);
  assert.equal(me.body.user.isBot, true);
  assert.equal(me.body.user.displayName, 'Ajudante Ótimo');
  assert.equal(me.body.application.id, id);
  const text = JSON.stringify((await api(srv.url, 'GET', `/api/applications/${id}`, { token: owner.token })).body);
  assert.ok(!text.includes(r.body.token), 'the token never appears again');
  // Two apps with the same name get distinct bot usernames.
  const twin = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'Ajudante Ótimo' } });
  const twinBot = await api(srv.url, 'POST', `/api/applications/${twin.body.application.id}/bot`, { token: owner.token });
  assert.equal(twinBot.status, 201);
  assert.notEqual(twinBot.body.botUsername, r.body.botUsername);
});

test('rotating the bot token: the old one is 401 at once, the new one works', async () => {
  const owner = await register(srv.url);
  const { app, botToken } = await appWithBot(srv.url, owner);
  const r = await api(srv.url, 'POST', `/api/applications/${app.id}/bot/token/rotate`, { token: owner.token });
  assert.equal(r.status, 200);
  assert.notEqual(r.body.token, botToken);
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token: botToken })).status, 401);
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token: r.body.token })).status, 200);
  const noBot = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'sem bot' } });
  assert.equal((await api(srv.url, 'POST', `/api/applications/${noBot.body.application.id}/bot/token/rotate`, { token: owner.token })).status, 404);
});

test('update: name, description, icon; absent fields kept; null icon clears', async () => {
  const owner = await register(srv.url);
  const { app } = await appWithBot(srv.url, owner);
  const r = await api(srv.url, 'PUT', `/api/applications/${app.id}`, { token: owner.token, body: { name: 'Outro nome', iconUrl: 'data:image/gif;base64,R0lG' } });
  assert.equal(r.status, 200);
  assert.equal(r.body.application.name, 'Outro nome');
  assert.equal(r.body.application.description, '');
  assert.equal(r.body.application.iconUrl, 'data:image/gif;base64,R0lG');
  const cleared = await api(srv.url, 'PUT', `/api/applications/${app.id}`, { token: owner.token, body: { iconUrl: null, description: 'nova' } });
  assert.equal(cleared.body.application.iconUrl, null);
  assert.equal(cleared.body.application.name, 'Outro nome');
  assert.equal(cleared.body.application.description, 'nova');
  assert.equal((await api(srv.url, 'PUT', `/api/applications/${app.id}`, { token: owner.token, body: { name: '' } })).status, 400);
});

test('intents: only the five values, named in the answer', async () => {
  const owner = await register(srv.url);
  const { app } = await appWithBot(srv.url, owner);
  const all = ['messages.read', 'messages.write', 'members.read', 'interactions.receive', 'voice.connect'];
  const r = await api(srv.url, 'PUT', `/api/applications/${app.id}/intents`, { token: owner.token, body: { intents: [...all].reverse() } });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.application.intents, all);
  const bad = await api(srv.url, 'PUT', `/api/applications/${app.id}/intents`, { token: owner.token, body: { intents: ['messages.read', 'guilds'] } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /^intents\.1: /);
  assert.match((await api(srv.url, 'PUT', `/api/applications/${app.id}/intents`, { token: owner.token, body: { intents: 'messages.read' } })).body.error, /^intents: /);
  assert.match((await api(srv.url, 'PUT', `/api/applications/${app.id}/intents`, { token: owner.token, body: { intents: [1] } })).body.error, /^intents\.0: /);
  assert.equal((await api(srv.url, 'PUT', `/api/applications/${app.id}/intents`, { token: owner.token, body: {} })).body.error, 'intents: obrigatório');
  const none = await api(srv.url, 'PUT', `/api/applications/${app.id}/intents`, { token: owner.token, body: { intents: [] } });
  assert.deepEqual(none.body.application.intents, []);
});

test('redirect URIs: at most 10 absolute http(s) URLs without fragment', async () => {
  const owner = await register(srv.url);
  const { app } = await appWithBot(srv.url, owner);
  const url = `/api/applications/${app.id}/oauth/redirect-uris`;
  const ok = await api(srv.url, 'PUT', url, { token: owner.token, body: { redirectUris: ['https://a.example/cb', 'http://localhost:3000/cb?x=1', 'https://a.example/cb'] } });
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body.application.redirectUris, ['https://a.example/cb', 'http://localhost:3000/cb?x=1']);
  for (const [uris, path] of [[['https://a.example/cb#x'], 'redirectUris.0'], [['ok', 'https://x/'], 'redirectUris.0'], [['https://x/', '/relative'], 'redirectUris.1'], [['ftp://x/'], 'redirectUris.0'], [[5], 'redirectUris.0'], [Array.from({ length: 11 }, (_, i) => `https://x/${i}`), 'redirectUris']]) {
    const r = await api(srv.url, 'PUT', url, { token: owner.token, body: { redirectUris: uris } });
    assert.equal(r.status, 400, JSON.stringify(uris));
    assert.ok(r.body.error.startsWith(path + ': '), r.body.error);
  }
  assert.equal((await api(srv.url, 'PUT', url, { token: owner.token, body: { redirectUris: Array.from({ length: 10 }, (_, i) => `https://x/${i}`) } })).status, 200);
});

test('visibility, interactions config and the two secrets (shown once, flags only afterwards)', async () => {
  const owner = await register(srv.url);
  const { app } = await appWithBot(srv.url, owner);
  const base = `/api/applications/${app.id}`;
  const vis = await api(srv.url, 'PUT', `${base}/visibility`, { token: owner.token, body: { isPublic: false } });
  assert.equal(vis.body.application.isPublic, false);
  assert.equal((await api(srv.url, 'PUT', `${base}/visibility`, { token: owner.token, body: { isPublic: 'no' } })).status, 400);
  assert.equal((await api(srv.url, 'PUT', `${base}/visibility`, { token: owner.token, body: {} })).body.error, 'isPublic: obrigatório');
  const cfg = await api(srv.url, 'PUT', `${base}/interactions-config`, { token: owner.token, body: { interactionsEndpointUrl: 'https://bot.example/interactions' } });
  assert.equal(cfg.status, 200);
  assert.equal(cfg.body.application.interactionsEndpointUrl, 'https://bot.example/interactions');
  for (const bad of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.0.0.1/', 'ftp://bot.example/', 'not a url']) {
    const r = await api(srv.url, 'PUT', `${base}/interactions-config`, { token: owner.token, body: { interactionsEndpointUrl: bad } });
    assert.equal(r.status, 400, bad);
    assert.match(r.body.error, /^interactionsEndpointUrl: /);
  }
  const off = await api(srv.url, 'PUT', `${base}/interactions-config`, { token: owner.token, body: { interactionsEndpointUrl: null } });
  assert.equal(off.body.application.interactionsEndpointUrl, null);
  const signing = await api(srv.url, 'POST', `${base}/interactions/signing-secret/rotate`, { token: owner.token });
  assert.equal(signing.status, 200);
  assert.match(signing.body.signingSecret, /^[0-9a-f]{64}$/);
  const client = await api(srv.url, 'POST', `${base}/oauth/client-secret/rotate`, { token: owner.token });
  assert.equal(client.status, 200);
  assert.ok(client.body.clientSecret.length >= 43);
  const after = await api(srv.url, 'GET', base, { token: owner.token });
  assert.equal(after.body.application.hasInteractionSigningSecret, true);
  assert.equal(after.body.application.hasClientSecret, true);
  const everything = JSON.stringify([after.body, (await api(srv.url, 'GET', '/api/applications', { token: owner.token })).body]);
  assert.ok(!everything.includes(signing.body.signingSecret));
  assert.ok(!everything.includes(client.body.clientSecret));
  const second = await api(srv.url, 'POST', `${base}/interactions/signing-secret/rotate`, { token: owner.token });
  assert.notEqual(second.body.signingSecret, signing.body.signingSecret);
});

test('private endpoints are allowed when the operator says so', async () => {
  const s = await startServer({ args: ['--allow-private-endpoints'] });
  try {
    const owner = await register(s.url);
    const { app } = await appWithBot(s.url, owner);
    const r = await api(s.url, 'PUT', `/api/applications/${app.id}/interactions-config`, { token: owner.token, body: { interactionsEndpointUrl: 'http://127.0.0.1:9999/i' } });
    assert.equal(r.status, 200);
  } finally { await s.stop(); }
});

test('commands list is empty until the bot registers commands', async () => {
  const owner = await register(srv.url);
  const { app } = await appWithBot(srv.url, owner);
  const r = await api(srv.url, 'GET', `/api/applications/${app.id}/commands`, { token: owner.token });
  assert.deepEqual(r.body, { commands: [] });
});

test('management routes refuse bot tokens (403) and bot routes refuse sessions (403)', async () => {
  const owner = await register(srv.url);
  const { app, botToken } = await appWithBot(srv.url, owner);
  for (const [method, path] of [['GET', '/api/applications'], ['GET', `/api/applications/${app.id}`], ['POST', '/api/servers'], ['GET', '/api/users/@me'], ['POST', '/api/auth/logout'], ['POST', '/api/users/@me/dms']]) {
    const r = await api(srv.url, method, path, { token: botToken, body: method === 'GET' ? undefined : {} });
    assert.equal(r.status, 403, `${method} ${path}`);
  }
  for (const path of ['/api/bot/@me', '/api/bot/servers']) {
    assert.equal((await api(srv.url, 'GET', path, { token: owner.token })).status, 403, path);
    assert.equal((await api(srv.url, 'GET', path)).status, 401, path);
    assert.equal((await api(srv.url, 'GET', path, { token: 'invalid' })).status, 401, path);
  }
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token: botToken })).status, 200, 'logout did not revoke the bot token');
});

test('limits: 10 applications per hour, then 429 with retryAfterMs and no rate-limit headers', async () => {
  const owner = await register(srv.url);
  for (let i = 0; i < 10; i++) {
    assert.equal((await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: `app ${i}` } })).status, 201);
  }
  const r = await api(srv.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'demais' } });
  assert.equal(r.status, 429);
  assert.ok(r.body.retryAfterMs > 0 && r.body.retryAfterMs <= 3600_000);
  assert.equal(r.headers.get('retry-after'), null);
  assert.equal([...r.headers.keys()].filter((k) => k.startsWith('x-ratelimit')).length, 0);
  const other = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', '/api/applications', { token: other.token, body: { name: 'outro' } })).status, 201, 'per account');
});

test('limits: rotations 20 per hour each, bot generation 10 per hour, and the window slides', async () => {
  const owner = await register(srv.url);
  const { app } = await appWithBot(srv.url, owner);
  for (let i = 0; i < 20; i++) assert.equal((await api(srv.url, 'POST', `/api/applications/${app.id}/bot/token/rotate`, { token: owner.token })).status, 200);
  assert.equal((await api(srv.url, 'POST', `/api/applications/${app.id}/bot/token/rotate`, { token: owner.token })).status, 429);
  assert.equal((await api(srv.url, 'POST', `/api/applications/${app.id}/interactions/signing-secret/rotate`, { token: owner.token })).status, 200, 'each secret has its own counter');
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 3600_001 } });
  assert.equal((await api(srv.url, 'POST', `/api/applications/${app.id}/bot/token/rotate`, { token: owner.token })).status, 200);
  const gen = await register(srv.url);
  const ids = [];
  for (let i = 0; i < 10; i++) ids.push((await api(srv.url, 'POST', '/api/applications', { token: gen.token, body: { name: `g${i}` } })).body.application.id);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 3600_001 } });
  const extra = (await api(srv.url, 'POST', '/api/applications', { token: gen.token, body: { name: 'g10' } })).body.application.id;
  for (const id of ids) assert.equal((await api(srv.url, 'POST', `/api/applications/${id}/bot`, { token: gen.token })).status, 201);
  assert.equal((await api(srv.url, 'POST', `/api/applications/${extra}/bot`, { token: gen.token })).status, 429);
});

test('delete: the bot token stops working and the bot leaves every server', async () => {
  const owner = await register(srv.url);
  const info = await appWithBot(srv.url, owner);
  const { sid } = await serverWithMembers(srv.url, 0).then(async (s) => {
    await install(srv.url, s.owner, info, s.sid, { permissions: 1024 });
    return s;
  }).catch(async () => ({}));
  assert.ok(sid);
  const del = await api(srv.url, 'DELETE', `/api/applications/${info.app.id}`, { token: owner.token });
  assert.deepEqual(del.body, { ok: true });
  assert.equal((await api(srv.url, 'GET', '/api/bot/@me', { token: info.botToken })).status, 401);
  assert.equal((await api(srv.url, 'GET', `/api/applications/${info.app.id}`, { token: owner.token })).status, 404);
});

test('praca admin suspend / unsuspend: 401 for the bot, 403 at install start, while serving', async () => {
  const owner = await register(srv.url);
  const info = await appWithBot(srv.url, owner);
  const run = (...args) => spawnSync(BIN, ['admin', ...args, ...srv.storeArgs], { encoding: 'utf8' });
  const bad = run('suspend', info.app.id);
  assert.equal(bad.status, 2, 'a reason is required');
  const s = run('suspend', info.app.id, '--reason', 'spam em massa');
  assert.equal(s.status, 0, s.stderr);
  const botStatus = async (want) => (await api(srv.url, 'GET', '/api/bot/@me', { token: info.botToken })).status === want;
  await eventually(() => botStatus(401), 2500, 'suspension seen by the server');
  const view = await api(srv.url, 'GET', `/api/applications/${info.app.id}`, { token: owner.token });
  assert.equal(view.body.application.suspended, true);
  assert.equal(view.body.application.suspendedReason, 'spam em massa');
  const q = new URLSearchParams({ client_id: info.app.clientId, redirect_uri: info.redirect });
  assert.equal((await api(srv.url, 'GET', `/api/oauth2/authorize/start?${q}`, { token: owner.token })).status, 403);
  const u = run('unsuspend', info.app.id);
  assert.equal(u.status, 0, u.stderr);
  await eventually(() => botStatus(200), 2500, 'unsuspension seen by the server');
  const after = await api(srv.url, 'GET', `/api/applications/${info.app.id}`, { token: owner.token });
  assert.equal(after.body.application.suspendedReason, null);
  assert.equal(run('suspend', BOGUS_ID, '--reason', 'x').status, 1);
});

test('PRACA_RATE_LIMIT_SCALE multiplies every count', async () => {
  const s = await startServer({ env: { PRACA_RATE_LIMIT_SCALE: '0.2' } });
  try {
    const owner = await register(s.url);
    assert.equal((await api(s.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'a' } })).status, 201);
    assert.equal((await api(s.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'b' } })).status, 201);
    assert.equal((await api(s.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'c' } })).status, 429, '10 × 0.2 = 2');
  } finally { await s.stop(); }
  const big = await startServer({ args: ['--rate-limit-scale', '3'] });
  try {
    const owner = await register(big.url);
    for (let i = 0; i < 30; i++) assert.equal((await api(big.url, 'POST', '/api/applications', { token: owner.token, body: { name: `a${i}` } })).status, 201);
    assert.equal((await api(big.url, 'POST', '/api/applications', { token: owner.token, body: { name: 'x' } })).status, 429);
  } finally { await big.stop(); }
});
