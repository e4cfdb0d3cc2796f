/*
 * A person's blocks: GET /api/users/@me/blocks, PUT and DELETE /api/users/@me/blocks/:uid.
 * Between two people one of whom blocked the other no direct message goes, either way
 * (api/dms.c asks api__dm_blocked); the blocker's page collapses the other's messages.
 */
#include <http_parser.h>
#include <string.h>

#include "api/api.h"
#include "api/dm.h"
#include "api/input.h"
#include "api/reply.h"
#include "core/clock.h"
#include "store/accounts.h"
#include "store/blocks.h"

static void blocks_list(struct api_call *c)
{
    json_t *list = store_blocks_json(c->db, c->me.user_id);
    if (!list) {
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{so}", "blocks", list));
}

static void block_set(struct api_call *c, int on)
{
    const char *uid = api__param_id(c, "uid", "Usuário não encontrado");
    if (!uid)
        return;
    int is_bot = 0;
    if (!api__user_known(c, uid, &is_bot))
        return;
    if (!strcmp(uid, c->me.user_id)) {
        api__bad(c, "uid", "não é possível bloquear a si mesmo");
        return;
    }
    if (on && store_blocks_count(c->db, c->me.user_id) >= STORE_BLOCKS_MAX) {
        api__bad(c, "uid", "você já bloqueou o máximo de 1000 pessoas");
        return;
    }
    if (store_block_set(c->svc->writer, c->me.user_id, uid, on, clock_now_ms()) < 0) {
        api__internal(c);
        return;
    }
    api__ok(c);
}

static void block_put(struct api_call *c)
{
    block_set(c, 1);
}

static void block_delete(struct api_call *c)
{
    block_set(c, 0);
}

int api__dm_blocked(struct api_call *c, const char *cid, const char *other)
{
    int gone = cid ? store_dm_partner_deleted(c->db, cid, c->me.user_id) : 0;
    int rc = gone  ? gone
             : cid ? store_dm_blocked(c->db, cid, c->me.user_id)
                   : store_blocked_between(c->db, c->me.user_id, other);
    if (rc < 0)
        api__internal(c);
    else if (gone)
        api__error(c, 403, "Esta conta foi apagada: ninguém lerá a mensagem");
    else if (rc)
        api__error(c, 403, "Vocês não podem conversar: um de vocês bloqueou o outro");
    return rc != 0;
}

const struct api_route api_block_routes[] = {
    API_ROUTE(GET, "/api/users/@me/blocks", blocks_list, API_PERSON),
    API_ROUTE(PUT, "/api/users/@me/blocks/:uid", block_put, API_PERSON),
    API_ROUTE(DELETE, "/api/users/@me/blocks/:uid", block_delete, API_PERSON),
    {0},
};
