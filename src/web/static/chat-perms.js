// What the signed-in person may do in a channel, worked out as the server does (docs/api.md,
// "Permissions"; src/domain/permissions.c, whose cases tests/e2e/client_perms.test.js runs here
// too), so the page offers only the actions that will be allowed. The server decides.
import { PERMISSIONS } from './common.js';

export const ALL_PERMISSIONS = PERMISSIONS.reduce((all, p) => all | p.bit, 0);
export const PERM = Object.fromEntries(PERMISSIONS.map((p) => [p.name, p.bit]));

// me: the member object ({userId, roleIds, timeoutUntil}); roles: the server's, @everyone's ID
// being the server's.
function timedOut(me, now = new Date()) {
  return Boolean(me.timeoutUntil && new Date(me.timeoutUntil) > now);
}

// The owner and administrators have everything, whatever their overwrites or a timeout.
function unrestricted(server, roles, me) {
  let bits = 0;
  for (const r of roles) if (r.id === server.id || me.roleIds.includes(r.id)) bits |= r.permissions;
  return { all: server.ownerId === me.userId || (bits & PERM.ADMINISTRADOR) !== 0, bits };
}

export function basePermissions(server, roles, me) {
  if (!me) return 0;
  const { all, bits } = unrestricted(server, roles, me);
  if (all) return ALL_PERMISSIONS;
  return timedOut(me) ? bits & PERM.VER_CANAL : bits; // a timeout keeps only the view
}

export function channelPermissions(server, roles, me, channel) {
  if (!me) return 0;
  if (!channel) return basePermissions(server, roles, me);
  const { all, bits: roleBits } = unrestricted(server, roles, me);
  if (all) return ALL_PERMISSIONS;
  let bits = roleBits;
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
  return timedOut(me) ? PERM.VER_CANAL : bits;
}
