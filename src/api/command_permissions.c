/*
 * Command permissions in a server: the overrides a server admin sets per installed command
 * (by role, member or channel), and the one check every listing and invocation uses.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/audit.h"
#include "api/access.h"
#include "api/command_access.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "domain/command_access.h"
#include "domain/locales.h"
#include "store/apps.h"
#include "store/commands.h"
#include "store/interactions.h"

int api__command_permitted(const struct access *a, const char *cid, uint64_t perms, json_t *command,
                           json_t *overrides)
{
    const char *roles[ACCESS_MAX_ROLES];
    for (size_t i = 0; i < a->s.nroles; i++)
        roles[i] = a->s.role_ids[i];
    struct command_asker asker = {.server_id = a->server_id,
                                  .user_id = a->user_id,
                                  .channel_id = cid,
                                  .role_ids = roles,
                                  .nroles = a->s.nroles,
                                  .perms = perms,
                                  .is_admin = a->is_owner || (a->base & PERM_ADMINISTRADOR)};
    json_t *d = json_object_get(command, "defaultMemberPermissions");
    return rule_command_permitted(&asker, json_is_integer(d) ? json_integer_value(d) : -1,
                                  overrides);
}

void api__commands_localize(json_t *list, const char *locale)
{
    size_t i;
    json_t *cmd;
    json_array_foreach(list, i, cmd)
    {
        const char *name = rule_locale_pick(json_object_get(cmd, "nameLocalizations"), locale);
        const char *desc =
            rule_locale_pick(json_object_get(cmd, "descriptionLocalizations"), locale);
        json_object_set_new(
            cmd, "nameLocalized",
            json_string(name ? name : json_string_value(json_object_get(cmd, "name"))));
        json_object_set_new(
            cmd, "descriptionLocalized",
            json_string(desc ? desc : json_string_value(json_object_get(cmd, "description"))));
    }
}

/* GET /api/servers/:sid/command-permissions */
static void overrides_list(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    if (sid)
        api__reply_list(c, "permissions", store_command_overrides_json(c->db, sid));
}

/* Each target must be a role, channel or member of this server. */
static int targets_exist(struct api_call *c, const char *sid, json_t *overrides)
{
    size_t i;
    json_t *o;
    json_array_foreach(overrides, i, o)
    {
        const char *type = json_string_value(json_object_get(o, "type"));
        int found = store_command_target_exists(c->db, sid, type,
                                                json_string_value(json_object_get(o, "id")));
        if (found < 0) {
            api__internal(c);
            return -1;
        }
        if (!found) {
            char path[64];
            snprintf(path, sizeof path, "permissions.%zu.id", i);
            api__bad(c, path, "não é um cargo, canal ou membro deste servidor");
            return -1;
        }
    }
    return 0;
}

/* PUT /api/servers/:sid/command-permissions {applicationId, commandName, permissions} */
static void overrides_put(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    json_t *body = sid ? api__body(c) : NULL;
    const char *app_id, *name;
    if (!body || api__in_id(c, body, "applicationId", API_IN_REQUIRED, &app_id) < 0 ||
        api__in_str(c, body, "commandName", 1, 32, API_IN_REQUIRED, &name) < 0)
        return;
    struct rule_error err;
    json_t *overrides = rule_command_clean_overrides(json_object_get(body, "permissions"), &err);
    if (!overrides) {
        api__bad(c, err.path, err.reason);
        return;
    }
    int rc, installed = store_app_installed(c->db, app_id, sid);
    json_t *cmd = installed > 0 ? store_command_find(c->db, app_id, sid, name, &rc) : NULL;
    if (installed < 0 || (installed && !cmd && rc < 0))
        api__internal(c);
    else if (!cmd)
        api__error(c, 404, "Comando não encontrado neste servidor");
    else if (!targets_exist(c, sid, overrides)) {
        json_t *old = store_command_overrides_of(c->db, sid, app_id, name, &rc);
        struct store_command_overrides_put put = {sid, app_id, name, overrides, clock_now_ms()};
        char target[UUID_LEN + 4 * 32 + 2];
        snprintf(target, sizeof target, "%s/%s", app_id, name);
        if (store_command_overrides_put(c->svc->writer, &put) < 0) {
            json_decref(old);
            api__internal(c);
        } else {
            api__audit(c, sid, "command.permissions.update", "command", target,
                       json_pack("[{sssosO}]", "key", "permissions", "old",
                                 old ? old : json_array(), "new", overrides));
            api__reply(c, 200,
                       json_pack("{sssssO}", "applicationId", app_id, "commandName", name,
                                 "permissions", overrides));
        }
    }
    json_decref(cmd);
    json_decref(overrides);
}

const struct api_route api_command_permission_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/command-permissions", overrides_list, API_ANY),
    API_ROUTE(PUT, "/api/servers/:sid/command-permissions", overrides_put, API_ANY),
    {0},
};
