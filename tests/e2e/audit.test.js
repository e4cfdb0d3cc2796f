// The audit log: each moderation and configuration change with its actor, target, before and
// after, and the reason given in X-Audit-Log-Reason; read with VER_AUDITORIA, filtered, paged,
// kept 90 days.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, appWithBot, install, serverWithMembers, sharedServer } = require('./helpers');
const { P } = require('./permissions');

const srv = sharedServer({ args: ['--test-clock'] }, []);
const why = (text) => ({ 'x-audit-log-reason': encodeURIComponent(text) });

test('changes are recorded with who, what, before and after, and why; only VER_AUDITORIA reads them', async () => {
  const w = await serverWithMembers(srv.url, 2);
  const [bia, caio] = w.members;
  const as = (who, method, p, body, headers) => api(srv.url, method, `/api/servers/${w.sid}${p}`, { token: who.token, body, headers });
  const cid = w.server.channels[0].id;
  assert.equal((await as(w.owner, 'PATCH', `/channels/${cid}`, { name: 'sala' }, why('nome mais curto'))).status, 200);
  const role = (await as(w.owner, 'POST', '/roles', { name: 'Moderação', permissions: P.VER_AUDITORIA | P.EXPULSAR_MEMBROS })).body.role;
  assert.equal((await as(w.owner, 'PATCH', `/roles/${role.id}`, { color: 0xff0000 })).status, 200);
  assert.equal((await as(w.owner, 'PUT', `/members/${bia.user.id}/roles/${role.id}`, undefined, why('ajuda na moderação'))).status, 200);
  assert.equal((await as(w.owner, 'PUT', `/channels/${cid}/overwrites/${w.sid}`, { type: 'role', deny: P.ENVIAR_MENSAGENS })).status, 200);
  assert.equal((await as(w.owner, 'PATCH', `/members/${caio.user.id}`, { timeoutUntil: new Date(Date.now() + 3600e3).toISOString() }, why('spam ✋'))).status, 200);
  assert.equal((await as(bia, 'DELETE', `/members/${caio.user.id}`, undefined, why('insistiu'))).status, 200, 'a kick by a moderator');
  assert.equal((await as(w.owner, 'PUT', '/automod', { blockedWords: ['feio'] })).status, 200);
  assert.equal((await as(w.owner, 'PATCH', '', { verificationLevel: 1 })).status, 200);
  const info = await appWithBot(srv.url, w.owner, {});
  await install(srv.url, w.owner, info, w.sid, { permissions: P.VER_CANAL | P.VER_AUDITORIA });
  assert.equal((await as(w.owner, 'POST', `/channels/${cid}/webhooks`, { name: 'CI' })).status, 201);

  // Bia has VER_AUDITORIA through her role; Caio is gone, and a plain member may not read.
  const log = await as(bia, 'GET', '/audit-log');
  assert.equal(log.status, 200, log.text);
  const entries = log.body.entries;
  assert.deepEqual(entries.map((e) => e.action), ['webhook.create', 'application.install', 'server.update', 'automod.update', 'member.kick',
    'member.timeout', 'channel.overwrite.create', 'member.role.add', 'role.update', 'role.create', 'channel.update', 'invite.create']);
  const byAction = Object.fromEntries(entries.map((e) => [e.action, e]));
  assert.deepEqual(byAction['channel.update'].changes, [{ key: 'name', old: 'geral', new: 'sala' }]);
  assert.equal(byAction['channel.update'].reason, 'nome mais curto');
  assert.deepEqual([byAction['channel.update'].actorId, byAction['channel.update'].targetType, byAction['channel.update'].targetId], [w.owner.user.id, 'channel', cid]);
  assert.deepEqual(byAction['role.update'].changes, [{ key: 'color', old: 0, new: 0xff0000 }]);
  assert.equal(byAction['member.timeout'].reason, 'spam ✋');
  assert.equal(byAction['member.kick'].actorId, bia.user.id);
  assert.deepEqual(byAction['server.update'].changes, [{ key: 'verificationLevel', old: 0, new: 1 }]);
  assert.deepEqual(byAction['channel.overwrite.create'].changes.find((c) => c.key === 'deny'), { key: 'deny', old: null, new: P.ENVIAR_MENSAGENS });
  assert.equal(byAction['application.install'].targetId, info.app.id);

  const other = await serverWithMembers(srv.url, 1);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${other.sid}/audit-log`, { token: other.members[0].token })).status, 403);

  // Filters and pages.
  const mine = await as(w.owner, 'GET', `/audit-log?actorId=${bia.user.id}`);
  assert.deepEqual(mine.body.entries.map((e) => e.action), ['member.kick']);
  assert.deepEqual((await as(w.owner, 'GET', '/audit-log?action=role.create')).body.entries.length, 1);
  assert.deepEqual((await as(w.owner, 'GET', `/audit-log?targetId=${caio.user.id}`)).body.entries.map((e) => e.action), ['member.kick', 'member.timeout']);
  const page1 = await as(w.owner, 'GET', '/audit-log?limit=4');
  assert.equal(page1.body.entries.length, 4);
  assert.equal(page1.body.hasMore, true);
  const page2 = await as(w.owner, 'GET', `/audit-log?limit=100&before=${page1.body.entries[3].id}`);
  assert.deepEqual(page2.body.entries.map((e) => e.action), entries.slice(4).map((e) => e.action));
  assert.equal(page2.body.hasMore, false);
  assert.equal((await as(w.owner, 'GET', '/audit-log?limit=0')).status, 400);
  assert.equal((await as(w.owner, 'GET', '/audit-log?before=x')).status, 400);

  // A reason too long or not URL-encoded UTF-8 stops the change before it is made.
  const long = await as(w.owner, 'PATCH', `/channels/${cid}`, { name: 'outra' }, why('x'.repeat(513)));
  assert.equal(long.status, 400);
  assert.equal(long.body.error, 'X-Audit-Log-Reason: deve ter até 512 caracteres, em UTF-8 codificado para URL, sem controles');
  assert.equal((await as(w.owner, 'PATCH', `/channels/${cid}`, { name: 'outra' }, { 'x-audit-log-reason': '%ZZ' })).status, 400);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${w.sid}/channels/${cid}/messages`, { token: w.owner.token })).status, 200, 'reads ignore it? they never carry one');
  assert.equal((await as(w.owner, 'PATCH', `/channels/${cid}`, { name: 'x'.repeat(1) }, why('y'.repeat(512)))).status, 200, '512 is fine');

  // A bot granted VER_AUDITORIA reads it too; entries are kept 90 days (a bot's token outlives
  // the sessions for the check).
  const byBot = () => api(srv.url, 'GET', `/api/servers/${w.sid}/audit-log`, { token: info.botToken });
  assert.equal((await byBot()).body.entries.length, 13);
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 91 * 24 * 3600 * 1000 } });
  assert.deepEqual((await byBot()).body.entries, []);
});
