/*
 * The API's front door: route on the I/O thread, then run the handler on its lane (a worker,
 * or inside the writer's transaction), authenticate, and make sure exactly one answer leaves
 * with the headers every /api answer carries.
 *
 * A request on the writer lane pays no thread hand-off beyond I/O → writer → I/O: its writes
 * run inline, and its answer and events are held until the commit (a failed commit turns the
 * answer into a 500 and drops the events).
 */
#include "api/api.h"
#include "api/dispatch_parts.h"
#include "http/reqparse.h"
#include "api/reply.h"
#include "api/audit.h"
#include "api/idempotency.h"
#include "api/limits.h"

#include <http_parser.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"
#include "core/workers.h"
#include "state/ratelimit.h"
#include "state/state.h"
#include "store/people.h"

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

/* The caller's credential: the bearer token, else the session cookie (*via_cookie 1; may be
 * NULL). An empty slice when there is neither. */
struct slice api__request_token(const struct http_request *req, int *via_cookie)
{
    struct slice token = bearer_token(req);
    int cookie = !token.ptr;
    if (cookie)
        token = cookie_token(req);
    if (via_cookie)
        *via_cookie = cookie && token.ptr;
    return token;
}

static int same_origin(struct api_call *c)
{
    struct slice origin = http_request_header(c->req, "origin");
    if (!origin.ptr)
        return 0;
    if (c->svc->site_url[0] && slice_eq(origin, c->svc->site_url))
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

/* Admits the holder of c->me.token_hash as the caller of a route for need; answers 401/403 and
 * returns -1 when it may not call it. */
static int admit(struct api_call *c, enum api_auth need, const struct store_token_owner *owner)
{
    if (owner->is_bot && (owner->suspended || !owner->app_id[0])) {
        api__error(c, 401, "Token inválido: a aplicação está suspensa");
        return -1;
    }
    if (!owner->is_bot &&
        state_session_expired(c->svc->state, c->me.token_hash, owner->last_used)) {
        api__error(c, 401, "Sessão expirada: entre de novo");
        return -1;
    }
    memcpy(c->me.user_id, owner->user_id, sizeof c->me.user_id);
    memcpy(c->me.app_id, owner->app_id, sizeof c->me.app_id);
    c->me.is_bot = owner->is_bot;
    int safe = c->req->method == HTTP_GET || c->req->method == HTTP_HEAD;
    if (c->me.via_cookie && !safe && !same_origin(c)) {
        api__error(c, 403,
                   "Origem não permitida: requisições com cookie precisam de Origin do site");
        return -1;
    }
    if (need == API_PERSON && c->me.is_bot) {
        api__error(c, 403, "Rota não permitida para bots");
        return -1;
    }
    if (need == API_BOT && !c->me.is_bot) {
        api__error(c, 403, "Rota exclusiva de bots: use o token do bot");
        return -1;
    }
    return 0;
}

/* The request's credential, hashed into c->me.token_hash; answers 401 and returns -1 when it
 * sent none, or one too long to be a token. */
static int credential(struct api_call *c)
{
    struct slice token = api__request_token(c->req, &c->me.via_cookie);
    if (!token.ptr || token.len == 0) {
        api__error(c, 401, "Não autenticado: envie o token em Authorization: Bearer");
        return -1;
    }
    if (token.len > TOKEN_MAX) {
        api__error(c, 401, "Token inválido");
        return -1;
    }
    crypto_sha256_hex(token.ptr, token.len, c->me.token_hash);
    return 0;
}

static int authenticate(struct api_call *c, enum api_auth need)
{
    if (credential(c))
        return -1;
    struct store_token_owner owner;
    int rc = state_identity(c->svc->state, c->db, c->me.token_hash, &owner);
    if (rc < 0) { /* not a bad credential: one that cannot be checked now */
        api__busy(c, API_UNAVAILABLE);
        return -1;
    }
    if (rc == 0) {
        api__error(c, 401, "Token inválido");
        return -1;
    }
    return admit(c, need, &owner);
}

/* On the writer: the caller admitted before the writer lane, while no identity has left memory
 * since (a revocation drops its identity in the commit that made it, before this request runs);
 * otherwise 0, and the handler's authenticate admits it again. */
static int still_admitted(struct api_call *c)
{
    const struct api_prepared *pre = c->pre;
    if (!pre || !pre->admitted || pre->identity_epoch != state_identity_epoch(c->svc->state))
        return 0;
    c->me = pre->me;
    return 1;
}

/* ---- routing ---- */

int api__is_api_path(struct slice path)
{
    return path.len >= 4 && memcmp(path.ptr, "/api", 4) == 0 &&
           (path.len == 4 || path.ptr[4] == '/');
}

enum http_route_result api__route_of(struct api_service *a, struct http_request *req,
                                     const struct http_route **route)
{
    int method = req->method == HTTP_HEAD ? HTTP_GET : req->method;
    return http_router_match(&a->router, method, req->path, route, req->params, &req->nparams);
}

/* Answers 404/405 unless the request has a route; c->route is then set. */
static int find_route(struct api_call *c, struct http_request *req)
{
    if (c->route)
        return 0;
    if (!api__is_api_path(req->path)) {
        api__error(c, 404, "Página não encontrada");
        return -1;
    }
    switch (api__route_of(c->svc, req, &c->route)) {
    case HTTP_ROUTE_NOT_FOUND:
        api__error(c, 404, "Rota não encontrada");
        return -1;
    case HTTP_ROUTE_BAD_METHOD:
        api__error(c, 405, "Método não permitido nesta rota");
        return -1;
    default:
        return 0;
    }
}

/* The route's parameters, decoded into c->params; -1 when one is malformed. */
static int decode_params(struct api_call *c, const struct http_request *req)
{
    for (size_t i = 0; i < req->nparams; i++)
        if (http_url_decode(req->params[i], c->params[i], sizeof c->params[i], NULL) ||
            strlen(c->params[i]) != strnlen(c->params[i], sizeof c->params[i]))
            return -1;
    return 0;
}

static void handle(struct api_call *c, struct http_exchange *ex)
{
    struct http_request *req = ex->req;
    if (find_route(c, req))
        return;
    if (decode_params(c, req)) {
        api__error(c, 404, "Rota não encontrada");
        return;
    }
    const struct api_route *def = c->route->handler;
    if (def->auth != API_PUBLIC && !still_admitted(c) && authenticate(c, def->auth))
        return;
    /* Before the handler: one that answers later (api__later) may see the exchange answered
     * and freed by another thread before it returns here. */
    memcpy(ex->caller, c->me.user_id, sizeof c->me.user_id);
    struct api_idempotency idem;
    if (api__audit_reason_check(c) || api__limit_write(c) || api__idempotency_begin(c, &idem))
        return;
    def->fn(c);
    api__idempotency_end(c, &idem);
}

/* Handles the exchange's request; its route may be known already (ex->route). */
static void run(struct api_call *c, struct http_exchange *ex)
{
    c->req = ex->req;
    c->res = &ex->res;
    c->route = ex->route;
    /* Read before the handler: one that answers later may see the exchange freed before it
     * returns. Uploads are never answered later, so theirs is still here after it. */
    struct http_upload *upload = ex->req->upload;
    handle(c, ex);
    if (upload && !c->later)
        http_upload_discard(upload); /* the files the handler did not keep */
    if (!c->answered && !c->later) {
        log_error("api: handler for %s left no answer", c->route ? c->route->pattern : "?");
        api__internal(c);
    }
    json_decref(c->body);
    c->body = NULL;
}

static void answer(struct http_exchange *ex)
{
    if (!ex->res.cache_control)
        ex->res.cache_control = "no-store"; /* unless the handler said otherwise */
    if (ex->req->method == HTTP_HEAD)
        ex->res.body_len = 0; /* same headers as GET, no body */
    http_exchange_done(ex);
}

/* After the commit: its events published, or the answer made a 500 when it failed. */
static void settle_after_commit(struct api_service *a, struct http_exchange *ex,
                                struct bus_held *events, int committed)
{
    if (committed) {
        bus_publish_held(a->bus, events);
    } else {
        bus_held_drop(events);
        http_response_cleanup(&ex->res);
        http_response_init(&ex->res);
        struct api_call c = {.svc = a, .req = ex->req, .res = &ex->res};
        api__internal(&c);
    }
}

static void answer_after_commit(struct api_service *a, struct http_exchange *ex,
                                struct bus_held *events, int committed)
{
    settle_after_commit(a, ex, events, committed);
    answer(ex);
}

/* ---- the worker lane ---- */

void api_worker_run(struct workers_job *job, void *thread_ctx)
{
    struct http_exchange *ex =
        (struct http_exchange *)((char *)job - offsetof(struct http_exchange, job));
    struct api_call c = api__thread_call(ex->user, thread_ctx);
    run(&c, ex);
    store_read_release(c.db);
    if (!c.later)
        answer(ex);
}

/* ---- answers that wait on something outside ---- */

struct api_later {
    struct workers_job job; /* first: resumed on a worker */
    struct api_service *svc;
    struct http_exchange *ex;
    struct api_caller me;
    void (*fn)(struct api_call *c, void *arg);
    void *arg;
};

struct api_later *api__later(struct api_call *c)
{
    struct api_later *l = calloc(1, sizeof *l);
    struct http_exchange *ex =
        (struct http_exchange *)((char *)c->res - offsetof(struct http_exchange, res));
    if (!l || c->held) { /* never on the writer lane: it holds a transaction */
        free(l);
        return NULL;
    }
    l->svc = c->svc;
    l->ex = ex;
    l->me = c->me;
    c->later = l;
    return l;
}

void api__later_cancel(struct api_call *c)
{
    free(c->later);
    c->later = NULL;
}

static void later_run(struct workers_job *job, void *thread_ctx)
{
    struct api_later *l = (struct api_later *)job;
    struct api_call c = api__thread_call(l->svc, thread_ctx);
    c.req = l->ex->req;
    c.res = &l->ex->res;
    c.route = l->ex->route;
    c.me = l->me;
    l->fn(&c, l->arg);
    if (!c.answered)
        api__internal(&c);
    json_decref(c.body);
    store_read_release(c.db);
    answer(l->ex);
    free(l);
}

/* A resumption on the writer, inside its transaction: its events wait for the commit. */
struct later_on_writer {
    struct store_writer_job job; /* first */
    struct api_later *later;
    struct bus_held events;
};

static void later_writer_run(struct store_writer_job *job, struct store *db)
{
    struct later_on_writer *w = (struct later_on_writer *)job;
    struct api_later *l = w->later;
    struct api_call c = {.svc = l->svc,
                         .db = db,
                         .held = &w->events,
                         .req = l->ex->req,
                         .res = &l->ex->res,
                         .route = l->ex->route,
                         .me = l->me};
    l->fn(&c, l->arg);
    if (!c.answered)
        api__internal(&c);
    json_decref(c.body);
}

static void later_writer_done(struct store_writer_job *job, int committed)
{
    struct later_on_writer *w = (struct later_on_writer *)job;
    struct api_later *l = w->later;
    answer_after_commit(l->svc, l->ex, &w->events, committed);
    free(l);
    free(w);
}

void api__later_resume_writer(struct api_later *l, void (*fn)(struct api_call *c, void *arg),
                              void *arg)
{
    struct later_on_writer *w = calloc(1, sizeof *w);
    if (!w) {
        api__later_resume(l, fn, arg);
        return;
    }
    l->fn = fn;
    l->arg = arg;
    w->later = l;
    w->job = (struct store_writer_job){.run = later_writer_run, .done = later_writer_done};
    store_writer_submit(l->svc->writer, &w->job);
}

void api__later_resume(struct api_later *l, void (*fn)(struct api_call *c, void *arg), void *arg)
{
    l->fn = fn;
    l->arg = arg;
    l->job.fn = later_run;
    workers_submit(l->svc->workers, &l->job);
}

/* ---- the writer lane ---- */

struct writer_call {
    struct store_writer_job job; /* first: the writer hands it back */
    struct workers_job ahead;    /* a worker's part before the writer: see ahead_run */
    struct api_service *svc;
    struct http_exchange *ex;
    struct bus_held events;
    struct ratelimit_taken taken; /* what ahead counted; key "" when nothing */
    struct api_prepared pre;
};

static void writer_call_run(struct store_writer_job *job, struct store *db)
{
    struct writer_call *w = (struct writer_call *)job;
    struct api_call c = {.svc = w->svc, .db = db, .held = &w->events, .pre = &w->pre};
    c.taken = w->taken.key[0] ? &w->taken : NULL;
    run(&c, w->ex);
    if (!c.taken)
        w->taken.key[0] = '\0'; /* the handler used it */
}

/* On a worker: an allowed use the handler did not make (it refused the request first) is given
 * back before the answer goes, so the caller's next request finds it free. */
static void give_back_run(struct workers_job *job, void *thread_ctx)
{
    (void)thread_ctx;
    struct writer_call *w =
        (struct writer_call *)((char *)job - offsetof(struct writer_call, ahead));
    state_ratelimit_give_back(w->svc->limits, &w->taken);
    answer(w->ex);
    free(w);
}

static void writer_call_done(struct store_writer_job *job, int committed)
{
    struct writer_call *w = (struct writer_call *)job;
    settle_after_commit(w->svc, w->ex, &w->events, committed);
    if (w->taken.key[0] && w->taken.member[0]) {
        w->ahead.fn = give_back_run;
        workers_submit(w->svc->workers, &w->ahead);
        return;
    }
    answer(w->ex);
    free(w);
}

enum prepared {
    PREPARED,        /* on to the writer */
    PREPARED_ANSWER, /* answered (the caller may not call the route): the writer is not needed */
    PREPARED_ASK,    /* from memory it cannot tell: again on a worker, with its database */
};

/* Admits the caller before the writer lane: from memory on the I/O thread (db NULL) when the
 * token is known there and its use writes nothing, else on a worker, which may read the token
 * and record a session's use. */
static enum prepared prepare_caller(struct writer_call *w, struct api_call *c, enum api_auth need)
{
    if (credential(c))
        return PREPARED_ANSWER;
    w->pre.identity_epoch = state_identity_epoch(w->svc->state);
    if (!c->db) {
        struct store_token_owner owner;
        if (!state_identity_known(w->svc->state, c->me.token_hash, &owner) ||
            (!owner.is_bot && !state_session_fresh(w->svc->state, owner.last_used)))
            return PREPARED_ASK;
        if (admit(c, need, &owner))
            return PREPARED_ANSWER;
    } else if (authenticate(c, need)) {
        return PREPARED_ANSWER;
    }
    w->pre.admitted = 1;
    w->pre.me = c->me;
    return PREPARED;
}

/* Decides before the writer lane who calls: a caller refused is answered there, and the writer
 * is left the write. A request it cannot place (a malformed parameter) is left whole to the
 * handler, which answers it in its usual order. */
static enum prepared prepare(struct writer_call *w, struct store *db)
{
    struct http_exchange *ex = w->ex;
    const struct http_route *route = ex->route;
    const struct api_route *def = route->handler;
    struct api_call c = {
        .svc = w->svc, .db = db, .req = ex->req, .res = &ex->res, .route = ex->route};
    if (def->auth == API_PUBLIC || decode_params(&c, ex->req))
        return PREPARED;
    enum prepared p = prepare_caller(w, &c, def->auth);
    store_read_release(db);
    return p;
}

/* On a worker: the request's preparing when memory could not tell its caller, and with several
 * nodes its route's limit counted in Redis, so that the handler on the writer finds the answer
 * and never waits on the network. */
static void ahead_run(struct workers_job *job, void *thread_ctx)
{
    struct writer_call *w =
        (struct writer_call *)((char *)job - offsetof(struct writer_call, ahead));
    if (prepare(w, thread_ctx) == PREPARED_ANSWER) {
        answer(w->ex);
        free(w);
        return;
    }
    const struct http_route *route = w->ex->route;
    const struct api_limit *limit = api__limit_ahead(route->handler);
    if (w->pre.admitted && limit && state_ratelimit_shared(w->svc->limits))
        state_ratelimit_take(w->svc->limits, limit->action, w->pre.me.user_id, limit->count,
                             limit->window_ms, &w->taken);
    store_writer_submit(w->svc->writer, &w->job);
}

/* On the I/O thread: Redis counted the route's limit (or did not answer in time, and then the
 * handler counts on this node). */
static void limit_taken(void *arg)
{
    struct writer_call *w = arg;
    store_writer_submit_later(w->svc->writer, &w->job); /* woken once this turn of the loop ends */
}

/* With several nodes, a caller admitted from memory has its route's limit counted in Redis from
 * the I/O thread, without waiting there: 1 when asked (limit_taken goes on), else 0. */
static int limit_ahead(struct writer_call *w)
{
    const struct http_route *route = w->ex->route;
    const struct api_limit *limit = api__limit_ahead(route->handler);
    return w->pre.admitted && limit && state_ratelimit_shared(w->svc->limits) &&
           state_ratelimit_take_async(w->svc->limits, limit->action, w->pre.me.user_id,
                                      limit->count, limit->window_ms, &w->taken, limit_taken,
                                      w) == 0;
}

/* On the I/O thread, when the hashing or the media lane's queue is full. */
static void busy(struct api_service *a, struct http_exchange *ex, const char *what)
{
    struct api_call c = {.svc = a, .req = ex->req, .res = &ex->res};
    api__busy(&c, what);
    answer(ex);
}

void api_dispatch(struct api_service *a, struct http_exchange *ex)
{
    const struct http_route *route = NULL;
    ex->route = NULL;
    if (api__is_api_path(ex->req->path) && api__route_of(a, ex->req, &route) == HTTP_ROUTE_FOUND)
        ex->route = route;
    ex->label = route ? route->pattern : NULL;
    ex->user = a; /* for the worker that runs it (api_worker_run) */
    enum api_lane lane = route ? ((const struct api_route *)route->handler)->lane : API_ON_WORKER;
    if (ex->req->upload) {
        /* Its files are read, stripped, thumbnailed and stored before the write, on a lane of
         * their own: a flood of images delays only images. */
        if (workers_try_submit(a->media, &ex->job, (size_t)a->cfg->media_queue))
            busy(a, ex, "Muitos envios de arquivos ao mesmo tempo; tente de novo em instantes");
        return;
    }
    if (lane == API_ON_HASHING) {
        if (workers_try_submit(a->hashing, &ex->job, API_HASHING_QUEUE))
            busy(a, ex, "Muitas entradas ao mesmo tempo; tente de novo em instantes");
        return;
    }
    struct writer_call *w = lane == API_ON_WRITER ? calloc(1, sizeof *w) : NULL;
    if (!w) {
        workers_submit(a->workers, &ex->job);
        return;
    }
    w->job = (struct store_writer_job){.run = writer_call_run, .done = writer_call_done};
    w->svc = a;
    w->ex = ex;
    enum prepared p = prepare(w, NULL);
    if (p == PREPARED && limit_ahead(w))
        return; /* on to the writer once Redis has counted it */
    if (p == PREPARED_ANSWER) {
        answer(ex);
        free(w);
    } else if (p == PREPARED_ASK) {
        w->ahead.fn = ahead_run;
        workers_submit(a->workers, &w->ahead);
    } else {
        store_writer_submit_later(a->writer, &w->job); /* woken once this turn of the loop ends */
    }
}
