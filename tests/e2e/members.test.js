// Members and moderation: invites, discovery, leave, kick, ban, timeout, requires2FA,
// rules acceptance, automod settings, the member list and DMs.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, serverWithMembers, totp, gatewayConnect, eventually, appWithBot, quiet, sharedServer, acquaint } = require('./helpers');

const { P } = require('./permissions');
const BOGUS_ID = '01a1fe3b-0000-7000-8000-000000000000';

const sockets = [];
const srv = sharedServer({ args: ['--test-clock'] }, sockets);

async function giveRole(owner, sid, userId, permissions) {
  const role = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'R', permissions } });
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${userId}/roles/${role.body.role.id}`, { token: owner.token });
  return role.body.role;
}
const isMember = async (sid, u) => (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: u.token })).status === 200;

test('joining (by invite or discovery) and leaving are limited to 20 a minute each per account', async () => {
  const { code, sid, owner } = await serverWithMembers(srv.url, 0);
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { discoverable: true } });
  const u = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: u.token })).status, 200);
  let joins = 1, leaves = 0;
  for (; leaves < 20; leaves++, joins++) {
    assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: u.token })).status, 200, `leave ${leaves + 1}`);
    if (joins === 20) break;
    assert.equal((await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: u.token })).status, 200, `join ${joins + 1}`);
  }
  const join = await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: u.token });
  assert.equal(join.status, 429, 'the 21st join');
  assert.ok(join.body.retryAfterMs > 0);
  assert.equal(await isMember(sid, u), false, 'the refused join changed nothing');
  const discovered = await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: u.token });
  assert.equal(discovered.status, 429, 'joining through discovery counts against the same limit');
  assert.equal(await isMember(sid, u), false);
  const other = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: other.token })).status, 200, 'others still join');
});

test('invites: create, look up, join once, joining again changes nothing', async () => {
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  const inv = await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token });
  assert.equal(inv.status, 200);
  assert.match(inv.body.code, /^[A-Za-z0-9]{10}$/);
  const look = await api(srv.url, 'GET', `/api/invites/${inv.body.code}`);
  assert.equal(look.status, 200);
  assert.equal(look.body.invite.server.id, sid);
  assert.equal(look.body.invite.server.memberCount, 1);
  const u = await register(srv.url);
  const j = await api(srv.url, 'POST', `/api/invites/${inv.body.code}/join`, { token: u.token });
  assert.equal(j.status, 200);
  assert.equal(j.body.server.id, sid);
  assert.ok(Array.isArray(j.body.channels) && Array.isArray(j.body.roles));
  const again = await api(srv.url, 'POST', `/api/invites/${inv.body.code}/join`, { token: u.token });
  assert.equal(again.status, 200);
  const list = await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: u.token });
  assert.equal(list.body.members.length, 2);
  for (const code of ['nope0nope0', 'bad-code!', 'x'.repeat(40)]) {
    assert.equal((await api(srv.url, 'POST', `/api/invites/${encodeURIComponent(code)}/join`, { token: u.token })).status, 404, code);
  }
  assert.equal((await api(srv.url, 'POST', `/api/invites/${inv.body.code}/join`)).status, 401);
});

test('invites: maxUses and maxAgeSeconds, and CRIAR_CONVITE', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  const once = await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: { maxUses: 1, maxAgeSeconds: 60 } });
  assert.equal(once.body.maxUses, 1);
  assert.match(once.body.expiresAt, /Z$/);
  const a = await register(srv.url);
  const b = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', `/api/invites/${once.body.code}/join`, { token: a.token })).status, 200);
  assert.equal((await api(srv.url, 'POST', `/api/invites/${once.body.code}/join`, { token: b.token })).status, 404, 'used up');
  const timed = await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: { maxAgeSeconds: 60 } });
  const listed = async () => (await api(srv.url, 'GET', `/api/servers/${sid}/invites`, { token: owner.token })).body.invites.map((i) => i.code);
  assert.ok((await listed()).includes(timed.body.code));
  assert.ok(!(await listed()).includes(once.body.code), 'used up: not listed');
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 61000 } });
  assert.equal((await api(srv.url, 'POST', `/api/invites/${timed.body.code}/join`, { token: b.token })).status, 404, 'expired');
  assert.ok(!(await listed()).includes(timed.body.code), 'expired: not listed');
  assert.match((await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: { maxUses: 101 } })).body.error, /^maxUses: /);
  assert.match((await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: { maxAgeSeconds: 'x' } })).body.error, /^maxAgeSeconds: /);
  await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${sid}`, { token: owner.token, body: { permissions: 256 } });
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: m.token })).status, 403);
});

test('invites listed and revoked by GERENCIAR_SERVIDOR: only those still usable (the expired: above), newest first, with who made them', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  const path = `/api/servers/${sid}/invites`;
  const make = async (body) => (await api(srv.url, 'POST', path, { token: owner.token, body })).body;
  const used = await make({ maxUses: 1 });
  assert.equal((await api(srv.url, 'POST', `/api/invites/${used.code}/join`, { token: (await register(srv.url)).token })).status, 200);
  const timed = await make({ maxAgeSeconds: 60 });
  const open = await make({ maxAgeSeconds: 0 });
  const week = await make({});
  const weekMs = Date.parse(week.expiresAt) - Date.now();
  assert.ok(weekMs > 7 * 86400_000 - 120_000 && weekMs <= 7 * 86400_000 + 120_000, `no age given: 7 days (${week.expiresAt})`);
  const unsaid = await make({ maxAgeSeconds: null });
  assert.ok(Math.abs(Date.parse(unsaid.expiresAt) - Date.parse(week.expiresAt)) < 120_000, 'null: the default too');
  for (const i of [week, unsaid]) await api(srv.url, 'DELETE', `${path}/${i.code}`, { token: owner.token });
  const list = async (who = owner) => api(srv.url, 'GET', path, { token: who.token });
  let got = await list();
  assert.equal(got.status, 200);
  // serverWithMembers's own invite is in the list too, oldest; the used-up one is not.
  assert.deepEqual(got.body.invites.slice(0, 2).map((i) => i.code), [open.code, timed.code]);
  assert.ok(!got.body.invites.some((i) => i.code === used.code), 'used up');
  assert.deepEqual(got.body.invites[0].createdBy, { id: owner.user.id, username: owner.user.username, displayName: owner.user.displayName });
  assert.equal(got.body.invites[1].expiresAt, timed.expiresAt);
  assert.equal(got.body.invites[0].expiresAt, null);
  // Revoked: gone from the list, and nobody joins with it.
  assert.deepEqual((await api(srv.url, 'DELETE', `${path}/${open.code}`, { token: owner.token })).body, { ok: true });
  assert.ok(!(await list()).body.invites.some((i) => i.code === open.code));
  assert.equal((await api(srv.url, 'POST', `/api/invites/${open.code}/join`, { token: (await register(srv.url)).token })).status, 404);
  assert.equal((await api(srv.url, 'DELETE', `${path}/${open.code}`, { token: owner.token })).status, 404, 'already revoked');
  assert.equal((await api(srv.url, 'DELETE', `${path}/n%C3%A3o-c%C3%B3digo`, { token: owner.token })).status, 404);
  // Another server's invite is not this server's to revoke.
  const other = await serverWithMembers(srv.url, 0);
  const theirs = (await api(srv.url, 'POST', `/api/servers/${other.sid}/invites`, { token: other.owner.token, body: {} })).body;
  assert.equal((await api(srv.url, 'DELETE', `${path}/${theirs.code}`, { token: owner.token })).status, 404);
  assert.equal((await api(srv.url, 'GET', `/api/invites/${theirs.code}`)).status, 200, 'still good');
  // A member without GERENCIAR_SERVIDOR: 403 on both; with it, allowed; a stranger: 404.
  assert.equal((await list(m)).status, 403);
  const keep = await make({});
  assert.equal((await api(srv.url, 'DELETE', `${path}/${keep.code}`, { token: m.token })).status, 403);
  await giveRole(owner, sid, m.user.id, P.GERENCIAR_SERVIDOR);
  assert.equal((await list(m)).status, 200);
  assert.equal((await api(srv.url, 'DELETE', `${path}/${keep.code}`, { token: m.token })).status, 200);
  assert.equal((await list(await register(srv.url))).status, 404);
});

test('discovery: join only discoverable servers; banned people cannot join', async () => {
  const { owner, sid } = await serverWithMembers(srv.url, 0);
  const u = await register(srv.url);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: u.token })).status, 404);
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { discoverable: true } });
  const j = await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: u.token });
  assert.equal(j.status, 200);
  assert.equal(j.body.server.id, sid);
  const banned = await register(srv.url);
  await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${banned.user.id}`, { token: owner.token });
  const refused = await api(srv.url, 'POST', `/api/servers/${sid}/join`, { token: banned.token });
  assert.equal(refused.status, 403);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${BOGUS_ID}/join`, { token: u.token })).status, 404);
});

test('leave: members leave, the owner cannot', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: owner.token })).status, 403);
  assert.deepEqual((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: m.token })).body, { ok: true });
  assert.equal(await isMember(sid, m), false);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: m.token })).status, 404);
});

test('kick: EXPULSAR_MEMBROS, never the owner or oneself, only those ranked below', async () => {
  const { owner, sid, members: [mod, a, b] } = await serverWithMembers(srv.url, 3);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${a.user.id}`, { token: b.token })).status, 403);
  const modRole = await giveRole(owner, sid, mod.user.id, P.EXPULSAR_MEMBROS);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${owner.user.id}`, { token: mod.token })).status, 403);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${mod.user.id}`, { token: mod.token })).status, 403);
  const kicked = await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${a.user.id}`, { token: mod.token });
  assert.deepEqual(kicked.body, { ok: true });
  assert.equal(await isMember(sid, a), false);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${a.user.id}`, { token: mod.token })).status, 404);
  // Equal rank: neither may kick the other.
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${b.user.id}/roles/${modRole.id}`, { token: owner.token });
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${b.user.id}`, { token: mod.token })).status, 403);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${mod.user.id}`, { token: b.token })).status, 403);
  // A role created later sits below: its holder is outranked.
  const c = await register(srv.url);
  await api(srv.url, 'POST', `/api/invites/${(await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token })).body.code}/join`, { token: c.token });
  await giveRole(owner, sid, c.user.id, P.EXPULSAR_MEMBROS);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${mod.user.id}`, { token: c.token })).status, 403);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${c.user.id}`, { token: mod.token })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/not-a-uuid`, { token: owner.token })).status, 404);
});

test('ban: removes the member, blocks invites, shows in the list; unban lets them back', async () => {
  const { owner, sid, code, members: [m, outsider] } = await serverWithMembers(srv.url, 2);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${outsider.user.id}`, { token: m.token })).status, 403);
  const ban = await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${m.user.id}`, { token: owner.token, body: { reason: 'spam' } });
  assert.equal(ban.status, 200);
  assert.equal(ban.body.ban.userId, m.user.id);
  assert.equal(ban.body.ban.reason, 'spam');
  assert.equal(await isMember(sid, m), false);
  const rejoin = await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: m.token });
  assert.equal(rejoin.status, 403);
  const stranger = await register(srv.url);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${stranger.user.id}`, { token: owner.token })).status, 200, 'non-members can be banned');
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${BOGUS_ID}`, { token: owner.token })).status, 404);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${owner.user.id}`, { token: owner.token })).status, 403);
  assert.match((await api(srv.url, 'PUT', `/api/servers/${sid}/bans/${outsider.user.id}`, { token: owner.token, body: { reason: 'x'.repeat(513) } })).body.error, /^reason: /);
  const list = await api(srv.url, 'GET', `/api/servers/${sid}/bans`, { token: owner.token });
  assert.deepEqual(list.body.bans.map((b) => b.userId).sort(), [m.user.id, stranger.user.id].sort());
  const listed = list.body.bans.find((b) => b.userId === m.user.id);
  assert.deepEqual({ ...listed, createdAt: null }, { userId: m.user.id, reason: 'spam', bannedBy: owner.user.id, createdAt: null,
                                                     username: m.user.username, displayName: m.user.displayName }, 'who it is, for a list');
  assert.deepEqual((await api(srv.url, 'DELETE', `/api/servers/${sid}/bans/${m.user.id}`, { token: owner.token })).body, { ok: true });
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/bans/${m.user.id}`, { token: owner.token })).status, 404);
  assert.equal((await api(srv.url, 'POST', `/api/invites/${code}/join`, { token: m.token })).status, 200);
});

test('timeout: MODERAR_MEMBROS sets it, the member keeps only VER_CANAL, null lifts it', async () => {
  const { owner, sid, members: [m, x] } = await serverWithMembers(srv.url, 2);
  const until = new Date(Date.now() + 3600_000).toISOString();
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${x.user.id}`, { token: m.token, body: { timeoutUntil: until } })).status, 403);
  const r = await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${m.user.id}`, { token: owner.token, body: { timeoutUntil: until, timeoutReason: 'calma', nickname: 'Apelido' } });
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body.member), ['userId', 'user', 'nickname', 'roleIds', 'joinedAt', 'timeoutUntil', 'timeoutReason', 'status']);
  assert.equal(r.body.member.timeoutReason, 'calma');
  assert.equal(r.body.member.nickname, 'Apelido');
  assert.ok(Math.abs(Date.parse(r.body.member.timeoutUntil) - Date.parse(until)) < 1000);
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: m.token })).status, 403, 'CRIAR_CONVITE is gone during the timeout');
  assert.equal(await isMember(sid, m), true, 'still sees the server');
  const lifted = await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${m.user.id}`, { token: owner.token, body: { timeoutUntil: null } });
  assert.equal(lifted.body.member.timeoutUntil, null);
  assert.equal(lifted.body.member.nickname, 'Apelido', 'absent fields are kept');
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: m.token })).status, 200);
  const plain = await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${m.user.id}`, { token: owner.token, body: { timeoutUntil: '2030-01-01 10:00:00' } });
  assert.equal(plain.status, 400, 'more than 28 days ahead');
  for (const [body, path] of [[{ timeoutUntil: 'amanhã' }, 'timeoutUntil'], [{ timeoutUntil: 5 }, 'timeoutUntil'], [{ nickname: 'x'.repeat(33) }, 'nickname'], [{ timeoutReason: 'x'.repeat(513) }, 'timeoutReason']]) {
    const bad = await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${m.user.id}`, { token: owner.token, body });
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.ok(bad.body.error.startsWith(path + ': '), bad.body.error);
  }
  const soon = await api(srv.url, 'PATCH', `/api/servers/${sid}/members/${m.user.id}`, { token: owner.token, body: { timeoutUntil: new Date(Date.now() + 120_000).toISOString().replace('T', ' ').slice(0, 19) } });
  assert.notEqual(soon.body.member.timeoutUntil, null, 'the YYYY-MM-DD HH:MM:SS form is accepted');
  await api(srv.url, 'POST', '/api/test/clock', { body: { advanceMs: 121_000 } });
  const after = await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: owner.token });
  assert.equal(after.body.members.find((x2) => x2.userId === m.user.id).timeoutUntil, null, 'an expired timeout is gone');
});

test('requires2FA: moderation refused with requires2FA: true to people without two-factor', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { requires2FA: true } });
  for (const [method, path, body] of [['DELETE', `/api/servers/${sid}/members/${m.user.id}`], ['PUT', `/api/servers/${sid}/bans/${m.user.id}`], ['PATCH', `/api/servers/${sid}/members/${m.user.id}`, { nickname: 'x' }]]) {
    const r = await api(srv.url, method, path, { token: owner.token, body });
    assert.equal(r.status, 403, path);
    assert.equal(r.body.requires2FA, true);
  }
  const start = await api(srv.url, 'POST', '/api/users/@me/mfa/totp', { token: owner.token });
  await api(srv.url, 'POST', '/api/users/@me/mfa/totp/verify', { token: owner.token, body: { code: totp(start.body.secret, Date.now() + 182_000) } });
  const kicked = await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${m.user.id}`, { token: owner.token });
  assert.equal(kicked.status, 200, kicked.text);
});

test('rules acceptance and automod settings', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  assert.deepEqual((await api(srv.url, 'POST', `/api/servers/${sid}/rules/accept`, { token: m.token })).body, { ok: true });
  assert.equal((await api(srv.url, 'POST', `/api/servers/${BOGUS_ID}/rules/accept`, { token: m.token })).status, 404);
  const put = await api(srv.url, 'PUT', `/api/servers/${sid}/automod`, { token: owner.token, body: { blockedWords: [' Feio ', 'chato'], maxMentions: 5 } });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body.automod, { blockedWords: ['Feio', 'chato'], maxMentions: 5 });
  const view = await api(srv.url, 'GET', `/api/servers/${sid}`, { token: m.token });
  assert.deepEqual(view.body.server.automod, { blockedWords: ['Feio', 'chato'], maxMentions: 5 });
  const cleared = await api(srv.url, 'PUT', `/api/servers/${sid}/automod`, { token: owner.token, body: { blockedWords: [], maxMentions: null } });
  assert.deepEqual(cleared.body.automod, { blockedWords: [], maxMentions: null });
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/automod`, { token: m.token, body: { blockedWords: [] } })).status, 403);
  for (const [body, msg] of [[{ blockedWords: 'feio' }, /^blockedWords: /], [{ blockedWords: ['ok', 3] }, /^blockedWords\.1: /], [{ blockedWords: [''] }, /^blockedWords\.0: /], [{ blockedWords: ['x'.repeat(61)] }, /^blockedWords\.0: /], [{ maxMentions: 0 }, /^maxMentions: /], [{ maxMentions: 'a' }, /^maxMentions: /]]) {
    const bad = await api(srv.url, 'PUT', `/api/servers/${sid}/automod`, { token: owner.token, body });
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.match(bad.body.error, msg);
  }
});

test('member list: shape, pagination by user ID, bad parameters', async () => {
  const { owner, sid } = await serverWithMembers(srv.url, 4);
  const all = await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: owner.token });
  assert.equal(all.body.members.length, 5);
  const m = all.body.members[0];
  assert.deepEqual(Object.keys(m.user), ['id', 'username', 'displayName', 'isBot', 'avatarUrl', 'imported']);
  assert.equal(m.user.imported, false);
  assert.equal(m.status, 'offline');
  const first = await api(srv.url, 'GET', `/api/servers/${sid}/members?limit=2`, { token: owner.token });
  assert.equal(first.body.members.length, 2);
  const next = await api(srv.url, 'GET', `/api/servers/${sid}/members?limit=2&after=${first.body.members[1].userId}`, { token: owner.token });
  assert.deepEqual(next.body.members.map((x) => x.userId), all.body.members.slice(2, 4).map((x) => x.userId));
  for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'after=zzz']) {
    assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/members?${q}`, { token: owner.token })).status, 400, q);
  }
  const stranger = await register(srv.url);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}/members`, { token: stranger.token })).status, 404);
});

test("DMs: one's conversations listed, the most recently active first; a message reaches the two people live, nobody else", async () => {
  const [a, b, c, stranger] = [await register(srv.url), await register(srv.url), await register(srv.url), await register(srv.url)];
  const open = async (who, other) => (await api(srv.url, 'POST', '/api/users/@me/dms', { token: who.token, body: { userId: other.user.id } })).body.channel.id;
  const list = async (who) => (await api(srv.url, 'GET', '/api/users/@me/dms', { token: who.token })).body.dms;
  await acquaint(srv.url, a, b, c);
  const withB = await open(a, b);
  const withC = await open(a, c);
  let dms = await list(a);
  assert.deepEqual(dms.map((d) => d.id), [withC, withB], 'the newer conversation first while both are silent');
  assert.deepEqual(dms[0], { id: withC, group: false, userId: c.user.id, username: c.user.username, displayName: c.user.displayName, avatarUrl: null, deleted: false, lastMessageId: null, lastMessageAt: null });
  const [sa, sb, sc, ss] = await Promise.all([a, b, c, stranger].map((p) => gatewayConnect(srv.url, { auth: { token: p.token } }, sockets)));
  const sent = await api(srv.url, 'POST', `/api/dms/${withB}/messages`, { token: b.token, body: { content: 'oi A' } });
  assert.equal(sent.status, 200);
  dms = await list(a);
  assert.deepEqual(dms.map((d) => d.id), [withB, withC], 'the one just written in first');
  assert.equal(dms[0].lastMessageId, sent.body.message.id);
  assert.equal(dms[0].lastMessageAt, sent.body.message.createdAt);
  assert.deepEqual((await list(b)).map((d) => d.userId), [a.user.id]);
  assert.deepEqual(await list(stranger), []);
  for (const s of [sa, sb]) {
    await eventually(() => s.received.some((e) => e.name === 'MESSAGE_CREATE' && e.payload.id === sent.body.message.id) || s.received.map((e) => e.name), 5000, 'both of them live');
    assert.equal(s.received.find((e) => e.name === 'MESSAGE_CREATE').payload.serverId, null);
  }
  await quiet(300);
  for (const s of [sc, ss]) assert.deepEqual(s.received.filter((e) => e.name === 'MESSAGE_CREATE'), [], 'nobody else');
  assert.equal((await api(srv.url, 'GET', '/api/users/@me/dms')).status, 401);
  const info = await appWithBot(srv.url, a);
  assert.equal((await api(srv.url, 'GET', '/api/users/@me/dms', { token: info.botToken })).status, 403, 'bots have no DMs');
});

test('DMs: one channel per pair, found again; self, unknown and malformed targets refused', async () => {
  const a = await register(srv.url);
  const b = await register(srv.url);
  const stranger = await register(srv.url);
  const refused = await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } });
  assert.equal(refused.status, 403, 'no server in common');
  assert.equal(refused.body.error, 'Só é possível conversar com quem está em um servidor em comum com você');
  const sid = await acquaint(srv.url, a, b, stranger);
  const r = await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } });
  assert.equal(r.status, 200);
  assert.equal(r.body.channel.type, 'dm');
  assert.equal(r.body.channel.serverId, null);
  assert.deepEqual(r.body.channel.recipientIds, [a.user.id, b.user.id].sort());
  const back = await api(srv.url, 'POST', '/api/users/@me/dms', { token: b.token, body: { userId: a.user.id } });
  assert.equal(back.body.channel.id, r.body.channel.id);
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: a.user.id } })).status, 400);
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: BOGUS_ID } })).status, 404);
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: 'abc' } })).body.error, 'userId: deve ser um UUID');
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: {} })).body.error, 'userId: obrigatório');
  // Once open, the conversation stays open after the server in common is gone.
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: b.token })).status, 200);
  const again = await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } });
  assert.equal(again.body.channel.id, r.body.channel.id);
  assert.equal((await api(srv.url, 'POST', '/api/users/@me/dms', { token: b.token, body: { userId: stranger.user.id } })).status, 403);
});

test('DMs: opening conversations is limited to 20 a minute per person', async () => {
  const a = await register(srv.url);
  const b = await register(srv.url);
  await acquaint(srv.url, a, b);
  for (let i = 0; i < 20; i++) assert.equal((await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } })).status, 200);
  const over = await api(srv.url, 'POST', '/api/users/@me/dms', { token: a.token, body: { userId: b.user.id } });
  assert.equal(over.status, 429);
  assert.ok(over.body.retryAfterMs > 0);
});
