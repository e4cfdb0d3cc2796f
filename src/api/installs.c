/*
 * Installs seen from a server: list the installed applications, let a server admin uninstall
 * one; and the uninstall shared with kicks, bans and application deletion.
 */
#include "api/audit.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/installs.h"

#include <http_parser.h>
#include <string.h>

#include "api/access.h"
#include "api/events.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "store/apps.h"
#include "store/installs.h"

int api__uninstall(struct api_call *c, const char *app_id, const char *bot_user_id, const char *sid,
                   const char *reason)
{
    struct store_uninstall u = {.app_id = app_id, .server_id = sid, .removed = 0};
    if (store_uninstall(c->svc->writer, &u) < 0) {
        api__internal(c);
        return -1;
    }
    if (u.removed && reason && bot_user_id && *bot_user_id)
        api__event_member_remove(c, sid, bot_user_id, reason);
    if (u.removed)
        api__audit(c, sid, "application.uninstall", "application", app_id, NULL);
    return u.removed;
}

int api__app_of_bot(struct api_call *c, const char *bot_user_id, char app_id[UUID_LEN + 1])
{
    struct store_app app;
    int found = store_app_find_by_bot(c->db, bot_user_id, &app);
    if (found == 1)
        memcpy(app_id, app.id, UUID_LEN + 1);
    store_app_cleanup(&app);
    return found;
}

json_t *api__app_view(json_t *app)
{
    json_int_t bits = json_integer_value(json_object_get(app, "intents"));
    json_t *names = json_array();
    for (int i = 0; i < INTENT_COUNT; i++)
        if (bits & (1 << i))
            json_array_append_new(names, json_string(rule_intent_name(i)));
    json_object_set_new(app, "intents", names);
    return app;
}

static void server_apps(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (!sid)
        return;
    json_t *list = store_server_apps_json(c->db, sid);
    api__reply_list(c, "applications", list);
}

static void server_app_uninstall(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    if (!sid)
        return;
    const char *app_id = api__param_id(c, "appId", "Aplicação não instalada neste servidor");
    if (!app_id)
        return;
    struct store_app app;
    int found = store_app_find(c->db, app_id, &app);
    if (found < 0) {
        api__internal(c);
        return;
    }
    int removed = found ? api__uninstall(c, app_id, app.bot_user_id, sid, "app_uninstalled") : 0;
    store_app_cleanup(&app);
    if (removed < 0)
        return;
    if (!removed) {
        api__error(c, 404, "Aplicação não instalada neste servidor");
        return;
    }
    api__ok(c);
}

const struct api_route api_install_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/applications", server_apps, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/applications/:appId", server_app_uninstall, API_ANY,
              .tells_bots = 1),
    {0},
};
