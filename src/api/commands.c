/*
 * Slash commands: a bot replaces its global or per-server set; members list what they can
 * invoke in a server (installed applications with interactions.receive).
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "api/access.h"
#include "api/command_access.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/limits.h"
#include "core/clock.h"
#include "domain/command_rules.h"
#include "domain/intents.h"
#include "store/apps.h"
#include "store/commands.h"
#include "store/people.h"

#define COMMANDS_HIDDEN                                                                            \
    "Comandos salvos, mas a intent interactions.receive está desligada: ninguém os vê nem os "  \
    "invoca até que ela seja ligada"

/* PUT /api/bot/commands {commands, serverId?}: replaces the whole set. */
static void bot_commands_put(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *sid = NULL;
    if (!body || api__in_id(c, body, "serverId", API_IN_NULLABLE, &sid) < 0)
        return;
    json_t *list = json_object_get(body, "commands");
    if (!list) {
        api__bad(c, "commands", "obrigatório");
        return;
    }
    struct rule_error err;
    json_t *clean = rule_command_clean_list(list, &err);
    if (!clean) {
        api__bad(c, err.path, err.reason);
        return;
    }
    size_t bytes = json_dumpb(clean, NULL, 0, JSON_COMPACT);
    if (bytes > CMD_SET_BYTES_MAX) {
        char msg[120];
        snprintf(msg, sizeof msg, "commands: o conjunto ocupa %zu bytes (máximo %d)", bytes,
                 CMD_SET_BYTES_MAX);
        api__error(c, 413, msg);
        json_decref(clean);
        return;
    }
    struct access a;
    if ((sid && api__access(c, sid, &a) != 0) || api__limit_hit(c, &API_LIMIT_BOT_COMMANDS)) {
        json_decref(clean);
        return;
    }
    struct store_commands_put put = {.app_id = c->me.app_id,
                                     .server_id = sid ? sid : "",
                                     .commands = clean,
                                     .now = clock_now_ms()};
    if (store_commands_replace(c->svc->writer, &put) < 0) {
        json_decref(clean);
        api__internal(c);
        return;
    }
    size_t i;
    json_t *cmd;
    json_array_foreach(clean, i, cmd)
        json_object_set_new(cmd, "serverId", sid ? json_string(sid) : json_null());
    /* Saved either way; the bot is told when nobody can see or invoke them yet. */
    struct store_app app;
    int found = store_app_find(c->db, c->me.app_id, &app);
    int invocable = found > 0 && (app.intents & INTENT_INTERACTIONS_RECEIVE);
    store_app_cleanup(&app);
    json_t *out = json_pack("{sosb}", "commands", clean, "invocable", invocable);
    if (out && !invocable)
        json_object_set_new(out, "warning", json_string(COMMANDS_HIDDEN));
    api__reply(c, 200, out);
}

/* The overrides of the command among a server's [{applicationId, commandName, permissions}]. */
static json_t *overrides_in(json_t *all, json_t *cmd)
{
    const char *app = json_string_value(json_object_get(cmd, "applicationId"));
    const char *name = json_string_value(json_object_get(cmd, "name"));
    size_t i;
    json_t *o;
    json_array_foreach(all, i, o)
    {
        if (!strcmp(json_string_value(json_object_get(o, "applicationId")), app) &&
            !strcmp(json_string_value(json_object_get(o, "commandName")), name))
            return json_object_get(o, "permissions");
    }
    return NULL;
}

/* GET /api/servers/:sid/commands[?channelId=][?manage=1]: what the caller may invoke there (in
 * that channel, when given), with names and descriptions in the caller's language; with manage,
 * every command, for a server admin setting who may use them. */
static void server_commands(struct api_call *c)
{
    struct access a;
    struct slice v;
    int manage = http_query_param(c->req->query, "manage", &v) && slice_eq(v, "1");
    const char *sid = api__server(c, &a, manage ? PERM_GERENCIAR_SERVIDOR : 0);
    if (!sid)
        return;
    char cid[UUID_LEN + 1] = "";
    uint64_t perms = a.base;
    if (http_query_param(c->req->query, "channelId", &v)) {
        if (v.len != UUID_LEN || !uuid_valid(v.ptr, v.len)) {
            api__bad(c, "channelId", "deve ser um ID");
            return;
        }
        memcpy(cid, v.ptr, UUID_LEN);
        cid[UUID_LEN] = 0;
        if (!api__channel(c, &a, cid, &perms))
            return;
    }
    char locale[LOCALE_TAG_MAX + 1] = "";
    json_t *list = store_server_commands_json(c->db, sid, INTENT_INTERACTIONS_RECEIVE);
    json_t *overrides = list ? store_command_overrides_json(c->db, sid) : NULL;
    if (!overrides || (!c->me.is_bot && store_user_locale(c->db, c->me.user_id, locale) < 0)) {
        json_decref(list);
        json_decref(overrides);
        api__internal(c);
        return;
    }
    json_t *mine = json_array();
    size_t i;
    json_t *cmd;
    json_array_foreach(list, i, cmd)
    {
        if (api__command_permitted(&a, cid[0] ? cid : NULL, perms, cmd,
                                   overrides_in(overrides, cmd)))
            json_array_append(mine, cmd);
    }
    json_decref(list);
    json_decref(overrides);
    api__commands_localize(mine, locale);
    api__reply_list(c, "commands", mine);
}

const struct api_route api_command_routes[] = {
    API_ROUTE(PUT, "/api/bot/commands", bot_commands_put, API_BOT,
              .limit = &API_LIMIT_BOT_COMMANDS),
    API_ROUTE(GET, "/api/servers/:sid/commands", server_commands, API_ANY),
    {0},
};
