// Servers, channels, overwrites and roles, with the permission rules behind each route.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { startServer, api, register, serverWithMembers, sharedServer } = require('./helpers');

const { P } = require('./permissions');
const EVERYONE_DEFAULT = P.VER_CANAL | P.ENVIAR_MENSAGENS | P.ADICIONAR_REACOES | P.CRIAR_CONVITE | P.CONECTAR_VOZ | P.FALAR | P.USAR_COMANDOS;
const BOGUS_ID = '01a1fe3b-0000-7000-8000-000000000000';

const srv = sharedServer();

async function giveRole(owner, sid, userId, permissions, name = 'Cargo') {
  const role = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name, permissions } });
  assert.equal(role.status, 201, role.text);
  const put = await api(srv.url, 'PUT', `/api/servers/${sid}/members/${userId}/roles/${role.body.role.id}`, { token: owner.token });
  assert.equal(put.status, 200, put.text);
  return role.body.role;
}

test('creating a server makes @everyone with the default bits and a text channel geral', async () => {
  const owner = await register(srv.url);
  const r = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: '  Praça Central  ' } });
  assert.equal(r.status, 201);
  const { server, channels, roles } = r.body;
  assert.equal(server.name, 'Praça Central');
  assert.equal(server.ownerId, owner.user.id);
  assert.equal(server.verificationLevel, 0);
  assert.equal(server.requiresRulesAcceptance, false);
  assert.equal(server.requires2FA, false);
  assert.equal(server.discoverable, false);
  assert.deepEqual(server.automod, { blockedWords: [], maxMentions: null });
  assert.equal(channels.length, 1);
  assert.equal(channels[0].name, 'geral');
  assert.equal(channels[0].type, 'text');
  assert.equal(roles.length, 1);
  assert.equal(roles[0].name, '@everyone');
  assert.equal(roles[0].id, server.id);
  assert.equal(roles[0].permissions, EVERYONE_DEFAULT);
  const list = await api(srv.url, 'GET', '/api/servers', { token: owner.token });
  assert.deepEqual(list.body.servers.map((s) => s.id), [server.id]);
});

test('server name is validated', async () => {
  const owner = await register(srv.url);
  for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 7 }]) {
    const r = await api(srv.url, 'POST', '/api/servers', { token: owner.token, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, /^name: /);
  }
  assert.equal((await api(srv.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'x'.repeat(100) } })).status, 201);
});

test('non-members, unknown IDs and malformed IDs all get 404, never 500', async () => {
  const { sid } = await serverWithMembers(srv.url, 0);
  const stranger = await register(srv.url);
  for (const path of [`/api/servers/${sid}`, `/api/servers/${BOGUS_ID}`, '/api/servers/not-a-uuid', "/api/servers/'%20OR%201=1", '/api/servers/%00']) {
    const r = await api(srv.url, 'GET', path, { token: stranger.token });
    assert.equal(r.status, 404, path);
  }
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: stranger.token, body: { name: 'x' } })).status, 404);
});

test('PATCH server needs GERENCIAR_SERVIDOR and validates each setting', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  const denied = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: m.token, body: { name: 'meu' } });
  assert.equal(denied.status, 403);
  assert.match(denied.body.error, /GERENCIAR_SERVIDOR/);
  const r = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { name: 'Novo', verificationLevel: 3, requiresRulesAcceptance: true, rules: 'Seja gentil', requires2FA: true, discoverable: true } });
  assert.equal(r.status, 200);
  assert.equal(r.body.server.name, 'Novo');
  assert.equal(r.body.server.verificationLevel, 3);
  assert.equal(r.body.server.requiresRulesAcceptance, true);
  assert.equal(r.body.server.rules, 'Seja gentil');
  assert.equal(r.body.server.requires2FA, true);
  assert.equal(r.body.server.discoverable, true);
  const keep = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: {} });
  assert.equal(keep.body.server.name, 'Novo', 'absent fields keep their value');
  for (const [body, path] of [[{ verificationLevel: 4 }, 'verificationLevel'], [{ verificationLevel: -1 }, 'verificationLevel'], [{ verificationLevel: '1' }, 'verificationLevel'], [{ requires2FA: 'yes' }, 'requires2FA'], [{ rules: 'x'.repeat(4001) }, 'rules'], [{ iconUrl: 'http://x/y.png' }, 'iconUrl']]) {
    const bad = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body });
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.ok(bad.body.error.startsWith(path + ': '), bad.body.error);
  }
  const icon = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { iconUrl: 'data:image/png;base64,AAAA' } });
  assert.equal(icon.body.server.iconUrl, 'data:image/png;base64,AAAA');
  const bigIcon = await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: owner.token, body: { iconUrl: 'data:image/png;base64,' + 'A'.repeat(2 * 1024 * 1024) } });
  assert.equal(bigIcon.status, 413);
});

test('only the owner deletes a server', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  await giveRole(owner, sid, m.user.id, P.ADMINISTRADOR, 'Admin');
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}`, { token: m.token })).status, 403);
  const del = await api(srv.url, 'DELETE', `/api/servers/${sid}`, { token: owner.token });
  assert.deepEqual(del.body, { ok: true });
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).status, 404);
});

test('channels: create text, forum and voice with GERENCIAR_CANAIS; others get 403', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  const denied = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: m.token, body: { name: 'x' } });
  assert.equal(denied.status, 403);
  for (const type of ['text', 'forum', 'voice']) {
    const r = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: `canal-${type}`, type } });
    assert.equal(r.status, 201);
    assert.equal(r.body.channel.type, type);
    assert.equal(r.body.channel.serverId, sid);
    assert.equal(r.body.channel.parentId, null);
    assert.deepEqual(r.body.channel.overwrites, []);
  }
  const bad = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'x', type: 'thread' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, 'type: deve ser text, forum, voice ou category');
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: '' } })).body.error, 'name: deve ter entre 1 e 100 caracteres');
  await giveRole(owner, sid, m.user.id, P.GERENCIAR_CANAIS);
  const ok = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: m.token, body: { name: 'do-membro' } });
  assert.equal(ok.status, 201);
  const view = await api(srv.url, 'GET', `/api/servers/${sid}`, { token: m.token });
  assert.deepEqual(view.body.channels.map((c) => c.name), ['geral', 'canal-text', 'canal-forum', 'canal-voice', 'do-membro']);
});

test('channels: patch and delete, 404 for channels of other servers', async () => {
  const a = await serverWithMembers(srv.url, 0);
  const b = await serverWithMembers(srv.url, 0);
  const cid = a.server.channels[0].id;
  const patched = await api(srv.url, 'PATCH', `/api/servers/${a.sid}/channels/${cid}`, { token: a.owner.token, body: { name: 'principal', topic: 'Assuntos gerais', position: 3 } });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.channel.name, 'principal');
  assert.equal(patched.body.channel.topic, 'Assuntos gerais');
  assert.equal(patched.body.channel.position, 3);
  const cleared = await api(srv.url, 'PATCH', `/api/servers/${a.sid}/channels/${cid}`, { token: a.owner.token, body: { topic: null } });
  assert.equal(cleared.body.channel.topic, null);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${b.sid}/channels/${cid}`, { token: b.owner.token, body: { name: 'x' } })).status, 404);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${a.sid}/channels/not-an-id`, { token: a.owner.token, body: { name: 'x' } })).status, 404);
  const del = await api(srv.url, 'DELETE', `/api/servers/${a.sid}/channels/${cid}`, { token: a.owner.token });
  assert.deepEqual(del.body, { ok: true });
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${a.sid}/channels/${cid}`, { token: a.owner.token })).status, 404);
});

test('deleting a forum takes its posts and their messages, past one chunk of each', async () => {
  const roomy = await startServer({ args: ['--rate-limit-scale', '1000'] });
  try {
    const owner = await register(roomy.url);
    const sid = (await api(roomy.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'Fórum grande' } })).body.server.id;
    const forum = (await api(roomy.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'perguntas', type: 'forum' } })).body.channel.id;
    const posts = [];
    for (let i = 0; i < 230; i++) { // the posts go 200 at a time
      const r = await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${forum}/threads`, { token: owner.token, body: { name: `pergunta ${i}`, content: `texto ${i}` } });
      assert.equal(r.status, 201, r.text);
      posts.push(r.body.channel.id);
    }
    const last = posts[posts.length - 1];
    for (let i = 0; i < 1010; i++) { // and messages 1,000 at a time
      const r = await api(roomy.url, 'POST', `/api/servers/${sid}/channels/${last}/messages`, { token: owner.token, body: { content: `m${i}` } });
      assert.equal(r.status, 200, r.text);
    }
    assert.deepEqual((await api(roomy.url, 'DELETE', `/api/servers/${sid}/channels/${forum}`, { token: owner.token })).body, { ok: true });
    for (const post of [posts[0], last]) {
      assert.equal((await api(roomy.url, 'GET', `/api/servers/${sid}/channels/${post}/messages`, { token: owner.token })).status, 404);
    }
    const view = await api(roomy.url, 'GET', `/api/servers/${sid}`, { token: owner.token });
    assert.deepEqual(view.body.channels.map((c) => c.name), ['geral']);
    assert.deepEqual((await api(roomy.url, 'DELETE', `/api/servers/${sid}`, { token: owner.token })).body, { ok: true });
    assert.equal((await api(roomy.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).status, 404);
  } finally { await roomy.stop(); }
});

test('GET a server with ?threads=1 lists the threads and forum posts of the channels one can see', async () => {
  const { owner, sid, server, members: [bia] } = await serverWithMembers(srv.url, 1);
  const geral = server.channels[0].id;
  const m = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages`, { token: owner.token, body: { content: 'começo' } })).body.message.id;
  const thread = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${geral}/messages/${m}/threads`, { token: owner.token, body: { name: 'conversa' } })).body.channel.id;
  const hidden = (await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'forum-secreto', type: 'forum' } })).body.channel.id;
  const post = (await api(srv.url, 'POST', `/api/servers/${sid}/channels/${hidden}/threads`, { token: owner.token, body: { name: 'oculto', content: 'x' } })).body.channel.id;
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${hidden}/overwrites/${bia.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  const plain = await api(srv.url, 'GET', `/api/servers/${sid}`, { token: owner.token });
  assert.equal(plain.body.threads, undefined, 'only when asked');
  const mine = await api(srv.url, 'GET', `/api/servers/${sid}?threads=1`, { token: owner.token });
  assert.deepEqual(mine.body.threads.map((t) => t.id).sort(), [thread, post].sort());
  const hers = await api(srv.url, 'GET', `/api/servers/${sid}?threads=1`, { token: bia.token });
  assert.deepEqual(hers.body.threads.map((t) => t.id), [thread], 'not the posts of a forum she cannot see');
});

test('overwrites: deny VER_CANAL to @everyone hides the channel; a role or member allow brings it back', async () => {
  const { owner, sid, members: [m1, m2] } = await serverWithMembers(srv.url, 2);
  const ch = await api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: owner.token, body: { name: 'secreto' } });
  const cid = ch.body.channel.id;
  const put = await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${sid}`, { token: owner.token, body: { type: 'role', allow: 0, deny: P.VER_CANAL } });
  assert.equal(put.status, 200);
  assert.deepEqual(put.body.channel.overwrites, [{ targetId: sid, type: 'role', allow: 0, deny: P.VER_CANAL }]);
  const names = async (u) => (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: u.token })).body.channels.map((c) => c.name);
  assert.deepEqual(await names(m1), ['geral']);
  assert.deepEqual(await names(owner), ['geral', 'secreto'], 'the owner sees everything');
  const hidden = await api(srv.url, 'PATCH', `/api/servers/${sid}/channels/${cid}`, { token: m1.token, body: { name: 'x' } });
  assert.equal(hidden.status, 403, 'a member knows the channel exists but may not reach it');
  assert.equal(hidden.body.error, 'Sem permissão: é preciso VER_CANAL');

  const role = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Confiança' } });
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${m1.user.id}/roles/${role.body.role.id}`, { token: owner.token });
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${role.body.role.id}`, { token: owner.token, body: { type: 'role', allow: P.VER_CANAL } });
  assert.deepEqual(await names(m1), ['geral', 'secreto']);
  assert.deepEqual(await names(m2), ['geral']);
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${m2.user.id}`, { token: owner.token, body: { type: 'member', allow: P.VER_CANAL } });
  assert.deepEqual(await names(m2), ['geral', 'secreto']);
  // The member overwrite wins over the role: deny m1 personally.
  await api(srv.url, 'PUT', `/api/servers/${sid}/channels/${cid}/overwrites/${m1.user.id}`, { token: owner.token, body: { type: 'member', deny: P.VER_CANAL } });
  assert.deepEqual(await names(m1), ['geral']);
  const removed = await api(srv.url, 'DELETE', `/api/servers/${sid}/channels/${cid}/overwrites/${m1.user.id}`, { token: owner.token });
  assert.deepEqual(removed.body, { ok: true });
  assert.deepEqual(await names(m1), ['geral', 'secreto']);
});

test('overwrites: validation, unknown targets, and no granting bits one lacks', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  const cid = (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).body.channels[0].id;
  const url = (t) => `/api/servers/${sid}/channels/${cid}/overwrites/${t}`;
  assert.equal((await api(srv.url, 'PUT', url(sid), { token: owner.token, body: { type: 'team' } })).body.error, 'type: deve ser role ou member');
  assert.match((await api(srv.url, 'PUT', url(sid), { token: owner.token, body: { type: 'role', allow: 1 << 19 } })).body.error, /^allow: /);
  assert.match((await api(srv.url, 'PUT', url(sid), { token: owner.token, body: { type: 'role', deny: -1 } })).body.error, /^deny: /);
  assert.match((await api(srv.url, 'PUT', url(sid), { token: owner.token, body: { type: 'role', allow: 1.5 } })).body.error, /^allow: /);
  assert.equal((await api(srv.url, 'PUT', url(BOGUS_ID), { token: owner.token, body: { type: 'role' } })).status, 404);
  assert.equal((await api(srv.url, 'PUT', url(BOGUS_ID), { token: owner.token, body: { type: 'member' } })).status, 404);
  assert.equal((await api(srv.url, 'PUT', url(sid), { token: m.token, body: { type: 'role', allow: P.VER_CANAL } })).status, 403);
  await giveRole(owner, sid, m.user.id, P.GERENCIAR_CARGOS);
  assert.equal((await api(srv.url, 'PUT', url(sid), { token: m.token, body: { type: 'role', allow: P.BANIR_MEMBROS } })).status, 403, 'cannot grant a bit one lacks');
  assert.equal((await api(srv.url, 'PUT', url(sid), { token: m.token, body: { type: 'role', deny: P.ENVIAR_MENSAGENS } })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', url(BOGUS_ID), { token: owner.token })).status, 404);
});

test('roles: create, edit, delete, with validation and managed/@everyone rules', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  const r = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Moderação', permissions: P.EXPULSAR_MEMBROS | P.BANIR_MEMBROS, mentionable: true, color: 0xff8800 } });
  assert.equal(r.status, 201);
  assert.deepEqual(Object.keys(r.body.role), ['id', 'serverId', 'name', 'permissions', 'color', 'mentionable', 'hoist', 'position', 'managed', 'createdAt']);
  assert.equal(r.body.role.permissions, P.EXPULSAR_MEMBROS | P.BANIR_MEMBROS);
  assert.equal(r.body.role.mentionable, true);
  assert.equal(r.body.role.color, 0xff8800);
  assert.equal(r.body.role.position, 1);
  assert.equal(r.body.role.managed, false);
  assert.equal(r.body.role.hoist, false, 'not listed apart unless asked');
  const asString = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Texto', permissions: String(P.VER_CANAL) } });
  assert.equal(asString.body.role.permissions, P.VER_CANAL);
  for (const [body, path] of [[{ permissions: 1 }, 'name'], [{ name: 'x', permissions: 1 << 19 }, 'permissions'], [{ name: 'x', permissions: -1 }, 'permissions'], [{ name: 'x', permissions: '12abc' }, 'permissions'], [{ name: 'x', color: 0x1000000 }, 'color'], [{ name: 'x', mentionable: 1 }, 'mentionable'], [{ name: 'x', hoist: 'sim' }, 'hoist']]) {
    const bad = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body });
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.ok(bad.body.error.startsWith(path + ': '), bad.body.error);
  }
  assert.equal((await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: m.token, body: { name: 'x' } })).status, 403);
  const patched = await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${r.body.role.id}`, { token: owner.token, body: { name: 'Mods', permissions: P.EXPULSAR_MEMBROS } });
  assert.equal(patched.body.role.name, 'Mods');
  assert.equal(patched.body.role.permissions, P.EXPULSAR_MEMBROS);
  assert.equal(patched.body.role.color, 0xff8800);
  const hoisted = await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${r.body.role.id}`, { token: owner.token, body: { hoist: true } });
  assert.equal(hoisted.body.role.hoist, true);
  assert.equal(hoisted.body.role.name, 'Mods', 'the rest kept');
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${r.body.role.id}`, { token: owner.token, body: { hoist: 0 } })).status, 400);
  const everyone = await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${sid}`, { token: owner.token, body: { permissions: P.VER_CANAL } });
  assert.equal(everyone.body.role.permissions, P.VER_CANAL);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${sid}`, { token: owner.token, body: { name: 'todos' } })).status, 400);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/roles/${sid}`, { token: owner.token })).status, 403);
  assert.deepEqual((await api(srv.url, 'DELETE', `/api/servers/${sid}/roles/${r.body.role.id}`, { token: owner.token })).body, { ok: true });
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/roles/${r.body.role.id}`, { token: owner.token })).status, 404);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${BOGUS_ID}`, { token: owner.token, body: {} })).status, 404);
});

test('roles: effective permissions follow the roles a member holds', async () => {
  const { owner, sid, members: [m] } = await serverWithMembers(srv.url, 1);
  const mk = () => api(srv.url, 'POST', `/api/servers/${sid}/channels`, { token: m.token, body: { name: 'x' } });
  assert.equal((await mk()).status, 403);
  const role = await giveRole(owner, sid, m.user.id, P.ADMINISTRADOR, 'Admin');
  assert.equal((await mk()).status, 201, 'ADMINISTRADOR means every bit');
  const del = await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${m.user.id}/roles/${role.id}`, { token: owner.token });
  assert.deepEqual(del.body, { ok: true });
  assert.equal((await mk()).status, 403);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/${m.user.id}/roles/${role.id}`, { token: owner.token })).status, 404);
});

test('role hierarchy: no managing roles at or above one\'s own, no granting bits one lacks', async () => {
  const { owner, sid, members: [mod, other] } = await serverWithMembers(srv.url, 2);
  const admin = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name: 'Admin', permissions: P.ADMINISTRADOR } });
  const modRole = await giveRole(owner, sid, mod.user.id, P.GERENCIAR_CARGOS, 'Mod');
  // Mod was created after Admin, so it sits at position 1 and Admin above it.
  const giveAdmin = await api(srv.url, 'PUT', `/api/servers/${sid}/members/${mod.user.id}/roles/${admin.body.role.id}`, { token: mod.token });
  assert.equal(giveAdmin.status, 403, 'a moderator cannot hand out a role above theirs');
  const sameLevel = await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${modRole.id}`, { token: mod.token, body: { permissions: P.GERENCIAR_CARGOS | P.BANIR_MEMBROS } });
  assert.equal(sameLevel.status, 403);
  const grant = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: mod.token, body: { name: 'Ban', permissions: P.BANIR_MEMBROS } });
  assert.equal(grant.status, 403, 'a role never gets bits its maker lacks');
  const low = await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: mod.token, body: { name: 'Leitor', permissions: P.VER_CANAL } });
  assert.equal(low.status, 201);
  const given = await api(srv.url, 'PUT', `/api/servers/${sid}/members/${other.user.id}/roles/${low.body.role.id}`, { token: mod.token });
  assert.equal(given.status, 200);
  assert.deepEqual(given.body.member.roleIds, [low.body.role.id]);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/members/${other.user.id}/roles/${sid}`, { token: owner.token })).status, 400, '@everyone is held by all');
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/members/${BOGUS_ID}/roles/${low.body.role.id}`, { token: owner.token })).status, 404);
});

test('role order: a role moves to a new place, the others close up; never to or above one\'s own highest, never @everyone', async () => {
  const { owner, sid, members: [mod] } = await serverWithMembers(srv.url, 1);
  const make = async (name) => (await api(srv.url, 'POST', `/api/servers/${sid}/roles`, { token: owner.token, body: { name } })).body.role.id;
  const a = await make('A');
  const b = await make('B');
  const c = await make('C'); // new roles go just above @everyone: C 1, B 2, A 3
  const order = async () => (await api(srv.url, 'GET', `/api/servers/${sid}`, { token: owner.token })).body.roles
    .sort((x, y) => y.position - x.position).map((r) => [r.name, r.position]);
  assert.deepEqual(await order(), [['A', 3], ['B', 2], ['C', 1], ['@everyone', 0]]);
  const move = (who, rid, position) => api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${rid}`, { token: who.token, body: { position } });
  const up = await move(owner, c, 3);
  assert.equal(up.status, 200);
  assert.equal(up.body.role.position, 3);
  assert.deepEqual(await order(), [['C', 3], ['A', 2], ['B', 1], ['@everyone', 0]]);
  assert.equal((await move(owner, c, 1)).body.role.position, 1);
  assert.deepEqual(await order(), [['A', 3], ['B', 2], ['C', 1], ['@everyone', 0]]);
  assert.equal((await move(owner, b, 250)).body.role.position, 3, 'past the top: the top');
  assert.deepEqual(await order(), [['B', 3], ['A', 2], ['C', 1], ['@everyone', 0]]);
  for (const bad of [0, -1, 1000001, 'x', 1.5]) assert.equal((await move(owner, a, bad)).status, 400, JSON.stringify(bad));
  const everyone = await move(owner, sid, 2);
  assert.equal(everyone.status, 400);
  assert.equal(everyone.body.error, 'position: o cargo @everyone fica sempre abaixo de todos');
  // A moderator holding A (at 2) with GERENCIAR_CARGOS moves C below A, but not to A's place or above.
  await api(srv.url, 'PATCH', `/api/servers/${sid}/roles/${a}`, { token: owner.token, body: { permissions: P.GERENCIAR_CARGOS } });
  await api(srv.url, 'PUT', `/api/servers/${sid}/members/${mod.user.id}/roles/${a}`, { token: owner.token });
  assert.equal((await move(mod, c, 2)).status, 403, 'to its own level');
  assert.equal((await move(mod, c, 3)).status, 403, 'above it');
  assert.equal((await move(mod, b, 1)).status, 403, 'a role above its own stays where it is');
  assert.deepEqual(await order(), [['B', 3], ['A', 2], ['C', 1], ['@everyone', 0]]);
});

test('creating servers, invites and reactions is limited per account (429 with retryAfterMs)', async () => {
  const s = await startServer();
  try {
    const owner = await register(s.url);
    let sid;
    for (let i = 0; i < 10; i++) {
      const r = await api(s.url, 'POST', '/api/servers', { token: owner.token, body: { name: `s${i}` } });
      assert.equal(r.status, 201);
      sid = sid || r.body.server.id;
    }
    const eleventh = await api(s.url, 'POST', '/api/servers', { token: owner.token, body: { name: 'demais' } });
    assert.equal(eleventh.status, 429);
    assert.ok(eleventh.body.retryAfterMs > 0);
    const other = await register(s.url);
    assert.equal((await api(s.url, 'POST', '/api/servers', { token: other.token, body: { name: 'outro' } })).status, 201, 'per account');
    for (let i = 0; i < 50; i++) {
      assert.equal((await api(s.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} })).status, 200);
    }
    assert.equal((await api(s.url, 'POST', `/api/servers/${sid}/invites`, { token: owner.token, body: {} })).status, 429);
    const view = await api(s.url, 'GET', `/api/servers/${sid}`, { token: owner.token });
    const cid = view.body.channels[0].id;
    const sent = await api(s.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages`, { token: owner.token, body: { content: 'oi' } });
    const mid = sent.body.message.id;
    const react = () => api(s.url, 'POST', `/api/servers/${sid}/channels/${cid}/messages/${mid}/react`, { token: owner.token, body: { emoji: '👍' } });
    for (let i = 0; i < 30; i++) assert.equal((await react()).status, 200);
    assert.equal((await react()).status, 429);
  } finally { await s.stop(); }
});

test('the owner hands the server to a member with their password; the old owner may then leave', async () => {
  const { appWithBot, install } = require('./helpers');
  const { owner: ana, sid, members: [bia, caio] } = await serverWithMembers(srv.url, 2);
  const outsider = await register(srv.url);
  const to = (who, body) => api(srv.url, 'PUT', `/api/servers/${sid}/owner`, { token: who.token, body });
  // Refusals: not the owner, a wrong password, not a member, a bot, oneself, no body.
  let r = await to(bia, { userId: caio.user.id, password: bia.password });
  assert.equal(r.status, 403);
  assert.equal(r.body.error, 'Só o dono pode transferir o servidor');
  r = await to(ana, { userId: bia.user.id, password: 'nao-e-esta' });
  assert.equal(r.status, 400);
  assert.equal(r.body.error, 'password: senha incorreta');
  r = await to(ana, { userId: outsider.user.id, password: ana.password });
  assert.deepEqual([r.status, r.body.error], [400, 'userId: não é membro deste servidor']);
  const info = await appWithBot(srv.url, ana);
  assert.equal((await install(srv.url, ana, info, sid, { permissions: 0 })).complete.status, 200);
  r = await to(ana, { userId: info.app.botUserId || info.botUserId, password: ana.password });
  assert.deepEqual([r.status, r.body.error], [400, 'userId: um bot não pode ser dono']);
  r = await to(ana, { userId: ana.user.id, password: ana.password });
  assert.deepEqual([r.status, r.body.error], [400, 'userId: você já é o dono']);
  r = await to(ana, {});
  assert.equal(r.status, 400);
  assert.equal((await api(srv.url, 'PUT', `/api/servers/${sid}/owner`, { token: info.botToken, body: { userId: bia.user.id, password: 'x'.repeat(8) } })).status, 403, 'a bot token is refused');
  // The owner could not leave; after the hand-over bia owns it and ana leaves.
  r = await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: ana.token });
  assert.deepEqual([r.status, r.body.error], [403, 'O dono não pode sair do servidor; transfira-o a outro membro ou apague-o']);
  r = await to(ana, { userId: bia.user.id, password: ana.password });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.server.ownerId, bia.user.id);
  assert.equal((await api(srv.url, 'GET', `/api/servers/${sid}`, { token: caio.token })).body.server.ownerId, bia.user.id);
  assert.equal((await api(srv.url, 'PATCH', `/api/servers/${sid}`, { token: ana.token, body: { name: 'Não mais' } })).status, 403, 'the old owner keeps only what their roles give');
  const audit = await api(srv.url, 'GET', `/api/servers/${sid}/audit-log`, { token: bia.token });
  const entry = audit.body.entries.find((e) => e.action === 'server.transfer');
  assert.deepEqual([entry.actorId, entry.changes], [ana.user.id, [{ key: 'ownerId', old: ana.user.id, new: bia.user.id }]]);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}/members/@me`, { token: ana.token })).status, 200);
  assert.equal((await api(srv.url, 'DELETE', `/api/servers/${sid}`, { token: bia.token })).status, 200, 'the new owner may delete it');
});
