/* GET /api/health, and the test clock (only with --test-clock). */
#include <http_parser.h>

#include "api/api.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/input.h"
#include "core/clock.h"
#include "store/db.h"

#ifndef PRACA_VERSION
#define PRACA_VERSION "0.1.0"
#endif

static void health(struct api_call *c)
{
    api__reply(
        c, 200,
        json_pack("{sbsssb}", "ok", 1, "version", PRACA_VERSION, "database", store_reachable()));
}

/* Moves the service's clock forward so expiry rules can be tested without waiting. */
static void test_clock(struct api_call *c)
{
    if (!c->svc->cfg->test_clock) {
        api__error(c, 404, "Rota não encontrada");
        return;
    }
    json_t *body = api__body(c);
    int64_t advance;
    if (!body ||
        api__in_int(c, body, "advanceMs", 0, INT64_C(1) << 40, API_IN_REQUIRED, &advance) < 0)
        return;
    clock_advance_ms(advance);
    api__reply(c, 200, json_pack("{sI}", "nowMs", (json_int_t)clock_now_ms()));
}

const struct api_route api_health_routes[] = {
    API_ROUTE(GET, "/api/health", health, API_PUBLIC),
    API_ROUTE(POST, "/api/test/clock", test_clock, API_PUBLIC, .limit = &API_LIMIT_KEYED_APART),
    {0},
};
