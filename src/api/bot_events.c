/*
 * GET /api/bot/events?after=<position>&limit=<1..1000>: the gateway's event stream over HTTP,
 * for bots that cannot hold a socket. The same positions, the same filtering as a resume (what
 * the bot may receive now), and the same gap signal past retention.
 */
#include <http_parser.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "api/event_page.h"

static void bot_events(struct api_call *c)
{
    long long after = 0, limit = 100;
    struct slice v;
    if (api__query_position(c, "after", &after))
        return;
    if (http_query_param(c->req->query, "limit", &v) && slice_to_i64(v, 1, 1000, &limit)) {
        api__bad(c, "limit", "deve ser um número entre 1 e 1000");
        return;
    }
    struct api_event_page p;
    if (api__event_page(c->db, c->svc->state, c->me.user_id, (uint64_t)after, limit, SIZE_MAX, NULL,
                        &p)) {
        api__internal(c);
        return;
    }
    char next[24];
    snprintf(next, sizeof next, "%llu", (unsigned long long)p.next);
    json_t *body = json_pack("{soss}", "events", p.events, "next", next);
    if (!body) {
        api__internal(c);
        return;
    }
    if (p.oldest) {
        char a[24], o[24];
        snprintf(a, sizeof a, "%lld", after);
        snprintf(o, sizeof o, "%llu", (unsigned long long)p.oldest);
        json_object_set_new(body, "gap", json_pack("{ssss}", "after", a, "oldestPosition", o));
    }
    api__reply(c, 200, body);
}

const struct api_route api_bot_event_routes[] = {
    API_ROUTE(GET, "/api/bot/events", bot_events, API_BOT),
    {0},
};
