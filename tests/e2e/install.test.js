// The install flow (start → complete), its state tables, the three-way permission
// intersection, uninstalls, and the bot's view of the servers it is in.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, appWithBot, install, serverWithMembers, sharedServer } = require('./helpers');

const { P } = require('./permissions');
const BOGUS_ID = '01a1fe3b-0000-7000-8000-000000000000';
const srv = sharedServer({ args: ['--test-clock'] });

const startQuery = (info, extra = {}) => new URLSearchParams({ client_id: info.app.clientId, redirect_uri: info.redirect, ...extra });
const start = (who, info, extra) => api(srv.url, 'GET', `/api/oauth2/authorize/start?${startQuery(info, extra)}`, { token: who.token });
const complete = (who, id, body) => api(srv.url, 'POST', `/api/oauth2/authorize/${id}/complete`, { token: who.token, body });

async function botRole(owner, sid, appName) {
  const view = await api(srv.url, 'GET', `/api/servers/${sid}`, { token: owner.token });
  return view.body.roles.find((r) => r.name === `Bot: ${appName}`);
}

test('start: the Authorize session object, with the servers where the person may install', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Guardião' });
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  const other = await api(srv.url, 'POST', '/api/servers', { token: dev.token, body: { name: 'Do dev' } });
  // owner also joins dev's server as a plain member: not installable there.
  const inv = await api(srv.url, 'POST', `/api/servers/${other.body.server.id}/invites`, { token: dev.token });
  await api(srv.url, 'POST', `/api/invites/${inv.body.code}/join`, { token: owner.token });
  const r = await start(owner, info, { permissions: String(P.VER_CANAL | P.ENVIAR_MENSAGENS), state: 'abc' });
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body), ['authorizeSessionId', 'expiresAt', 'requestedPermissions', 'application', 'servers']);
  assert.equal(r.body.requestedPermissions, P.VER_CANAL | P.ENVIAR_MENSAGENS);
  assert.deepEqual(r.body.application, { id: info.app.id, name: 'Guardião', iconUrl: null, description: '', botUsername: 'guardiao_bot' });
  assert.deepEqual(r.body.servers, [{ id: sid, name: 'Servidor de teste', iconUrl: null }]);
  const ttl = Date.parse(r.body.expiresAt) - Date.now();
  assert.ok(ttl > 9 * 60_000 && ttl <= 10 * 60_000 + 1000, String(ttl));
  const noPerms = await start(owner, info);
  assert.equal(noPerms.body.requestedPermissions, 0, 'permissions default to 0');
});

test('start: every error of the spec', async () => {
  const dev = await register(srv.url);
  const someone = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const q = (o) => api(srv.url, 'GET', `/api/oauth2/authorize/start?${new URLSearchParams(o)}`, { token: someone.token });
  assert.equal((await q({ redirect_uri: info.redirect })).body.error, 'client_id: obrigatório');
  assert.equal((await q({ client_id: 'f'.repeat(32), redirect_uri: info.redirect })).status, 404);
  assert.equal((await q({ client_id: info.app.clientId })).body.error, 'redirect_uri: obrigatório');
  for (const uri of [info.redirect + '/', info.redirect.toUpperCase(), info.redirect + '?x=1', 'https://evil.example/callback']) {
    const r = await q({ client_id: info.app.clientId, redirect_uri: uri });
    assert.equal(r.status, 400, uri);
    assert.match(r.body.error, /^redirect_uri: /);
  }
  for (const p of ['-1', '524288', 'abc', '1.5']) {
    assert.equal((await q({ client_id: info.app.clientId, redirect_uri: info.redirect, permissions: p })).status, 400, p);
  }
  assert.equal((await q({ client_id: info.app.clientId, redirect_uri: info.redirect, state: 'é'.repeat(500) })).status, 200);
  assert.match((await q({ client_id: info.app.clientId, redirect_uri: info.redirect, state: 'x'.repeat(501) })).body.error, /^state: /);
  const nul = await q({ client_id: info.app.clientId, redirect_uri: info.redirect, state: 'a\u0000b' });
  assert.equal(nul.status, 400, 'a state is kept byte for byte or refused, never cut');
  assert.equal(nul.body.error, 'state: não pode ter o caractere nulo');
  const noBot = await api(srv.url, 'POST', '/api/applications', { token: dev.token, body: { name: 'sem bot' } });
  await api(srv.url, 'PUT', `/api/applications/${noBot.body.application.id}/oauth/redirect-uris`, { token: dev.token, body: { redirectUris: [info.redirect] } });
  assert.equal((await q({ client_id: noBot.body.application.clientId, redirect_uri: info.redirect })).status, 400);
  await api(srv.url, 'PUT', `/api/applications/${info.app.id}/visibility`, { token: dev.token, body: { isPublic: false } });
  assert.equal((await q({ client_id: info.app.clientId, redirect_uri: info.redirect })).status, 403, 'private for a non-owner');
  assert.equal((await start(dev, info)).status, 200, 'the owner may install a private application');
  assert.equal((await api(srv.url, 'GET', `/api/oauth2/authorize/start?${startQuery(info)}`)).status, 401);
  assert.equal((await api(srv.url, 'GET', `/api/oauth2/authorize/start?${startQuery(info)}`, { token: info.botToken })).status, 403);
});

test('start: at most 60 a minute per person (each keeps a consent session)', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const who = await register(srv.url);
  for (let i = 0; i < 60; i++) assert.equal((await start(who, info)).status, 200, `start ${i}`);
  const over = await start(who, info);
  assert.equal(over.status, 429);
  assert.equal(typeof over.body.retryAfterMs, 'number');
  assert.equal((await start(dev, info)).status, 200, 'another person is not held back');
});

test('complete: granted = requested ∩ installer\'s permissions ∩ what was left checked', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Interseção' });
  const { owner, sid, members: [mgr] } = await serverWithMembers(srv.url, 1);
  // mgr holds GERENCIAR_SERVIDOR + FIXAR_MENSAGENS (and @everyone's defaults), but not GERENCIAR_MENSAGENS.
  const role = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Gerente', permissions: P.GERENCIAR_SERVIDOR | P.FIXAR_MENSAGENS } });
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${mgr.user.id}/roles/${role.body.role.id}`, { token: owner.token });
  const requested = P.VER_CANAL | P.ENVIAR_MENSAGENS | P.FIXAR_MENSAGENS | P.GERENCIAR_MENSAGENS | P.ADICIONAR_REACOES;
  const s = await start(mgr, info, { permissions: String(requested), state: 'xyz 123' });
  assert.deepEqual(s.body.servers.map((x) => x.id), [sid]);
  // Unchecks ADICIONAR_REACOES, and tries to add MENCIONAR_TODOS (never requested).
  const checked = requested & ~P.ADICIONAR_REACOES | P.MENCIONAR_TODOS;
  const r = await complete(mgr, s.body.authorizeSessionId, { serverId: sid, permissions: checked });
  assert.equal(r.status, 200, r.text);
  const expected = P.VER_CANAL | P.ENVIAR_MENSAGENS | P.FIXAR_MENSAGENS;
  assert.deepEqual(r.body.install, { serverId: sid, grantedPermissions: expected });
  assert.equal(r.body.redirectUrl, `${info.redirect}?state=xyz%20123`);
  const managed = await botRole(owner, sid, 'Interseção');
  assert.equal(managed.permissions, expected);
  assert.equal(managed.managed, true);
  const apps = await api(srv.url, 'GET', `/api/servers/${sid}/applications`, { token: mgr.token });
  assert.deepEqual(Object.keys(apps.body.applications[0]), ['id', 'name', 'iconUrl', 'botUserId', 'grantedPermissions', 'installedAt']);
  assert.equal(apps.body.applications[0].grantedPermissions, expected);
  const members = await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: owner.token });
  const botMember = members.body.members.find((m) => m.userId === info.app.botUserId);
  assert.equal(botMember.user.isBot, true);
  assert.deepEqual(botMember.roleIds, [managed.id]);
  const botServers = await api(srv.url, 'GET', '/api/bot/servers', { token: info.botToken });
  assert.deepEqual(botServers.body.servers, [{ id: sid, name: 'Servidor de teste', iconUrl: null, grantedPermissions: expected }]);
  const installs = await api(srv.url, 'GET', `/api/applications/${info.app.id}/installs`, { token: dev.token });
  assert.deepEqual(Object.keys(installs.body.installs[0]), ['serverId', 'serverName', 'grantedPermissions', 'installedAt', 'installedBy']);
  assert.equal(installs.body.installs[0].installedBy, mgr.user.id);
});

test('complete without permissions leaves every requested bit checked; no state means a bare redirect', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { redirect: 'https://bot.example/cb?from=praca' });
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  const s = await start(owner, info, { permissions: String(P.ADMINISTRADOR | P.VER_CANAL) });
  const r = await complete(owner, s.body.authorizeSessionId, { serverId: sid });
  assert.equal(r.body.install.grantedPermissions, P.ADMINISTRADOR | P.VER_CANAL, 'the owner holds every bit');
  assert.equal(r.body.redirectUrl, 'https://bot.example/cb?from=praca');
  const s2 = await start(owner, info, { state: 'a&b=c' });
  const r2 = await complete(owner, s2.body.authorizeSessionId, { serverId: sid });
  assert.equal(r2.body.redirectUrl, 'https://bot.example/cb?from=praca&state=a%26b%3Dc');
});

test('complete: 403 without GERENCIAR_SERVIDOR keeps the session pending; then used once', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const mine = await serverWithMembers(srv.url, 0);
  const theirs = await serverWithMembers(srv.url, 1);
  const installer = mine.owner;
  await api(srv.url, 'POST', `/api/invites/${theirs.code}/join`, { token: installer.token });
  const s = await start(installer, info, { permissions: String(P.VER_CANAL) });
  const denied = await complete(installer, s.body.authorizeSessionId, { serverId: theirs.sid });
  assert.equal(denied.status, 403);
  const notMember = await complete(installer, s.body.authorizeSessionId, { serverId: BOGUS_ID });
  assert.equal(notMember.status, 403);
  const ok = await complete(installer, s.body.authorizeSessionId, { serverId: mine.sid });
  assert.equal(ok.status, 200, 'still pending after the 403');
  const again = await complete(installer, s.body.authorizeSessionId, { serverId: mine.sid });
  assert.equal(again.status, 404, 'used');
});

test('complete: unknown, malformed, someone else\'s, and bad bodies', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  const intruder = await register(srv.url);
  assert.equal((await complete(owner, BOGUS_ID, { serverId: sid })).status, 404);
  assert.equal((await complete(owner, 'not-a-session', { serverId: sid })).status, 404);
  const s = await start(owner, info);
  assert.equal((await complete(intruder, s.body.authorizeSessionId, { serverId: sid })).status, 404);
  assert.equal((await complete(owner, s.body.authorizeSessionId, {})).body.error, 'serverId: obrigatório');
  assert.equal((await complete(owner, s.body.authorizeSessionId, { serverId: 'x' })).body.error, 'serverId: deve ser um UUID');
  assert.match((await complete(owner, s.body.authorizeSessionId, { serverId: sid, permissions: 1 << 20 })).body.error, /^permissions: /);
  assert.equal((await complete(owner, s.body.authorizeSessionId, { serverId: sid })).status, 200, 'bad bodies did not use it');
});

test('complete: a session expires after 10 minutes', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  const s = await start(owner, info);
  const fresh = await start(owner, info);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 9 * 60_000 } });
  assert.equal((await complete(owner, fresh.body.authorizeSessionId, { serverId: sid })).status, 200, 'still valid at 9 minutes');
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 60_001 } });
  assert.equal((await complete(owner, s.body.authorizeSessionId, { serverId: sid })).status, 404);
});

test('reinstall only updates the managed role; uninstall by the owner and by a server admin', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Reinstalável' });
  const { owner, sid, members: [plain] } = await serverWithMembers(srv.url, 1);
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  const first = await botRole(owner, sid, 'Reinstalável');
  const { complete: again } = await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS });
  assert.equal(again.body.install.grantedPermissions, P.VER_CANAL | P.ENVIAR_MENSAGENS);
  const second = await botRole(owner, sid, 'Reinstalável');
  assert.equal(second.id, first.id);
  assert.equal(second.permissions, P.VER_CANAL | P.ENVIAR_MENSAGENS);
  const members = await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: owner.token });
  assert.equal(members.body.members.filter((m) => m.userId === info.app.botUserId).length, 1);
  // Managed roles cannot be edited, deleted, given or taken.
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${first.id}`, { token: owner.token, body: { name: 'x' } })).status, 403);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/roles/${first.id}`, { token: owner.token })).status, 403);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/members/${plain.user.id}/roles/${first.id}`, { token: owner.token })).status, 403);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${info.app.botUserId}/roles/${first.id}`, { token: owner.token })).status, 403);
  // A member without GERENCIAR_SERVIDOR cannot uninstall; the server owner can.
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/applications/${info.app.id}`, { token: plain.token })).status, 403);
  assert.deepEqual((await api(srv.url, 'DELETE', `/api/servers/${sid}/applications/${info.app.id}`, { token: owner.token })).body, { ok: true });
  assert.equal(await botRole(owner, sid, 'Reinstalável'), undefined, 'the managed role is gone');
  assert.deepEqual((await api(srv.url, 'GET', `/api/servers/${sid}/applications`, { token: owner.token })).body, { applications: [] });
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/applications/${info.app.id}`, { token: owner.token })).status, 404);
  // The application owner uninstalls from their side.
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  assert.deepEqual((await api(srv.url, 'DELETE', `/api/applications/${info.app.id}/installs/${sid}`, { token: dev.token })).body, { ok: true });
  assert.equal((await api(srv.url, 'DELETE', `/api/applications/${info.app.id}/installs/${sid}`, { token: dev.token })).status, 404);
  assert.deepEqual((await api(srv.url, 'GET', '/api/bot/servers', { token: info.botToken })).body, { servers: [] });
  assert.equal((await api(srv.url, 'GET', `/api/bot/servers/${sid}`, { token: info.botToken })).status, 404);
});

test('kicking a bot uninstalls it; a banned bot cannot be installed', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  assert.deepEqual((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${info.app.botUserId}`, { token: owner.token })).body, { ok: true });
  assert.deepEqual((await api(srv.url, 'GET', `/api/applications/${info.app.id}/installs`, { token: dev.token })).body, { installs: [] });
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${info.app.botUserId}`, { token: owner.token })).status, 200);
  assert.deepEqual((await api(srv.url, 'GET', `/api/applications/${info.app.id}/installs`, { token: dev.token })).body, { installs: [] });
  const { complete: refused } = await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  assert.equal(refused.status, 403);
});

test('a bot works on the normal server routes with its granted bits, and sees members only with members.read', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL | P.GERENCIAR_CANAIS | P.EXPULSAR_MEMBROS });
  const view = await api(srv.url, 'GET', `/api/bot/servers/${sid}`, { token: info.botToken });
  assert.equal(view.status, 200);
  assert.equal(view.body.server.id, sid);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}`, { token: info.botToken })).status, 200);
  const ch = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: info.botToken, body: { name: 'do-bot' } });
  assert.equal(ch.status, 201);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: info.botToken, body: { name: 'x' } })).status, 403);
  assert.equal((await api(srv.url, 'GET', `/api/bot/servers/${sid}/members`, { token: info.botToken })).status, 403);
  await api(srv.url, 'PUT', `/api/applications/${info.app.id}/intents`, { token: dev.token, body: { intents: ['members.read'] } });
  const members = await api(srv.url, 'GET', `/api/bot/servers/${sid}/members`, { token: info.botToken });
  assert.equal(members.status, 200);
  assert.equal(members.body.members.length, 3);
  // Moderation by bots is refused in a server that requires 2FA.
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { requires2FA: true } });
  const kick = await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${m.user.id}`, { token: info.botToken });
  assert.equal(kick.status, 403);
  assert.equal(kick.body.requires2FA, true);
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { requires2FA: false } });
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${m.user.id}`, { token: info.botToken })).status, 200);
  // Bots accept no rules and join nothing by themselves.
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/rules/accept`, { token: info.botToken })).status, 403);
});

test('complete is limited to 30 per hour per installer', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev);
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  for (let i = 0; i < 30; i++) {
    const { complete: r } = await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
    assert.equal(r.status, 200, `install ${i + 1}`);
  }
  const { complete: r } = await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  assert.equal(r.status, 429);
  assert.ok(r.body.retryAfterMs > 0);
});

test('a server holds at most --server-bots-max bots; bots\' roles do not count toward the 250 roles people make', async () => {
  const small = await startServer({ args: ['--server-bots-max', '2', '--rate-limit-scale', '100'] });
  try {
    const dev = await register(small.url);
    const { owner, sid } = await serverWithMembers(small.url, 0);
    const bots = [];
    for (const name of ['Um', 'Dois', 'Três']) bots.push(await appWithBot(small.url, dev, { name }));
    for (const info of bots.slice(0, 2)) assert.equal((await install(small.url, owner, info, sid, { permissions: P.VER_CANAL })).complete.status, 200);
    const full = (await install(small.url, owner, bots[2], sid, { permissions: P.VER_CANAL })).complete;
    assert.equal(full.status, 400);
    assert.equal(full.body.error, 'Este servidor já tem o máximo de 2 bots');
    // A bot already there may be installed again (its permissions change).
    const again = (await install(small.url, owner, bots[0], sid, { permissions: P.VER_CANAL | P.ENVIAR_MENSAGENS })).complete;
    assert.equal(again.status, 200);
    // Once one leaves, another may come.
    assert.equal((await api(small.url, 'DELETE', `/api/servers/${sid}/applications/${bots[1].app.id}`, { token: owner.token })).status, 200);
    assert.equal((await install(small.url, owner, bots[2], sid, { permissions: P.VER_CANAL })).complete.status, 200);
    // 249 roles besides @everyone and the two bots' roles: the 250 are people's roles only.
    const make = (name) => api(small.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name } });
    for (let i = 0; i < 249; i += 25) {
      const made = await Promise.all(Array.from({ length: Math.min(25, 249 - i) }, (_, k) => make(`r${i + k}`)));
      for (const r of made) assert.equal(r.status, 201, r.text);
    }
    const over = await make('demais');
    assert.equal(over.status, 400);
    assert.equal(over.body.error, 'name: o servidor já tem o máximo de 250 cargos');
    const roles = (await api(small.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).body.roles;
    assert.equal(roles.length, 252);
    assert.deepEqual(roles.map((r) => r.position).sort((a, b) => a - b), roles.map((_, i) => i), 'ranks 0 … n, none shared');
    assert.equal(roles.filter((r) => r.managed).length, 2);
  } finally {
    await small.stop();
  }
});

test('a managed role is its application\'s: editing, deleting or giving it is 403; a role of another server is 404 here', async () => {
  const dev = await register(srv.url);
  const info = await appWithBot(srv.url, dev, { name: 'Zelador' });
  const { owner, sid, server, members: [m] } = await serverWithMembers(srv.url, 1);
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  const managed = await botRole(owner, sid, 'Zelador');
  const refused = 'Cargo gerenciado por uma aplicação: não pode ser alterado';
  const roles = `/api/servers/${sid}/roles/${managed.id}`;
  for (const [method, path, body] of [['PATCH', roles, { name: 'Meu' }], ['DELETE', roles], ['PUT', `/api/servers/${sid}/members/${m.user.id}/roles/${managed.id}`]]) {
    const r = await api(srv.url, method, path, { token: owner.token, body });
    assert.equal(r.status, 403, `${method} ${path}`);
    assert.equal(r.body.error, refused);
  }
  assert.equal((await botRole(owner, sid, 'Zelador')).name, 'Bot: Zelador', 'unchanged');
  // Another server's role, by its own owner: not a role of this server.
  const elsewhere = await serverWithMembers(srv.url, 0);
  const theirs = await api(srv.url, 'POST', `/api/servers/${elsewhere.sid}/roles`, { token: elsewhere.owner.token, body: { name: 'Deles' } });
  for (const [method, path, body] of [['PATCH', `/api/servers/${sid}/roles/${theirs.body.role.id}`, { name: 'x' }],
    ['DELETE', `/api/servers/${sid}/roles/${theirs.body.role.id}`],
    ['PUT', `/api/servers/${sid}/channels/${server.channels[0].id}/overwrites/${theirs.body.role.id}`, { type: 'role', allow: P.VER_CANAL }]]) {
    const r = await api(srv.url, method, path, { token: owner.token, body });
    assert.equal(r.status, 404, `${method} ${path}`);
    assert.equal(r.body.error, 'Cargo não encontrado');
  }
  assert.equal((await api(srv.url, 'GET', `/api/servers/${elsewhere.sid}`, { token: elsewhere.owner.token })).body.roles.find((r) => r.id === theirs.body.role.id).name, 'Deles');
});
