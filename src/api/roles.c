/*
 * Roles: create, edit, delete, and giving or taking them from members. Managed roles (a bot's
 * role) are untouchable here. Hierarchy: only roles below one's highest role can be managed,
 * and a role never gets bits its editor does not hold.
 */
#include <http_parser.h>
#include <string.h>

#include "api/access.h"
#include "api/audit.h"
#include "api/api.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/events.h"
#include "api/voice.h"
#include "core/clock.h"
#include "domain/permissions.h"
#include "store/roles.h"
#include "store/servers.h"

/* Roles people make, @everyone included; bots' roles count apart (--server-bots-max). */
#define ROLES_MAX 250
/* The highest rank a move may ask for: past the top means the top. */
#define RANK_MAX 1000000

static void reply_role(struct api_call *c, int status, const char *rid)
{
    int rc;
    api__reply_found(c, status, "role", store_role_json(c->db, rid, &rc));
}

/* Bits a non-admin editor may put in a role: only those they hold. */
static int grantable(struct api_call *c, const struct access *a, uint64_t bits)
{
    if (a->is_owner || (a->base & PERM_ADMINISTRADOR))
        return 0;
    return api__require(c, a, bits);
}

static void role_create(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_CARGOS);
    if (!sid)
        return;
    json_t *body = api__body(c);
    const char *name;
    uint64_t perms = 0;
    int64_t color = 0;
    int mentionable = 0, hoist = 0;
    if (!body || api__in_str(c, body, "name", 1, 100, API_IN_REQUIRED | API_IN_TRIM, &name) < 0 ||
        api__in_perms(c, body, "permissions", 0, &perms) < 0 ||
        api__in_int(c, body, "color", 0, 0xFFFFFF, 0, &color) < 0 ||
        api__in_bool(c, body, "mentionable", 0, &mentionable) < 0 ||
        api__in_bool(c, body, "hoist", 0, &hoist) < 0 || grantable(c, &a, perms))
        return;
    if (!api__room_for_one(c, STORE_SQL_COUNT_ROLES, sid, ROLES_MAX,
                           "o servidor já tem o máximo de 250 cargos"))
        return;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_new_role r = {.id = id,
                               .server_id = sid,
                               .name = name,
                               .permissions = (int64_t)perms,
                               .color = color,
                               .now = clock_now_ms(),
                               .mentionable = mentionable,
                               .hoist = hoist};
    if (store_role_create(c->svc->writer, &r) < 0) {
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "role.create", "role", id,
                      json_pack("{sssIsIsbsb}", "name", name, "permissions", (json_int_t)perms,
                                "color", (json_int_t)color, "mentionable", mentionable, "hoist",
                                hoist),
                      0);
    api__event_server_changed(c, sid, "roles");
    reply_role(c, 201, id);
}

/* Loads :rid of this server; refuses managed roles and those at or above the caller. 0, or -1
 * when it has answered. */
static int role_gate(struct api_call *c, struct access *a, const char **sid, const char **rid)
{
    if (!(*sid = api__server(c, a, PERM_GERENCIAR_CARGOS)))
        return -1;
    *rid = api__param_id(c, "rid", "Cargo não encontrado");
    if (!*rid)
        return -1;
    struct store_role_ref ref;
    int found = store_role_ref(c->db, *rid, &ref);
    if (found <= 0 || strcmp(ref.server_id, *sid) != 0) {
        if (found < 0)
            api__internal(c);
        else
            api__error(c, 404, "Cargo não encontrado");
        return -1;
    }
    if (ref.managed) {
        api__error(c, 403, "Cargo gerenciado por uma aplicação: não pode ser alterado");
        return -1;
    }
    /* @everyone is below everyone's highest role */
    return strcmp(*rid, *sid) && api__role_below(c, a, ref.key) ? -1 : 0;
}

/* The role as shown, held by the request (for its audit entry): NULL when it has answered. */
static json_t *role_shown(struct api_call *c, const char *rid)
{
    int rc;
    json_t *role = store_role_json(c->db, rid, &rc);
    if (!role || api__at_end_json(c, role)) {
        if (!c->answered)
            api__internal(c);
        return NULL;
    }
    return role;
}

static void role_patch(struct api_call *c)
{
    struct access a;
    const char *sid, *rid;
    json_t *role;
    if (role_gate(c, &a, &sid, &rid) || !(role = role_shown(c, rid)))
        return;
    int is_everyone = strcmp(rid, sid) == 0;
    json_t *body = api__body(c);
    const char *name;
    uint64_t perms = 0;
    int64_t color = -1, position = 0;
    int mentionable = -1, hoist = -1;
    int has_perms, has_position;
    if (!body || api__in_str(c, body, "name", 1, 100, API_IN_TRIM, &name) < 0 ||
        (has_perms = api__in_perms(c, body, "permissions", 0, &perms)) < 0 ||
        api__in_int(c, body, "color", 0, 0xFFFFFF, 0, &color) < 0 ||
        (has_position = api__in_int(c, body, "position", 1, RANK_MAX, 0, &position)) < 0 ||
        api__in_bool(c, body, "mentionable", 0, &mentionable) < 0 ||
        api__in_bool(c, body, "hoist", 0, &hoist) < 0 || grantable(c, &a, perms))
        return;
    if (is_everyone && (name || has_position)) {
        api__bad(c, name ? "name" : "position",
                 name ? "o cargo @everyone não pode ser renomeado"
                      : "o cargo @everyone fica sempre abaixo de todos");
        return;
    }
    /* A role moves only to a place below the mover's own highest role. */
    struct store_role_change change = {name, has_perms ? (int64_t)perms : -1, color, mentionable,
                                       hoist};
    if ((has_position && api__rank_below(c, &a, position)) ||
        store_role_update(c->svc->writer, rid, &change) < 0 ||
        (has_position && store_role_move(c->svc->writer, rid, &position) < 0)) {
        if (!c->answered)
            api__internal(c);
        return;
    }
    int rc;
    json_t *after = store_role_json(c->db, rid, &rc);
    static const char *const KEYS[] = {"name",     "permissions", "color", "mentionable",
                                       "position", "hoist",       NULL};
    api__audit_update(c, sid, "role.update", "role", rid, json_incref(role), after, KEYS);
    api__event_server_changed(c, sid, "roles");
    reply_role(c, 200, rid);
}

static void role_delete(struct api_call *c)
{
    struct access a;
    const char *sid, *rid;
    json_t *role;
    if (role_gate(c, &a, &sid, &rid) || !(role = role_shown(c, rid)))
        return;
    if (strcmp(rid, sid) == 0 || store_role_delete(c->svc->writer, rid) < 0) {
        if (strcmp(rid, sid) == 0)
            api__error(c, 403, "O cargo @everyone não pode ser apagado");
        else
            api__internal(c);
        return;
    }
    api__audit_object(c, sid, "role.delete", "role", rid,
                      json_pack("{sOsO}", "name", json_object_get(role, "name"), "permissions",
                                json_object_get(role, "permissions")),
                      1);
    api__event_server_changed(c, sid, "roles");
    api__ok(c);
}

/* Shared by PUT and DELETE of members/:uid/roles/:rid. */
static int member_role_gate(struct api_call *c, const char **sid, const char **uid,
                            const char **rid)
{
    struct access a;
    if (role_gate(c, &a, sid, rid))
        return -1;
    if (strcmp(*rid, *sid) == 0) {
        api__bad(c, "roleId", "todo membro já tem o cargo @everyone");
        return -1;
    }
    *uid = api__param_id(c, "uid", "Membro não encontrado");
    struct access target;
    if (!*uid || api__access_of(c, *sid, *uid, &target, "Membro não encontrado"))
        return -1;
    return 0;
}

static void member_role_put(struct api_call *c)
{
    const char *sid, *uid, *rid;
    if (member_role_gate(c, &sid, &uid, &rid))
        return;
    if (store_member_role_add(c->svc->writer, sid, uid, rid) < 0) {
        api__internal(c);
        return;
    }
    api__audit(c, sid, "member.role.add", "member", uid,
               json_pack("[{sssnss}]", "key", "roleId", "old", "new", rid));
    api__event_server_changed(c, sid, "members");
    api__reply_member(c, sid, uid);
}

static void member_role_delete(struct api_call *c)
{
    const char *sid, *uid, *rid;
    if (member_role_gate(c, &sid, &uid, &rid))
        return;
    int64_t changes = 0;
    if (store_member_role_remove(c->svc->writer, sid, uid, rid, &changes) < 0) {
        api__internal(c);
        return;
    }
    if (!changes) {
        api__error(c, 404, "O membro não tem este cargo");
        return;
    }
    api__audit(c, sid, "member.role.remove", "member", uid,
               json_pack("[{sssssn}]", "key", "roleId", "old", rid, "new"));
    api__event_server_changed(c, sid, "members");
    api__ok(c);
}

const struct api_route api_role_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/roles", role_create, API_ANY),
    API_ROUTE(PATCH, "/api/servers/:sid/roles/:rid", role_patch, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/roles/:rid", role_delete, API_ANY),
    API_ROUTE(PUT, "/api/servers/:sid/members/:uid/roles/:rid", member_role_put, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/members/:uid/roles/:rid", member_role_delete, API_ANY),
    {0},
};
