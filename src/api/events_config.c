/*
 * An application's events endpoint, for its owner (the portal's "Endpoint de eventos"):
 *   GET  /api/applications/:id/events-config          the URL, paused, cursor, delivery log
 *   PUT  /api/applications/:id/events-config          {eventsEndpointUrl} (null: stop pushing)
 *   POST /api/applications/:id/events-config/pause    stop after the batch in flight
 *   POST /api/applications/:id/events-config/resume   go on from the cursor
 *   POST /api/applications/:id/events-config/replay   {after}: deliver again from that position
 * The pushing itself is api/event_push.c.
 */
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/applications.h"
#include "api/event_push.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "domain/urls.h"
#include "store/event_log.h"
#include "store/event_push.h"
#include "store/interactions.h"

#define DELIVERIES_SHOWN 50

static void reply_config(struct api_call *c, const char *app_id)
{
    uint64_t first, last;
    json_t *out = store_events_bounds(c->db, &first, &last) == STORE_DONE
                      ? store_push_json(c->db, app_id, DELIVERIES_SHOWN)
                      : NULL;
    if (!out) {
        api__internal(c);
        return;
    }
    char position[24];
    snprintf(position, sizeof position, "%llu", (unsigned long long)last);
    json_object_set_new(out, "lastPosition", json_string(position));
    api__reply(c, 200, out);
}

/* Runs fn with the caller's application, then answers its configuration (fn answers only when
 * it refuses; < 0 is a storage error). */
static void with_app(struct api_call *c, int (*fn)(struct api_call *c, struct store_app *app))
{
    struct store_app app;
    if (api__owned_app(c, &app))
        return;
    int rc = fn(c, &app);
    if (!c->answered && rc < 0)
        api__internal(c);
    else if (!c->answered) {
        api__push_changed(c->svc->push, app.id);
        reply_config(c, app.id);
    }
    store_app_cleanup(&app);
}

static int set_url(struct api_call *c, struct store_app *app)
{
    json_t *body = api__body(c);
    const char *url = NULL;
    if (!body || api__in_str(c, body, "eventsEndpointUrl", 0, STORE_PUSH_URL_MAX,
                             API_IN_NULLABLE | API_IN_REQUIRED, &url) < 0)
        return 0;
    const char *why =
        url ? rule_url_check_endpoint(url, strlen(url), c->svc->cfg->allow_private_endpoints)
            : NULL;
    int rc = 0;
    json_t *ep =
        url && !why && app->bot_user_id[0] ? store_app_endpoint(c->db, app->id, &rc) : NULL;
    if (why)
        api__bad(c, "eventsEndpointUrl", why);
    else if (url && !app->bot_user_id[0])
        api__bad(c, "eventsEndpointUrl", "crie o bot da aplicação antes");
    else if (url && !ep)
        return -1;
    else if (url && !json_string_value(json_object_get(ep, "secret")))
        api__bad(c, "signingSecret", "gere o segredo de assinatura antes");
    json_decref(ep);
    return c->answered ? 0 : store_push_set_url(c->svc->writer, app->id, url);
}

static int pause_push(struct api_call *c, struct store_app *app)
{
    return store_push_set_paused(c->svc->writer, app->id, 1);
}

static int resume_push(struct api_call *c, struct store_app *app)
{
    return store_push_set_paused(c->svc->writer, app->id, 0);
}

static int replay(struct api_call *c, struct store_app *app)
{
    json_t *body = api__body(c);
    const char *after = NULL;
    if (!body || api__in_str(c, body, "after", 1, 20, API_IN_REQUIRED, &after) < 0)
        return 0;
    long long position;
    uint64_t first, last;
    if (slice_to_i64(slice_from(after), 0, INT64_MAX, &position)) {
        api__bad(c, "after", "deve ser uma posição (um número inteiro ≥ 0, em texto)");
        return 0;
    }
    if (store_events_bounds(c->db, &first, &last) != STORE_DONE)
        return -1;
    if ((uint64_t)position > last) {
        api__bad(c, "after", "depois da última posição do registro de eventos");
        return 0;
    }
    return store_push_replay(c->svc->writer, app->id, (uint64_t)position);
}

static void config_get(struct api_call *c)
{
    struct store_app app;
    if (api__owned_app(c, &app))
        return;
    reply_config(c, app.id);
    store_app_cleanup(&app);
}

static void config_put(struct api_call *c)
{
    with_app(c, set_url);
}

static void config_pause(struct api_call *c)
{
    with_app(c, pause_push);
}

static void config_resume(struct api_call *c)
{
    with_app(c, resume_push);
}

static void config_replay(struct api_call *c)
{
    with_app(c, replay);
}

const struct api_route api_events_config_routes[] = {
    API_ROUTE(GET, "/api/applications/:id/events-config", config_get, API_PERSON),
    API_ROUTE(PUT, "/api/applications/:id/events-config", config_put, API_PERSON),
    API_ROUTE(POST, "/api/applications/:id/events-config/pause", config_pause, API_PERSON),
    API_ROUTE(POST, "/api/applications/:id/events-config/resume", config_resume, API_PERSON),
    API_ROUTE(POST, "/api/applications/:id/events-config/replay", config_replay, API_PERSON),
    {0},
};
