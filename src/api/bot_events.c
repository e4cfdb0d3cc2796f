/*
 * GET /api/bot/events?after=<position>&limit=<1..1000>: the gateway's event stream over HTTP,
 * for bots that cannot hold a socket. The same positions, the same filtering as a resume (what
 * the bot may receive now), and the same gap signal past retention.
 */
#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "state/entitle.h"
#include "store/event_log.h"

#define EVENTS_SCAN_MAX 20000 /* log rows looked at per call, so one call stays cheap */

struct page {
    struct api_call *c;
    struct entitle entitle;
    json_t *events;
    long limit;
    uint64_t next; /* the last position looked at */
};

static void take(void *arg, const struct store_event *e)
{
    struct page *p = arg;
    if ((long)json_array_size(p->events) >= p->limit)
        return; /* past the page: not looked at, so `next` stops before it */
    p->next = e->position;
    if (!state_entitled(&p->entitle, p->c->me.user_id, e))
        return;
    json_t *data = json_loadb(e->payload, e->len, 0, NULL);
    if (!data)
        return;
    char position[24];
    snprintf(position, sizeof position, "%llu", (unsigned long long)e->position);
    json_t *item = json_pack("{sssssO}", "position", position, "type", e->type, "data", data);
    json_decref(data);
    if (item)
        json_array_append_new(p->events, item);
}

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
    uint64_t first, last;
    if (store_events_bounds(c->db, &first, &last) != STORE_DONE) {
        api__internal(c);
        return;
    }
    struct page p = {
        c, {.state = c->svc->state, .db = c->db}, json_array(), (long)limit, (uint64_t)after};
    long rows = store_events_after(c->db, (uint64_t)after, EVENTS_SCAN_MAX, take, &p);
    state_entitle_done(&p.entitle);
    if (rows < 0 || !p.events) {
        json_decref(p.events);
        api__internal(c);
        return;
    }
    /* Nothing more in the log: the next call starts after its end (later events follow). */
    if (rows < EVENTS_SCAN_MAX && (long)json_array_size(p.events) < p.limit && last > p.next)
        p.next = last;
    char next[24];
    snprintf(next, sizeof next, "%llu", (unsigned long long)p.next);
    json_t *body = json_pack("{soss}", "events", p.events, "next", next);
    if (!body) {
        api__internal(c);
        return;
    }
    if (first > (uint64_t)after + 1 && (uint64_t)after < last) {
        char a[24], o[24];
        snprintf(a, sizeof a, "%lld", after);
        snprintf(o, sizeof o, "%llu", (unsigned long long)first);
        json_object_set_new(body, "gap", json_pack("{ssss}", "after", a, "oldestPosition", o));
    }
    api__reply(c, 200, body);
}

const struct api_route api_bot_event_routes[] = {
    {HTTP_GET, "/api/bot/events", bot_events, API_BOT, API_ON_WORKER, API_BODY_SMALL},
    {0, NULL, NULL, 0, 0, 0},
};
