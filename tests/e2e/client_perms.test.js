// The chat page's permission rule (src/web/static/chat-perms.js) on the cases of the server's
// own (tests/unit/test_permissions.c): the page must never offer what the server refuses.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { pageModule } = require('./helpers');

let basePermissions;
let channelPermissions;
let PERM;
let ALL_PERMISSIONS;
let EVERYONE_DEFAULT;
test.before(async () => {
  ({ basePermissions, channelPermissions, PERM, ALL_PERMISSIONS } = await pageModule('chat-perms.js'));
  EVERYONE_DEFAULT = PERM.VER_CANAL | PERM.ENVIAR_MENSAGENS | PERM.ADICIONAR_REACOES | PERM.CRIAR_CONVITE | PERM.CONECTAR_VOZ | PERM.FALAR | PERM.USAR_COMANDOS;
});

const SERVER = { id: 'srv', ownerId: 'dono' };
// The member "me" with roles [{id, permissions}] besides @everyone's bits.
function world({ everyone = EVERYONE_DEFAULT, roles = [], owner = false, timedOut = false } = {}) {
  const all = [{ id: 'srv', permissions: everyone }, ...roles];
  const me = { userId: owner ? 'dono' : 'me', roleIds: roles.map((r) => r.id), timeoutUntil: timedOut ? new Date(Date.now() + 60000).toISOString() : null };
  return { roles: all, me };
}
const ow = (targetId, type, allow, deny) => ({ targetId, type, allow, deny });
const channel = (w, overwrites) => channelPermissions(SERVER, w.roles, w.me, { overwrites });

test('the owner has everything, even with nothing granted and everything denied', () => {
  const w = world({ everyone: 0, owner: true });
  assert.equal(basePermissions(SERVER, w.roles, w.me), ALL_PERMISSIONS);
  assert.equal(channel(w, [ow('srv', 'role', 0, ALL_PERMISSIONS)]), ALL_PERMISSIONS);
});

test('@everyone and roles add up', () => {
  const w = world({ roles: [{ id: 'a', permissions: PERM.GERENCIAR_CANAIS }, { id: 'b', permissions: PERM.BANIR_MEMBROS }] });
  assert.equal(basePermissions(SERVER, w.roles, w.me), EVERYONE_DEFAULT | PERM.GERENCIAR_CANAIS | PERM.BANIR_MEMBROS);
});

test('administrator means everything and ignores overwrites', () => {
  const w = world({ everyone: 0, roles: [{ id: 'adm', permissions: PERM.ADMINISTRADOR }] });
  assert.equal(basePermissions(SERVER, w.roles, w.me), ALL_PERMISSIONS);
  assert.equal(channel(w, [ow('me', 'member', 0, PERM.VER_CANAL)]), ALL_PERMISSIONS);
});

test('@everyone overwrite, then roles, then the member', () => {
  const w = world({ roles: [{ id: 'r1', permissions: 0 }, { id: 'r2', permissions: 0 }] });
  const p = channel(w, [ow('srv', 'role', 0, PERM.ENVIAR_MENSAGENS), ow('r1', 'role', PERM.ENVIAR_MENSAGENS, 0),
    ow('me', 'member', 0, PERM.ADICIONAR_REACOES), ow('other', 'member', ALL_PERMISSIONS, 0)]);
  assert.ok(p & PERM.ENVIAR_MENSAGENS);
  assert.ok(!(p & PERM.ADICIONAR_REACOES));
  assert.ok(p & PERM.VER_CANAL);
  assert.ok(!(p & PERM.GERENCIAR_CANAIS));
});

test('a role allow beats a role deny across roles; a member deny beats a role allow', () => {
  const w = world({ roles: [{ id: 'a', permissions: 0 }, { id: 'b', permissions: 0 }] });
  assert.ok(channel(w, [ow('a', 'role', 0, PERM.FIXAR_MENSAGENS), ow('b', 'role', PERM.FIXAR_MENSAGENS, 0)]) & PERM.FIXAR_MENSAGENS);
  assert.ok(!(channel(w, [ow('a', 'role', PERM.FIXAR_MENSAGENS, 0), ow('me', 'member', 0, PERM.FIXAR_MENSAGENS)]) & PERM.FIXAR_MENSAGENS));
});

test('no VER_CANAL means nothing in the channel; a member allow of it restores the rest', () => {
  const w = world({ everyone: EVERYONE_DEFAULT | PERM.GERENCIAR_MENSAGENS });
  assert.equal(channel(w, [ow('srv', 'role', 0, PERM.VER_CANAL)]), 0);
  assert.ok(channel(w, [ow('srv', 'role', 0, PERM.VER_CANAL), ow('me', 'member', PERM.VER_CANAL, 0)]) & PERM.GERENCIAR_MENSAGENS);
});

test('a timeout keeps only the view, on the server as in a channel', () => {
  const w = world({ roles: [{ id: 'mod', permissions: PERM.GERENCIAR_MENSAGENS }], timedOut: true });
  assert.equal(basePermissions(SERVER, w.roles, w.me), PERM.VER_CANAL);
  assert.equal(channel(w, []), PERM.VER_CANAL);
  assert.equal(channelPermissions(SERVER, w.roles, w.me, null), PERM.VER_CANAL);
});

test('a timeout does not touch the owner or an administrator', () => {
  const owner = world({ owner: true, timedOut: true });
  assert.equal(basePermissions(SERVER, owner.roles, owner.me), ALL_PERMISSIONS);
  const admin = world({ everyone: 0, roles: [{ id: 'adm', permissions: PERM.ADMINISTRADOR }], timedOut: true });
  assert.equal(basePermissions(SERVER, admin.roles, admin.me), ALL_PERMISSIONS);
});

test('the bits are the server\'s: 17 of them, @everyone\'s default as it is', () => {
  assert.equal(ALL_PERMISSIONS, (1 << 19) - 1);
  assert.equal(EVERYONE_DEFAULT, (1 << 8) | (1 << 9) | (1 << 11) | (1 << 7) | (1 << 14) | (1 << 15) | (1 << 16));
});

// The very cases the server's rule is tested on (tests/unit/test_permission_cases.c).
const CASES = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'cases', 'permissions.json'), 'utf8')).cases;
const bitsOf = (names) => names.reduce((b, n) => b | (n === 'ALL' ? ALL_PERMISSIONS : n === 'DEFAULT' ? EVERYONE_DEFAULT : PERM[n]), 0);

test('the page answers every shared case as the server does', () => {
  assert.ok(CASES.length >= 10);
  for (const c of CASES) {
    for (const o of c.overwrites || []) for (const k of ['allow', 'deny']) for (const n of o[k]) assert.ok(n === 'ALL' || n in PERM, n);
    const w = world({ everyone: bitsOf(c.everyone), roles: (c.roles || []).map((r) => ({ id: r.id, permissions: bitsOf(r.permissions) })),
                      owner: !!c.owner, timedOut: !!c.timedOut });
    const ows = (c.overwrites || []).map((o) => ow(o.targetId, o.type, bitsOf(o.allow), bitsOf(o.deny)));
    assert.equal(basePermissions(SERVER, w.roles, w.me), bitsOf(c.base), `${c.name}: base`);
    assert.equal(channel(w, ows), bitsOf(c.channel), `${c.name}: channel`);
  }
});
