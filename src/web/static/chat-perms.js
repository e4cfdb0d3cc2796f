// What the signed-in person may do in a channel, worked out as the server does (docs/api.md,
// "Permissions"), so the page offers only the actions that will be allowed. The server decides.
'use strict';

const ALL_PERMISSIONS = PERMISSIONS.reduce((all, p) => all | p.bit, 0);
const PERM = Object.fromEntries(PERMISSIONS.map((p) => [p.name, p.bit]));

// me: the member object ({userId, roleIds, timeoutUntil}); roles: the server's, @everyone's ID
// being the server's.
function basePermissions(server, roles, me) {
  if (!me) return 0;
  if (server.ownerId === me.userId) return ALL_PERMISSIONS;
  let bits = 0;
  for (const r of roles) if (r.id === server.id || me.roleIds.includes(r.id)) bits |= r.permissions;
  return bits & PERM.ADMINISTRADOR ? ALL_PERMISSIONS : bits;
}

function channelPermissions(server, roles, me, channel) {
  let bits = basePermissions(server, roles, me);
  if (bits === ALL_PERMISSIONS || !channel) return bits;
  const overwrites = channel.overwrites || [];
  const apply = (allow, deny) => { bits = (bits & ~deny) | allow; };
  const everyone = overwrites.find((o) => o.targetId === server.id);
  if (everyone) apply(everyone.allow, everyone.deny);
  let allow = 0, deny = 0;
  for (const o of overwrites) {
    if (o.type === 'role' && o.targetId !== server.id && me.roleIds.includes(o.targetId)) {
      allow |= o.allow;
      deny |= o.deny;
    }
  }
  apply(allow, deny);
  const own = overwrites.find((o) => o.type === 'member' && o.targetId === me.userId);
  if (own) apply(own.allow, own.deny);
  if (!(bits & PERM.VER_CANAL)) return 0;
  if (me.timeoutUntil && new Date(me.timeoutUntil) > new Date()) return PERM.VER_CANAL;
  return bits;
}
