/* The bot's own read routes: who am I, where am I installed, a server as I see it, members. */
#include <http_parser.h>
#include <string.h>

#include "api/access.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/presence.h"
#include "api/installs.h"
#include "api/limits.h"
#include "state/presence.h"
#include "domain/intents.h"
#include "store/apps.h"
#include "store/installs.h"
#include "store/people.h"
#include "store/members.h"

static void bot_me(struct api_call *c)
{
    int rc;
    json_t *user = store_user_json(c->db, c->me.user_id, &rc);
    json_t *app = store_app_json(c->db, c->me.app_id, NULL, &rc);
    if (!user || !app) {
        json_decref(user);
        json_decref(app);
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{soso}", "user", user, "application", api__app_view(app)));
}

static void bot_servers(struct api_call *c)
{
    json_t *list = store_bot_servers_json(c->db, c->me.user_id);
    api__reply_list(c, "servers", list);
}

static void bot_server(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (sid)
        api__reply_server_view(c, sid);
}

static void bot_members(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (!sid || api__bot_intent(c, INTENT_MEMBERS_READ))
        return;
    json_t *list = store_members_json(c->db, sid, NULL, 1000);
    if (!list) {
        api__internal(c);
        return;
    }
    api__member_status(c, list);
    api__reply(c, 200, json_pack("{so}", "members", list));
}

/* PUT /api/bot/presence: the status shown while the bot is connected. */
static void bot_presence(struct api_call *c)
{
    json_t *body = api__body(c);
    const char *status;
    if (!body || api__in_str(c, body, "status", 0, 16, API_IN_REQUIRED, &status) < 0)
        return;
    if (strcmp(status, "online") && strcmp(status, "idle") && strcmp(status, "dnd") &&
        strcmp(status, "invisible")) {
        api__bad(c, "status", "deve ser online, idle, dnd ou invisible");
        return;
    }
    json_t *activity = json_object_get(body, "activity");
    json_t *clean = NULL;
    if (activity && !json_is_null(activity)) {
        const char *type, *name;
        if (!json_is_object(activity)) {
            api__bad(c, "activity", "deve ser um objeto");
            return;
        }
        if (api__in_str(c, activity, "type", 0, 16, API_IN_REQUIRED, &type) < 0 ||
            api__in_str(c, activity, "name", 1, 128, API_IN_REQUIRED, &name) < 0)
            return;
        if (strcmp(type, "playing") && strcmp(type, "listening") && strcmp(type, "watching") &&
            strcmp(type, "custom")) {
            api__bad(c, "activity.type", "deve ser playing, listening, watching ou custom");
            return;
        }
        clean = json_pack("{ssss}", "type", type, "name", name);
    }
    if (api__limit_hit(c, &API_LIMIT_PRESENCE)) {
        json_decref(clean);
        return;
    }
    state_presence_set(c->svc->presence, c->me.user_id, status, clean);
    json_decref(clean);
    api__presence_announce(c, c->me.user_id);
    api__reply(c, 200,
               json_pack("{so}", "presence", state_presence_json(c->svc->presence, c->me.user_id)));
}

const struct api_route api_bot_routes[] = {
    {HTTP_GET, "/api/bot/@me", bot_me, API_BOT, API_ON_WORKER, API_BODY_SMALL, NULL},
    {HTTP_GET, "/api/bot/servers", bot_servers, API_BOT, API_ON_WORKER, API_BODY_SMALL, NULL},
    {HTTP_GET, "/api/bot/servers/:sid", bot_server, API_BOT, API_ON_WORKER, API_BODY_SMALL, NULL},
    {HTTP_GET, "/api/bot/servers/:sid/members", bot_members, API_BOT, API_ON_WORKER, API_BODY_SMALL,
     NULL},
    {HTTP_PUT, "/api/bot/presence", bot_presence, API_BOT, API_ON_WORKER, API_BODY_SMALL,
     &API_LIMIT_PRESENCE},
    {0, NULL, NULL, 0, 0, 0, NULL},
};
