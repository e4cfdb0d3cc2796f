/* Channels of a server: create, edit, delete, and permission overwrites. */
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
#include "store/channels.h"
#include "store/members.h"
#include "store/roles.h"
#include "store/servers.h"

#define CHANNELS_MAX 500
#define TOPIC_MAX    1024

static void reply_channel(struct api_call *c, int status, const char *cid)
{
    int rc;
    api__reply_found(c, status, "channel", store_channel_json(c->db, cid, &rc));
}

static void channel_create(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_CANAIS);
    if (!sid)
        return;
    json_t *body = api__body(c);
    const char *name, *type, *topic;
    if (!body || api__in_str(c, body, "name", 1, 100, API_IN_REQUIRED | API_IN_TRIM, &name) < 0 ||
        api__in_str(c, body, "type", 0, 16, API_IN_NULLABLE, &type) < 0 ||
        api__in_str(c, body, "topic", 0, TOPIC_MAX, API_IN_NULLABLE, &topic) < 0)
        return;
    if (!type)
        type = "text";
    if (strcmp(type, "text") && strcmp(type, "forum") && strcmp(type, "voice")) {
        api__bad(c, "type", "deve ser text, forum ou voice");
        return;
    }
    if (!api__room_for_one(c, STORE_SQL_COUNT_CHANNELS, sid, CHANNELS_MAX,
                           "o servidor já tem o máximo de 500 canais"))
        return;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_new_channel ch = {.id = id,
                                   .server_id = sid,
                                   .type = type,
                                   .name = name,
                                   .topic = topic,
                                   .now = clock_now_ms()};
    if (store_channel_create(c->svc->writer, &ch) < 0) {
        api__internal(c);
        return;
    }
    api__audit_object(c, sid, "channel.create", "channel", id,
                      json_pack("{sssssO}", "name", name, "type", type, "topic",
                                topic ? json_string(topic) : json_null()),
                      0);
    api__event_server_changed(c, sid, "channels");
    reply_channel(c, 201, id);
}

/* Loads the server and the channel, and checks bits in that channel. */
static int channel_gate(struct api_call *c, struct access *a, const char **sid, const char **cid,
                        uint64_t bits)
{
    if (!(*sid = api__server(c, a, 0)))
        return -1;
    *cid = api__param_id(c, "cid", "Canal não encontrado");
    json_t *ch;
    uint64_t perms;
    if (!*cid || api__channel(c, a, *cid, &ch, &perms))
        return -1;
    json_decref(ch);
    return api__require_in(c, perms, bits);
}

static void channel_patch(struct api_call *c)
{
    struct access a;
    const char *sid, *cid;
    if (channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CANAIS))
        return;
    json_t *body = api__body(c);
    const char *name, *topic;
    int64_t position = -1;
    if (!body || api__in_str(c, body, "name", 1, 100, API_IN_TRIM, &name) < 0 ||
        api__in_str(c, body, "topic", 0, TOPIC_MAX, API_IN_NULLABLE, &topic) < 0 ||
        api__in_int(c, body, "position", 0, 10000, 0, &position) < 0)
        return;
    int set_topic = json_object_get(body, "topic") != NULL, rc;
    json_t *before = store_channel_json(c->db, cid, &rc);
    if (!before ||
        store_channel_update(c->svc->writer, cid, name, set_topic, topic, position) < 0) {
        json_decref(before);
        api__internal(c);
        return;
    }
    json_t *after = store_channel_json(c->db, cid, &rc);
    static const char *const KEYS[] = {"name", "topic", "position", NULL};
    api__audit_update(c, sid, "channel.update", "channel", cid, before, after, KEYS);
    api__event_server_changed(c, sid, "channels");
    reply_channel(c, 200, cid);
}

static void channel_delete(struct api_call *c)
{
    struct access a;
    const char *sid, *cid;
    if (channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CANAIS))
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
    if (channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CARGOS))
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
    json_t *ch = store_channel_json(c->db, cid, &rc);
    json_t *existing = ch ? json_object_get(ch, "overwrites") : NULL;
    size_t count = json_array_size(existing), i;
    json_t *o, *old = NULL;
    int replaces = 0;
    json_array_foreach(existing, i, o)
    {
        if (!strcmp(json_string_value(json_object_get(o, "targetId")), target)) {
            replaces = 1;
            old = json_pack("{sOsO}", "allow", json_object_get(o, "allow"), "deny",
                            json_object_get(o, "deny"));
        }
    }
    json_decref(ch);
    if (!replaces && count >= CHANNEL_OVERWRITES_MAX) {
        json_decref(old);
        api__bad(c, "targetId", "o canal já tem o máximo de 100 sobrescritas");
        return;
    }
    /* Nobody grants or takes away, in a channel, bits they do not hold themselves. */
    if ((!a.is_owner && !(a.base & PERM_ADMINISTRADOR) &&
         api__require(c, &a, (allow | deny) & ~PERM_ADMINISTRADOR)) ||
        store_overwrite_put(c->svc->writer, cid, target, type, (int64_t)allow, (int64_t)deny) < 0) {
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
    if (channel_gate(c, &a, &sid, &cid, PERM_GERENCIAR_CARGOS))
        return;
    const char *target = api__param_id(c, "targetId", "Sobrescrita não encontrada");
    int64_t changes = 0;
    if (!target)
        return;
    if (store_overwrite_delete(c->svc->writer, cid, target, &changes) < 0) {
        api__internal(c);
        return;
    }
    if (!changes) {
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
    API_ROUTE(PATCH, "/api/servers/:sid/channels/:cid", channel_patch, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/channels/:cid", channel_delete, API_ANY),
    API_ROUTE(PUT, "/api/servers/:sid/channels/:cid/overwrites/:targetId", overwrite_put, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/channels/:cid/overwrites/:targetId", overwrite_delete,
              API_ANY),
    {0},
};
