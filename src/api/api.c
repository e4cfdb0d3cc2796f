/*
 * The API's front door on worker threads: route, authenticate, call the handler, and make
 * sure exactly one answer leaves with the headers every /api answer carries.
 */
#include "api/api.h"

#include <http_parser.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "api/ratelimit.h"
#include "core/crypto.h"
#include "core/log.h"
#include "state/state.h"
#include "store/people.h"

#define TOKEN_MAX 256

struct worker {
    struct app *app;
    struct store *db;
};

const struct api_route *const api_route_tables[] = {
    api_health_routes,      api_auth_routes,   api_server_routes,
    api_channel_routes,     api_role_routes,   api_member_routes,
    api_invite_routes,      api_dm_routes,     api_application_routes,
    api_oauth_routes,       api_bot_routes,    api_install_routes,
    api_message_routes,     api_thread_routes, api_command_routes,
    api_interaction_routes, api_voice_routes,  NULL,
};

int api_app_init(struct app *a, const struct config *cfg, struct store_writer *writer,
                 struct bus *bus, struct presence *presence, struct voicestate *voice,
                 const char *site_url)
{
    memset(a, 0, sizeof *a);
    a->cfg = cfg;
    a->writer = writer;
    a->bus = bus;
    a->presence = presence;
    a->voice = voice;
    if (slice_copy(slice_from(site_url), a->site_url, sizeof a->site_url))
        return -1;
    a->limits = ratelimit_new(cfg->rate_limit_scale);
    a->state = state_new();
    if (!a->limits || !a->state)
        return -1;
    http_router_init(&a->router);
    for (size_t t = 0; api_route_tables[t]; t++)
        for (const struct api_route *r = api_route_tables[t]; r->pattern; r++)
            if (http_router_add(&a->router, r->method, r->pattern, r)) {
                log_error("api: bad route pattern %s", r->pattern);
                return -1;
            }
    return 0;
}

void api_app_cleanup(struct app *a)
{
    http_router_cleanup(&a->router);
    ratelimit_free(a->limits);
    a->limits = NULL;
    state_free(a->state);
    a->state = NULL;
}

void *api_worker_init(void *app, int index)
{
    struct app *a = app;
    (void)index;
    struct worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->app = a;
    if (store_open(a->cfg->data, &w->db) != STORE_DONE) {
        free(w);
        return NULL;
    }
    store_read_batching(w->db, 1);
    return w;
}

void api_worker_cleanup(void *thread_ctx)
{
    struct worker *w = thread_ctx;
    store_close(w->db);
    free(w);
}

struct store *api_thread_store(void *thread_ctx)
{
    return ((struct worker *)thread_ctx)->db;
}

struct api_call api_thread_call(void *thread_ctx)
{
    struct worker *w = thread_ctx;
    return (struct api_call){.app = w->app, .db = w->db};
}

const char *api_param(struct api_call *c, const char *name)
{
    int i = http_route_param_index(c->route, name);
    return i < 0 ? "" : c->params[i];
}

const char *api_param_id(struct api_call *c, const char *name, const char *not_found)
{
    const char *v = api_param(c, name);
    if (!uuid_valid(v, strlen(v))) {
        api_error(c, 404, not_found);
        return NULL;
    }
    return v;
}

/* ---- authentication ---- */

static struct slice bearer_token(const struct http_request *req)
{
    struct slice h = http_request_header(req, "authorization");
    if (h.len > 7 && slice_eq_nocase((struct slice){h.ptr, 7}, "bearer "))
        return (struct slice){h.ptr + 7, h.len - 7};
    return (struct slice){NULL, 0};
}

static struct slice cookie_token(const struct http_request *req)
{
    struct slice h = http_request_header(req, "cookie");
    size_t i = 0;
    while (i < h.len) {
        while (i < h.len && (h.ptr[i] == ' ' || h.ptr[i] == ';'))
            i++;
        size_t start = i;
        while (i < h.len && h.ptr[i] != ';')
            i++;
        struct slice pair = {h.ptr + start, i - start};
        if (pair.len > 8 && memcmp(pair.ptr, "session=", 8) == 0)
            return (struct slice){pair.ptr + 8, pair.len - 8};
    }
    return (struct slice){NULL, 0};
}

static int same_origin(struct api_call *c)
{
    struct slice origin = http_request_header(c->req, "origin");
    if (!origin.ptr)
        return 0;
    if (c->app->site_url[0] && slice_eq(origin, c->app->site_url))
        return 1;
    struct slice host = http_request_header(c->req, "host");
    if (!host.ptr)
        return 0;
    static const char *schemes[] = {"http://", "https://"};
    for (int i = 0; i < 2; i++) {
        size_t sl = strlen(schemes[i]);
        if (origin.len == sl + host.len && memcmp(origin.ptr, schemes[i], sl) == 0 &&
            memcmp(origin.ptr + sl, host.ptr, host.len) == 0)
            return 1;
    }
    return 0;
}

static int authenticate(struct api_call *c, enum api_auth need)
{
    struct slice token = bearer_token(c->req);
    if (!token.ptr) {
        token = cookie_token(c->req);
        c->me.via_cookie = token.ptr != NULL;
    }
    if (!token.ptr || token.len == 0) {
        api_error(c, 401, "Não autenticado: envie o token em Authorization: Bearer");
        return -1;
    }
    if (token.len > TOKEN_MAX) {
        api_error(c, 401, "Token inválido");
        return -1;
    }
    crypto_sha256_hex(token.ptr, token.len, c->me.token_hash);
    struct store_token_owner owner;
    int rc = state_identity(c->app->state, c->db, c->me.token_hash, &owner);
    if (rc < 0) {
        api_internal(c);
        return -1;
    }
    if (rc == 0) {
        api_error(c, 401, "Token inválido");
        return -1;
    }
    if (owner.is_bot && (owner.suspended || !owner.app_id[0])) {
        api_error(c, 401, "Token inválido: a aplicação está suspensa");
        return -1;
    }
    memcpy(c->me.user_id, owner.user_id, sizeof c->me.user_id);
    memcpy(c->me.app_id, owner.app_id, sizeof c->me.app_id);
    c->me.is_bot = owner.is_bot;
    int safe = c->req->method == HTTP_GET || c->req->method == HTTP_HEAD;
    if (c->me.via_cookie && !safe && !same_origin(c)) {
        api_error(c, 403,
                  "Origem não permitida: requisições com cookie precisam de Origin do site");
        return -1;
    }
    if (need == API_PERSON && c->me.is_bot) {
        api_error(c, 403, "Rota não permitida para bots");
        return -1;
    }
    if (need == API_BOT && !c->me.is_bot) {
        api_error(c, 403, "Rota exclusiva de bots: use o token do bot");
        return -1;
    }
    return 0;
}

/* ---- dispatch ---- */

static void handle(struct api_call *c)
{
    const struct http_request *req = c->req;
    if (!(req->path.len >= 4 && memcmp(req->path.ptr, "/api", 4) == 0 &&
          (req->path.len == 4 || req->path.ptr[4] == '/'))) {
        api_error(c, 404, "Página não encontrada");
        return;
    }
    struct slice params[HTTP_MAX_PARAMS];
    size_t nparams = 0;
    const struct http_route *route;
    int method = req->method == HTTP_HEAD ? HTTP_GET : req->method;
    switch (http_router_match(&c->app->router, method, req->path, &route, params, &nparams)) {
    case HTTP_ROUTE_NOT_FOUND:
        api_error(c, 404, "Rota não encontrada");
        return;
    case HTTP_ROUTE_BAD_METHOD:
        api_error(c, 405, "Método não permitido nesta rota");
        return;
    default:
        break;
    }
    for (size_t i = 0; i < nparams; i++) {
        if (http_url_decode(params[i], c->params[i], sizeof c->params[i], NULL) ||
            strlen(c->params[i]) != strnlen(c->params[i], sizeof c->params[i])) {
            api_error(c, 404, "Rota não encontrada");
            return;
        }
    }
    c->route = route;
    const struct api_route *def = route->handler;
    if (def->auth != API_PUBLIC && authenticate(c, def->auth))
        return;
    def->fn(c);
}

void api_worker_run(struct workers_job *job, void *thread_ctx)
{
    struct worker *w = thread_ctx;
    struct http_exchange *ex =
        (struct http_exchange *)((char *)job - offsetof(struct http_exchange, job));
    struct api_call c = {.app = w->app, .db = w->db, .req = ex->req, .res = &ex->res};
    handle(&c);
    if (!c.answered) {
        log_error("api: handler for %s left no answer", c.route ? c.route->pattern : "?");
        api_internal(&c);
    }
    store_read_release(w->db);
    json_decref(c.body);
    http_response_add_header(&ex->res, "Cache-Control", "no-store");
    if (ex->req->method == HTTP_HEAD) {
        /* Same headers as GET, no body. */
        ex->res.body_len = 0;
    }
    http_exchange_done(ex);
}
