/* Command access: see command_access.h. */
#include "domain/command_access.h"

#include <stdio.h>
#include <string.h>

#include "core/uuid.h"

/* The override's allow for (type, id), or -1 when there is none. */
static int override_for(json_t *overrides, const char *type, const char *id)
{
    size_t i;
    json_t *o;
    json_array_foreach(overrides, i, o)
    {
        const char *t = json_string_value(json_object_get(o, "type"));
        const char *oid = json_string_value(json_object_get(o, "id"));
        if (t && oid && !strcmp(t, type) && !strcmp(oid, id))
            return json_is_true(json_object_get(o, "allow"));
    }
    return -1;
}

int rule_command_permitted(const struct command_asker *a, int64_t default_perms, json_t *overrides)
{
    if (a->is_admin)
        return 1;
    if (a->channel_id && override_for(overrides, "channel", a->channel_id) == 0)
        return 0;
    int own = override_for(overrides, "member", a->user_id);
    if (own >= 0)
        return own;
    int by_roles = -1;
    for (size_t i = 0; i < a->nroles && by_roles != 1; i++) {
        int r = override_for(overrides, "role", a->role_ids[i]);
        if (r >= 0)
            by_roles = r;
    }
    if (by_roles >= 0)
        return by_roles;
    int everyone = override_for(overrides, "role", a->server_id);
    if (everyone >= 0)
        return everyone;
    if (default_perms < 0)
        return 1;
    return default_perms != 0 && (a->perms & (uint64_t)default_perms) == (uint64_t)default_perms;
}

static int override_item(json_t *src, json_t *dst, const char *path, struct rule_error *err,
                         void *seen)
{
    char at[RULE_PATH_MAX];
    const char *type = json_string_value(json_object_get(src, "type"));
    rule__json_sub(at, sizeof at, path, "type");
    if (!type || (strcmp(type, "role") && strcmp(type, "member") && strcmp(type, "channel")))
        return rule__json_fail(err, at, "deve ser role, member ou channel");
    const char *id = json_string_value(json_object_get(src, "id"));
    rule__json_sub(at, sizeof at, path, "id");
    if (!id || !uuid_valid(id, strlen(id)))
        return rule__json_fail(err, at, "deve ser um ID");
    json_t *allow = json_object_get(src, "allow");
    if (!json_is_boolean(allow)) {
        rule__json_sub(at, sizeof at, path, "allow");
        return rule__json_fail(err, at, "deve ser verdadeiro ou falso");
    }
    char key[UUID_LEN + 16];
    snprintf(key, sizeof key, "%s:%s", type, id);
    if (json_object_get(seen, key))
        return rule__json_fail(err, path, "alvo repetido: %s %s", type, id);
    json_object_set_new(seen, key, json_true());
    json_object_set_new(dst, "type", json_string(type));
    json_object_set_new(dst, "id", json_string(id));
    json_object_set(dst, "allow", allow);
    return 0;
}

json_t *rule_command_clean_overrides(json_t *list, struct rule_error *err)
{
    if (!json_is_array(list)) {
        rule__json_fail(err, "permissions", "deve ser uma lista");
        return NULL;
    }
    if (json_array_size(list) > CMD_OVERRIDES_MAX) {
        rule__json_fail(err, "permissions", "no máximo %d regras por comando", CMD_OVERRIDES_MAX);
        return NULL;
    }
    json_t *seen = json_object();
    json_t *out = rule__json_objects(list, "permissions", err, override_item, seen);
    json_decref(seen);
    return out;
}
