/* Channels of a server and their categories: create, edit, move, place many at once, delete,
 * and permission overwrites (a category's flow to its synced channels: store/channels.h). */
#include <http_parser.h>
#include <stdlib.h>
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
#include "store/channels.h"
#include "store/members.h"
#include "store/roles.h"
#include "store/servers.h"

#define CHANNELS_MAX   500
#define CATEGORIES_MAX 50
#define TOPIC_MAX      1024

static void reply_channel(struct api_call *c, int status, const char *cid)
{
    int rc;
    api__reply_found(c, status, "channel", store_channel_json(c->db, cid, &rc));
}

/* parentId in body: a category of server sid (*parent), or null (none). 1 when present, 0
 * absent, -1 answered. */
static int in_parent(struct api_call *c, json_t *body, const char *sid, const char **parent)
{
    int rc = api__in_id(c, body, "parentId", API_IN_NULLABLE, parent);
    if (rc < 0 || !json_object_get(body, "parentId"))
        return rc < 0 ? -1 : 0;
    if (!*parent)
        return 1;
    struct store_perm_channels cat; /* not held: a move of many reads one per channel */
    rc = store_perm_channel_read(c->db, *parent, &cat);
    int ok = rc > 0 && !strcmp(cat.list[0].type, "category") && !strcmp(cat.list[0].server_id, sid);
    store_perm_channels_cleanup(&cat);
    if (rc < 0) {
        api__internal(c);
        return -1;
    }
    if (!ok) {
        api__bad(c, "parentId", "deve ser uma categoria deste servidor");
        return -1;
    }
    return 1;
}

static void channel_create(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_CANAIS);
    if (!sid)
        return;
    json_t *body = api__body(c);
    const char *name, *type, *topic, *parent = NULL;
    if (!body || api__in_str(c, body, "name", 1, 100, API_IN_REQUIRED | API_IN_TRIM, &name) < 0 ||
        api__in_str(c, body, "type", 0, 16, API_IN_NULLABLE, &type) < 0 ||
        api__in_str(c, body, "topic", 0, TOPIC_MAX, API_IN_NULLABLE, &topic) < 0)
        return;
    if (!type)
        type = "text";
    if (strcmp(type, "text") && strcmp(type, "forum") && strcmp(type, "voice") &&
        strcmp(type, "category")) {
        api__bad(c, "type", "deve ser text, forum, voice ou category");
        return;
    }
    int is_category = !strcmp(type, "category");
    if (is_category && json_object_get(body, "parentId")) {
        api__bad(c, "parentId", "uma categoria não fica dentro de outra");
        return;
    }
    if (in_parent(c, body, sid, &parent) < 0)
        return;
    if (!api__room_for_one(c, is_category ? STORE_SQL_COUNT_CATEGORIES : STORE_SQL_COUNT_CHANNELS,
                           sid, is_category ? CATEGORIES_MAX : CHANNELS_MAX,
                           is_category ? "o servidor já tem o máximo de 50 categorias"
                                       : "o servidor já tem o máximo de 500 canais"))
        return;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_new_channel ch = {.id = id,
                                   .server_id = sid,
                                   .type = type,
                                   .name = name,
                                   .topic = is_category ? NULL : topic,
                                   .category_id = parent,
                                   .now = clock_now_ms()};
    if (store_channel_create(c->svc->writer, &ch) < 0) {
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "channel.create", "channel", id,
                      json_pack("{ssssso}", "name", name, "type", type, "topic",
                                topic ? json_string(topic) : json_null()),
                      0);
    api__event_server_changed(c, sid, "channels");
    reply_channel(c, 201, id);
}

/* Loads the server and the channel (or category), and checks bits there: the channel (held
 * until the request ends), or NULL when it has answered. */
static const struct store_perm_channel *channel_gate(struct api_call *c, struct access *a,
                                                     const char **sid, const char **cid,
                                                     uint64_t bits)
{
    if (!(*sid = api__server(c, a, 0)))
        return NULL;
    *cid = api__param_id(c, "cid", "Canal não encontrado");
    uint64_t perms;
    const struct store_perm_channel *ch =
        *cid ? api__channel_or_category(c, a, *cid, &perms) : NULL;
    return ch && !api__require_in(c, perms, bits) ? ch : NULL;
}

static void channel_patch(struct api_call *c)
{
    struct access a;
    const char *sid, *cid;
    const struct store_perm_channel *ch = channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CANAIS);
    if (!ch)
        return;
    struct store_channel_patch p = {.id = cid, .position = -1};
    p.is_category = !strcmp(ch->type, "category");
    int sync = 0;
    json_t *body = api__body(c);
    if (!body || api__in_str(c, body, "name", 1, 100, API_IN_TRIM, &p.name) < 0 ||
        api__in_str(c, body, "topic", 0, TOPIC_MAX, API_IN_NULLABLE, &p.topic) < 0 ||
        api__in_int(c, body, "position", 0, 10000, 0, &p.position) < 0 ||
        api__in_bool(c, body, "syncPermissions", 0, &sync) < 0)
        return;
    if ((p.is_category || !strcmp(ch->type, "thread")) &&
        (json_object_get(body, "parentId") || sync == 1)) {
        api__bad(c, json_object_get(body, "parentId") ? "parentId" : "syncPermissions",
                 "só um canal de texto, fórum ou voz fica numa categoria");
        return;
    }
    int moved = in_parent(c, body, sid, &p.parent_id);
    if (moved < 0)
        return;
    p.set_parent = moved;
    p.set_topic = json_object_get(body, "topic") != NULL;
    p.sync = sync == 1;
    if (p.sync && !moved)
        p.parent_id = ch->parent_id[0] ? ch->parent_id : NULL;
    if (p.sync && !p.parent_id) {
        api__bad(c, "syncPermissions", "o canal não está numa categoria");
        return;
    }
    int rc;
    json_t *before = store_channel_json(c->db, cid, &rc); /* for the audit log */
    if (!before || api__at_end_json(c, before) || store_channel_update(c->svc->writer, &p) < 0) {
        if (!c->answered)
            api__internal(c);
        return;
    }
    json_t *after = store_channel_json(c->db, cid, &rc);
    static const char *const KEYS[] = {"name", "topic", "position", "parentId", "permissionsSynced",
                                       NULL};
    api__audit_update(c, sid, "channel.update", "channel", cid, json_incref(before), after, KEYS);
    api__event_server_changed(c, sid, "channels");
    reply_channel(c, 200, cid);
}

/* PATCH /api/servers/:sid/channels: [{id, position, parentId?}] placed at once (a drag in the
 * page moves several). Each ID must be a channel or category of this server. */
static void positions_patch(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_CANAIS);
    json_t *body = sid ? api__body(c) : NULL;
    json_t *list = json_object_get(body, "channels");
    if (!body)
        return;
    if (!json_is_array(list) || !json_array_size(list) ||
        json_array_size(list) > CHANNELS_MAX + CATEGORIES_MAX) {
        api__bad(c, "channels", "deve ser uma lista de 1 a 550 {id, position, parentId}");
        return;
    }
    const struct store_perm_channels *all = api__server_perm_channels(c, sid);
    if (!all)
        return;
    size_t n = json_array_size(list), i;
    struct store_channel_position *out = calloc(n, sizeof *out);
    if (!out || api__at_end_free(c, out))
        return;
    json_t *x;
    json_array_foreach(list, i, x)
    {
        const char *id;
        if (!json_is_object(x) || api__in_id(c, x, "id", API_IN_REQUIRED, &id) < 0 ||
            api__in_int(c, x, "position", 0, 10000, API_IN_REQUIRED, &out[i].position) < 0)
            return;
        const struct store_perm_channel *ch = store_perm_channels_find(all, id);
        if (!ch) {
            api__bad(c, "channels", "cada id deve ser um canal ou categoria deste servidor");
            return;
        }
        out[i].id = id;
        out[i].is_category = !strcmp(ch->type, "category");
        int moved = out[i].is_category ? 0 : in_parent(c, x, sid, &out[i].parent_id);
        if (moved < 0)
            return;
        out[i].set_parent = moved;
    }
    struct store_channel_positions p = {.server_id = sid, .list = out, .n = n};
    if (store_channel_positions_set(c->svc->writer, &p) < 0) {
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "channel.positions", "server", sid,
                      json_pack("{sI}", "count", (json_int_t)n), 0);
    api__event_server_changed(c, sid, "channels");
    api__reply_list(c, "channels", store_channels_json(c->db, sid));
}

static void channel_delete(struct api_call *c)
{
    struct access a;
    const char *sid, *cid;
    if (!channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CANAIS))
        return;
    int rc;
    json_t *gone = store_channel_json(c->db, cid, &rc);
    if (!gone || store_channel_delete(c->svc->writer, cid) < 0) {
        json_decref(gone);
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "channel.delete", "channel", cid,
                      json_pack("{sOsO}", "name", json_object_get(gone, "name"), "type",
                                json_object_get(gone, "type")),
                      1);
    json_decref(gone);
    api__event_server_changed(c, sid, "channels");
    api__ok(c);
}

static void overwrite_put(struct api_call *c)
{
    struct access a;
    const char *sid, *cid;
    const struct store_perm_channel *ch = channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CARGOS);
    if (!ch)
        return;
    const char *target = api__param_id(c, "targetId", "Cargo ou membro não encontrado");
    json_t *body = api__body(c);
    const char *type;
    uint64_t allow = 0, deny = 0;
    if (!target || !body || api__in_str(c, body, "type", 0, 16, API_IN_REQUIRED, &type) < 0 ||
        api__in_perms(c, body, "allow", 0, &allow) < 0 ||
        api__in_perms(c, body, "deny", 0, &deny) < 0)
        return;
    int is_member = strcmp(type, "member") == 0;
    if (!is_member && strcmp(type, "role") != 0) {
        api__bad(c, "type", "deve ser role ou member");
        return;
    }
    int rc, found;
    if (is_member) {
        json_t *member = store_member_json(c->db, sid, target, &rc);
        found = member ? 1 : rc < 0 ? rc : 0;
        json_decref(member);
    } else {
        struct store_role_ref role;
        found = store_role_ref(c->db, target, &role);
        if (found > 0 && strcmp(role.server_id, sid) != 0)
            found = 0; /* another server's */
    }
    if (found <= 0) {
        if (found < 0)
            api__internal(c);
        else
            api__error(c, 404, is_member ? "Membro não encontrado" : "Cargo não encontrado");
        return;
    }
    json_t *old = NULL;
    for (size_t i = 0; i < ch->noverwrites; i++)
        if (!strcmp(ch->overwrites[i].target_id, target))
            old = json_pack("{sIsI}", "allow", (json_int_t)ch->overwrites[i].allow, "deny",
                            (json_int_t)ch->overwrites[i].deny);
    if (!old && ch->noverwrites >= PERM_OVERWRITES_MAX) {
        api__bad(c, "targetId", "o canal já tem o máximo de 100 sobrescritas");
        return;
    }
    /* Nobody grants or takes away, in a channel, bits they do not hold themselves. */
    if ((!a.is_owner && !(a.base & PERM_ADMINISTRADOR) &&
         api__require(c, &a, (allow | deny) & ~PERM_ADMINISTRADOR)) ||
        store_overwrite_put(c->svc->writer, &(struct store_overwrite){.channel_id = cid,
                                                                      .target_id = target,
                                                                      .type = type,
                                                                      .allow = (int64_t)allow,
                                                                      .deny = (int64_t)deny}) < 0) {
        json_decref(old);
        if (!c->answered)
            api__internal(c);
        return;
    }
    static const char *const KEYS[] = {"targetId", "type", "allow", "deny", NULL};
    json_t *now = json_pack("{sssssIsI}", "targetId", target, "type", type, "allow",
                            (json_int_t)allow, "deny", (json_int_t)deny);
    if (old) {
        json_object_set_new(old, "targetId", json_string(target));
        json_object_set_new(old, "type", json_string(type));
    }
    api__audit_update(c, sid, old ? "channel.overwrite.update" : "channel.overwrite.create",
                      "channel", cid, old, now, KEYS);
    api__event_server_changed(c, sid, "channels");
    reply_channel(c, 200, cid);
}

static void overwrite_delete(struct api_call *c)
{
    struct access a;
    const char *sid, *cid;
    if (!channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CARGOS))
        return;
    const char *target = api__param_id(c, "targetId", "Sobrescrita não encontrada");
    if (!target)
        return;
    struct store_overwrite o = {.channel_id = cid, .target_id = target};
    if (store_overwrite_delete(c->svc->writer, &o) < 0) {
        api__internal(c);
        return;
    }
    if (!o.changes) {
        api__error(c, 404, "Sobrescrita não encontrada");
        return;
    }
    api__audit_object(c, sid, "channel.overwrite.delete", "channel", cid,
                      json_pack("{ss}", "targetId", target), 1);
    api__event_server_changed(c, sid, "channels");
    api__ok(c);
}

const struct api_route api_channel_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/channels", channel_create, API_ANY),
    API_ROUTE(PATCH, "/api/servers/:sid/channels", positions_patch, API_ANY),
    API_ROUTE(PATCH, "/api/servers/:sid/channels/:cid", channel_patch, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/channels/:cid", channel_delete, API_ANY),
    API_ROUTE(PUT, "/api/servers/:sid/channels/:cid/overwrites/:targetId", overwrite_put, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/channels/:cid/overwrites/:targetId", overwrite_delete,
              API_ANY),
    {0},
};
