// Member lists by range: a page subscribes to the rows of a channel's member list it shows
// (members:subscribe), grouped by hoisted role, then connected, then offline, each by name; it
// gets those rows, then MEMBER_LIST_UPDATE with the counts and each of its ranges that changed.
// In a server larger than --presence-people-max (3 here), presence reaches only the pages whose
// list holds the person.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { api, register, uniqueName, gatewayConnect, nextEvent, quiet, sharedServer, eventually } = require('./helpers');
const { P } = require('./permissions');

const sockets = [];
const srv = sharedServer({ env: { PRACA_PRESENCE_PEOPLE_MAX: '3' } }, sockets);

const page = async (who) => {
  const t = await api(srv.url, 'POST', '/api/gateway/ticket', { token: who.token });
  return gatewayConnect(srv.url, { auth: { ticket: t.body.ticket }, transports: ['websocket'] }, sockets);
};
const subscribe = (s, sid, cid, ranges = [[0, 99]]) => s.emitWithAck('members:subscribe', { serverId: sid, channelId: cid, ranges });
// The rows as "group:<id>" and member names, to compare at a glance.
const shown = (rows) => rows.map((r) => (r.group ? `group:${r.group.id}` : `${r.member.name}:${r.member.status}`));
const updates = (s) => s.received.filter((e) => e.name === 'MEMBER_LIST_UPDATE').map((e) => e.payload);
// An account shown as `name`.
async function person(name) {
  const r = await api(srv.url, 'POST', '/api/auth/register', { body: { username: uniqueName(), password: 'senha-secreta-1', displayName: name } });
  assert.equal(r.status, 201, r.text);
  return { token: r.body.token, user: r.body.user };
}
const join = (who, code) => api(srv.url, 'POST', `/api/invites/${code}/join`, { token: who.token });
const nickname = (sid, owner, who, nick) => api(srv.url, 'PATCH', `/api/servers/${sid}/members/${who.user.id}`, { token: owner.token, body: { nickname: nick } });

// A server of "A-dona" and members shown by the names given.
async function named(names) {
  const owner = await person('A-dona');
  const created = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Lista' } });
  const sid = created.body.server.id;
  const invite = (await api(srv.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} })).body.code;
  const members = [];
  for (const n of names) {
    const m = await person(n);
    assert.equal((await join(m, invite)).status, 200);
    members.push(m);
  }
  return { owner, sid, cid: created.body.channels[0].id, members, code: invite };
}

test('the first range: groups in order (hoisted roles, online, offline), names sorted, counts; a join and a role change inside the range come as updates', async () => {
  const { owner, sid, cid, members: [bia, caio, duda], code } = await named(['bia', 'Caio', 'duda']);
  const ownerPage = await page(owner);
  await page(caio); // caio is connected
  const first = await subscribe(ownerPage, sid, cid);
  assert.equal(first.serverId, sid);
  assert.equal(first.channelId, cid);
  assert.equal(first.memberCount, 4);
  assert.equal(first.onlineCount, 2);
  assert.deepEqual(first.groups, [{ id: 'online', count: 2 }, { id: 'offline', count: 2 }]);
  assert.equal(first.ranges.length, 1);
  assert.deepEqual(first.ranges[0].range, [0, 99]);
  assert.deepEqual(shown(first.ranges[0].rows), ['group:online', 'A-dona:online', 'Caio:online', 'group:offline', 'bia:offline', 'duda:offline']);
  const row = first.ranges[0].rows[1].member;
  assert.deepEqual(Object.keys(row).sort(), ['activity', 'isBot', 'name', 'roleIds', 'status', 'userId', 'username']);
  assert.equal(row.activity, null);
  assert.equal(row.userId, owner.user.id);
  assert.equal(row.isBot, false);

  // A hoisted role given to duda, who then connects: duda is listed under it, above everyone.
  const role = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Moderação', hoist: true } });
  assert.equal(role.status, 201, role.text);
  assert.equal(role.body.role.hoist, true);
  const rid = role.body.role.id;
  let next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/members/${duda.user.id}/roles/${rid}`, { token: owner.token })).status, 200);
  let u = await next;
  assert.deepEqual(shown(u.ranges[0].rows), ['group:online', 'A-dona:online', 'Caio:online', 'group:offline', 'bia:offline', 'duda:offline'], 'offline: no group of its role');
  assert.deepEqual(u.ranges[0].rows[5].member.roleIds, [rid], "duda's row carries the role");
  next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  await page(duda);
  u = await next;
  assert.deepEqual(u.groups, [{ id: rid, count: 1 }, { id: 'online', count: 2 }, { id: 'offline', count: 1 }]);
  assert.deepEqual(shown(u.ranges[0].rows), [`group:${rid}`, 'duda:online', 'group:online', 'A-dona:online', 'Caio:online', 'group:offline', 'bia:offline']);
  assert.deepEqual(u.ranges[0].rows[1].member.roleIds, [rid]);

  // Someone joins: offline, between bia and … by name.
  const eva = await person('Eva');
  next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  assert.equal((await join(eva, code)).status, 200);
  u = await next;
  assert.equal(u.memberCount, 5);
  assert.deepEqual(shown(u.ranges[0].rows).slice(-3), ['group:offline', 'bia:offline', 'Eva:offline']);

  // A nickname moves the row; a kick takes it out.
  next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  assert.equal((await nickname(sid, owner, bia, 'Zuleica')).status, 200);
  u = await next;
  assert.deepEqual(shown(u.ranges[0].rows).slice(-3), ['group:offline', 'Eva:offline', 'Zuleica:offline']);
  next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${eva.user.id}`, { token: owner.token })).status, 200);
  u = await next;
  assert.equal(u.memberCount, 4);
  assert.deepEqual(shown(u.ranges[0].rows).slice(-2), ['group:offline', 'Zuleica:offline']);
});

test('a page whose range a change does not touch gets the counts only; a range past the end is empty', async () => {
  const { owner, sid, cid, members: [bia], code } = await named(['bia', 'caio']);
  const top = await page(owner);
  const past = await page(bia);
  const r = await subscribe(past, sid, cid, [[100, 199]]);
  assert.equal(r.memberCount, 3);
  assert.deepEqual(r.ranges, [{ range: [100, 199], rows: [] }]);
  await subscribe(top, sid, cid, [[0, 99], [100, 199]]);
  const [toTop, toPast] = [nextEvent(top, 'MEMBER_LIST_UPDATE', 10000), nextEvent(past, 'MEMBER_LIST_UPDATE', 10000)];
  assert.equal((await join(await person('davi'), code)).status, 200);
  const [a, b] = [await toTop, await toPast];
  assert.equal(a.memberCount, 4);
  assert.deepEqual(a.ranges.map((x) => x.range), [[0, 99]], 'only the range that changed');
  assert.ok(shown(a.ranges[0].rows).includes('davi:offline'));
  assert.equal(b.memberCount, 4);
  assert.deepEqual(b.groups, a.groups);
  assert.deepEqual(b.ranges, [], 'rows 100 to 199 are still none');
});

test('presence in a server larger than --presence-people-max: only to the pages whose range holds the person, as a row that moves', async () => {
  const { owner, sid, cid, members: [bia, caio, duda] } = await named(['bia', 'caio', 'duda']);
  const listening = await page(owner);
  const notListening = await page(bia);
  const narrow = await page(caio);
  await subscribe(listening, sid, cid);
  await subscribe(narrow, sid, cid, [[0, 99]]);
  // duda connects: the subscribers see the row move; nobody gets PRESENCE_UPDATE about duda.
  const moved = nextEvent(listening, 'MEMBER_LIST_UPDATE', 10000);
  const dudaPage = await page(duda);
  const u = await moved;
  assert.ok(shown(u.ranges[0].rows).includes('duda:online'), JSON.stringify(u));
  await eventually(() => updates(narrow).some((x) => x.ranges.length && shown(x.ranges[0].rows).includes('duda:online')), 10000, 'the narrow page sees duda online');
  const gone = nextEvent(listening, 'MEMBER_LIST_UPDATE', 10000);
  dudaPage.disconnect();
  assert.ok(shown((await gone).ranges[0].rows).includes('duda:offline'));
  await quiet();
  const about = (s) => s.received.filter((e) => e.name === 'PRESENCE_UPDATE' && e.payload.userId === duda.user.id);
  assert.deepEqual(about(listening), [], 'a server of 4 people is over the limit of 3: no PRESENCE_UPDATE');
  assert.deepEqual(about(notListening), []);
  assert.deepEqual(updates(notListening), [], 'a page that did not subscribe gets no list');
});

test('members:subscribe: a channel out of sight, another server, a bot, bad payloads; serverId null ends it', async () => {
  const { owner, sid, cid, members: [bia, caio] } = await named(['bia', 'caio']);
  const stranger = await register(srv.url);
  const biaPage = await page(bia);
  const strangerPage = await page(stranger);
  assert.deepEqual(await subscribe(strangerPage, sid, cid), { error: 'Canal não encontrado' });
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${bia.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } })).status, 200);
  assert.deepEqual(await subscribe(biaPage, sid, cid), { error: 'Canal não encontrado' });
  assert.deepEqual(await subscribe(biaPage, sid, '01a1fe3b-0000-7000-8000-000000000000'), { error: 'Canal não encontrado' });
  assert.deepEqual(await subscribe(biaPage, '01a1fe3b-0000-7000-8000-000000000000', cid), { error: 'Servidor não encontrado' });
  const bad = [
    [null, 'payload: deve ser um objeto'],
    [{}, 'serverId: obrigatório'],
    [{ serverId: 'x', channelId: cid, ranges: [[0, 99]] }, 'serverId: deve ser um UUID ou null'],
    [{ serverId: sid, channelId: 5, ranges: [[0, 99]] }, 'channelId: deve ser um UUID'],
    [{ serverId: sid, channelId: cid }, 'ranges: deve ser uma lista de intervalos'],
    [{ serverId: sid, channelId: cid, ranges: [] }, 'ranges: deve ser uma lista de intervalos'],
    [{ serverId: sid, channelId: cid, ranges: [[0, 99], [100, 199], [200, 299], [300, 399]] }, 'ranges: no máximo 3 intervalos'],
    [{ serverId: sid, channelId: cid, ranges: [[0, 50]] }, 'ranges: cada intervalo é [início, início + 99], com início múltiplo de 100'],
    [{ serverId: sid, channelId: cid, ranges: [[50, 149]] }, 'ranges: cada intervalo é [início, início + 99], com início múltiplo de 100'],
    [{ serverId: sid, channelId: cid, ranges: [[-100, -1]] }, 'ranges: cada intervalo é [início, início + 99], com início múltiplo de 100'],
    [{ serverId: sid, channelId: cid, ranges: ['0-99'] }, 'ranges: cada intervalo é [início, início + 99], com início múltiplo de 100'],
  ];
  for (const [payload, error] of bad) assert.deepEqual(await biaPage.emitWithAck('members:subscribe', payload), { error }, JSON.stringify(payload));

  // Out of sight after subscribing: the page hears no more of the list.
  const ownerPage = await page(owner);
  await api(srv.url, 'DELETE', `/api/servers/${sid}/channels/${cid}/overwrites/${bia.user.id}`, { token: owner.token });
  assert.equal((await subscribe(biaPage, sid, cid)).memberCount, 3);
  await subscribe(ownerPage, sid, cid);
  const told = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${bia.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } })).status, 200);
  assert.equal((await told).memberCount, 2, 'the list itself loses bia');
  const before = updates(biaPage).length;
  const renamed = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  assert.equal((await nickname(sid, owner, caio, 'caio-2')).status, 200);
  await renamed;
  assert.equal(updates(biaPage).length, before, 'bia no longer sees the channel: no update');

  // serverId null: the subscription ends.
  assert.deepEqual(await ownerPage.emitWithAck('members:subscribe', { serverId: null }), { ok: true });
  assert.equal((await nickname(sid, owner, caio, 'caio-3')).status, 200);
  await quiet();
  assert.ok(!updates(ownerPage).some((x) => x.ranges.some((r) => shown(r.rows).includes('caio-3:offline'))), 'no update after the end');

  // A bot's connection has no member list.
  const { appWithBot, install } = require('./helpers');
  const info = await appWithBot(srv.url, owner);
  await install(srv.url, owner, info, sid, { permissions: P.VER_CANAL });
  const bot = await gatewayConnect(srv.url, { auth: { token: info.botToken } }, sockets);
  assert.match((await subscribe(bot, sid, cid)).error, /^members:subscribe: só para pessoas/);
});

test("a status text shows in its row while the person is connected: set, read by a list built afresh, gone offline, cleared", async () => {
  const { owner, sid, cid, members: [bia] } = await named(['bia']);
  const ownerPage = await page(owner);
  const biaPage = await page(bia);
  await subscribe(ownerPage, sid, cid);
  const rowOf = (u) => u.ranges[0].rows.find((r) => r.member && r.member.userId === bia.user.id).member;
  const custom = { type: 'custom', name: 'de férias', emoji: '🌴' };
  let next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  const set = await api(srv.url, 'PUT', '/api/users/@me/presence', { token: bia.token, body: { status: 'online', activity: custom } });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(rowOf(await next).activity, custom, 'the same status, a new text: the row changes');
  // A page subscribing later gets a list built with it.
  const another = await page(owner);
  const built = await subscribe(another, sid, cid);
  assert.deepEqual(built.ranges[0].rows.find((r) => r.member && r.member.userId === bia.user.id).member.activity, custom);
  // Offline: no text shown; connected again: shown again.
  next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  biaPage.disconnect();
  let u = await next;
  assert.deepEqual([rowOf(u).status, rowOf(u).activity], ['offline', null]);
  next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  await page(bia);
  u = await next;
  assert.deepEqual([rowOf(u).status, rowOf(u).activity], ['online', custom]);
  // Cleared.
  next = nextEvent(ownerPage, 'MEMBER_LIST_UPDATE', 10000);
  assert.equal((await api(srv.url, 'PUT', '/api/users/@me/presence', { token: bia.token, body: { status: 'online', activity: null } })).status, 200);
  assert.equal(rowOf(await next).activity, null);
});
