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
    json_t *list = store_members_json(c->db, sid, NULL, 1000, 0);
    if (!list) {
        api__internal(c);
        return;
    }
    api__member_status(c, list);
    api__reply(c, 200, json_pack("{so}", "members", list));
}

const struct api_route api_bot_routes[] = {
    API_ROUTE(GET, "/api/bot/@me", bot_me, API_BOT),
    API_ROUTE(GET, "/api/bot/servers", bot_servers, API_BOT),
    API_ROUTE(GET, "/api/bot/servers/:sid", bot_server, API_BOT),
    API_ROUTE(GET, "/api/bot/servers/:sid/members", bot_members, API_BOT),
    API_ROUTE(PUT, "/api/bot/presence", api__presence_put, API_BOT, .limit = &API_LIMIT_PRESENCE),
    {0},
};
