/* Direct messages between people: one channel per pair, found or made. Bots get no DMs. */
#include <http_parser.h>
#include <string.h>

#include "api/api.h"
#include "core/clock.h"
#include "store/people.h"
#include "store/servers.h"

static void dm_open(struct api_call *c)
{
    json_t *body = api_body(c);
    const char *target;
    if (!body || in_id(c, body, "userId", IN_REQUIRED, &target) < 0)
        return;
    int is_bot = 0;
    int exists = store_user_kind(c->db, target, &is_bot);
    if (exists < 0) {
        api_internal(c);
        return;
    }
    if (!exists) {
        api_error(c, 404, "Usuário não encontrado");
        return;
    }
    if (is_bot) {
        api_error(c, 403, "Bots não recebem mensagens diretas");
        return;
    }
    if (strcmp(target, c->me.user_id) == 0) {
        api_bad(c, "userId", "não é possível abrir uma conversa consigo mesmo");
        return;
    }
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_dm_open dm = {.id = id, .a = c->me.user_id, .b = target, .now = clock_now_ms()};
    if (store_write(c->app->writer, store_dm_open, &dm) < 0) {
        api_internal(c);
        return;
    }
    int rc;
    json_t *ch = store_dm_json(c->db, dm.channel_id, &rc);
    if (!ch) {
        api_internal(c);
        return;
    }
    api_reply(c, 200, json_pack("{so}", "channel", ch));
}

const struct api_route api_dm_routes[] = {
    {HTTP_POST, "/api/users/@me/dms", dm_open, API_PERSON},
    {0, NULL, NULL, 0},
};
