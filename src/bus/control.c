/* Control events between nodes: see bus.h. The wire is the JSON the nodes have always written
 * ({tokenHash} / {keepTokenHash}, {serverId, userId} / {all}, {userId, status, activity,
 * chosen}), so nodes of two versions understand each other during a rolling deploy. */
#include "bus/bus.h"

#include <string.h>

#include "core/jsonout.h"

static void copy_id(char out[UUID_LEN + 1], json_t *v)
{
    const char *s = json_string_value(v);
    out[0] = '\0';
    if (s && strlen(s) == UUID_LEN && uuid_valid(s, UUID_LEN))
        memcpy(out, s, UUID_LEN + 1);
}

static json_t *id_or_absent(const char *id)
{
    return id[0] ? json_string(id) : NULL;
}

char *bus_control_text(enum bus_kind kind, const struct bus_control *c, size_t *len)
{
    json_t *o = json_object();
    switch (kind) {
    case BUS_KIND_DISCONNECT:
        if (c->token_hash[0])
            json_object_set_new(o, c->keep ? "keepTokenHash" : "tokenHash",
                                json_string(c->token_hash));
        break;
    case BUS_KIND_VOICE_REVIEW:
        if (c->all)
            json_object_set_new(o, "all", json_true());
        json_object_set_new(o, "serverId", id_or_absent(c->server));
        json_object_set_new(o, "userId", id_or_absent(c->user));
        break;
    case BUS_KIND_PRESENCE:
        json_object_set_new(o, "userId", json_string(c->user));
        json_object_set_new(o, "status", json_string(c->status));
        json_object_set(o, "activity", c->activity ? c->activity : json_null());
        if (c->chosen)
            json_object_set_new(o, "chosen", json_true());
        break;
    case BUS_KIND_SWEEP:
    case BUS_KIND_CLIENT:
        break;
    }
    size_t n = 0;
    char *text = o ? jsonout_dump(o, &n) : NULL;
    json_decref(o);
    if (len)
        *len = n;
    return text;
}

int bus_control_read(enum bus_kind kind, const char *text, size_t len, struct bus_control *out)
{
    *out = (struct bus_control){.keep = 0};
    json_t *o = json_loadb(text, len, 0, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return -1;
    }
    if (kind == BUS_KIND_DISCONNECT) {
        json_t *only = json_object_get(o, "tokenHash"), *but = json_object_get(o, "keepTokenHash");
        const char *hash = json_string_value(only ? only : but);
        out->keep = !only && but;
        if (hash && strlen(hash) < sizeof out->token_hash)
            memcpy(out->token_hash, hash, strlen(hash) + 1);
    } else if (kind == BUS_KIND_VOICE_REVIEW) {
        out->all = json_is_true(json_object_get(o, "all"));
        copy_id(out->server, json_object_get(o, "serverId"));
        copy_id(out->user, json_object_get(o, "userId"));
    } else if (kind == BUS_KIND_PRESENCE) {
        copy_id(out->user, json_object_get(o, "userId"));
        const char *status = json_string_value(json_object_get(o, "status"));
        if (status && strlen(status) < sizeof out->status)
            memcpy(out->status, status, strlen(status) + 1);
        json_t *activity = json_object_get(o, "activity");
        out->activity = json_is_object(activity) ? json_incref(activity) : NULL;
        out->chosen = json_is_true(json_object_get(o, "chosen"));
    }
    json_decref(o);
    return 0;
}
