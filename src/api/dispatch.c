/*
 * The API's front door: route on the I/O thread and send the request to its lane; there, run its
 * handler and make sure exactly one answer leaves with the headers every /api answer carries.
 * A request's stages are filed apart: who calls (admit.c), its limits (limits.c), its lane (the
 * workers here; the writer, writer_lane.c; hashing and uploads, pools of their own), and an
 * answer that waits on something outside (later.c).
 */
#include "api/api.h"
#include "api/dispatch_parts.h"
#include "http/reqparse.h"
#include "api/reply.h"
#include "api/audit.h"
#include "api/idempotency.h"
#include "api/limits.h"
#include "core/config.h"

#include <http_parser.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus/bus.h"
#include "core/log.h"
#include "core/workers.h"

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

int api__decode_params(struct api_call *c, const struct http_request *req)
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
    if (api__decode_params(c, req)) {
        api__error(c, 404, "Rota não encontrada");
        return;
    }
    const struct api_route *def = c->route->handler;
    if (def->auth != API_PUBLIC && !api__still_admitted(c) && api__authenticate(c, def->auth))
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

void api__run(struct api_call *c, struct http_exchange *ex)
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
    api__call_end(c);
}

int api__at_end(struct api_call *c, void (*fn)(void *arg), void *arg)
{
    if (c->n_at_end == API_AT_END_MAX) {
        log_error("api: %s holds more than %d things", c->route ? c->route->pattern : "?",
                  API_AT_END_MAX);
        api__internal(c);
        return -1;
    }
    c->at_end[c->n_at_end++] = (struct api_at_end){fn, arg};
    return 0;
}

static void json_release(void *j)
{
    json_decref(j);
}

int api__at_end_json(struct api_call *c, json_t *j)
{
    if (!j || !api__at_end(c, json_release, j))
        return 0;
    json_decref(j);
    return -1;
}

int api__at_end_free(struct api_call *c, void *p)
{
    if (!p || !api__at_end(c, free, p))
        return 0;
    free(p);
    return -1;
}

void api__call_end(struct api_call *c)
{
    while (c->n_at_end) {
        struct api_at_end *e = &c->at_end[--c->n_at_end];
        e->fn(e->arg);
    }
    json_decref(c->body);
    c->body = NULL;
}

void api__answer(struct http_exchange *ex)
{
    if (!ex->res.cache_control)
        ex->res.cache_control = "no-store"; /* unless the handler said otherwise */
    if (ex->req->method == HTTP_HEAD)
        ex->res.body_len = 0; /* same headers as GET, no body */
    http_exchange_done(ex);
}

void api__settle_after_commit(struct api_service *a, struct http_exchange *ex,
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

void api__answer_after_commit(struct api_service *a, struct http_exchange *ex,
                              struct bus_held *events, int committed)
{
    api__settle_after_commit(a, ex, events, committed);
    api__answer(ex);
}

/* ---- the worker lane ---- */

void api_worker_run(struct job *job, void *thread_ctx)
{
    struct http_exchange *ex = JOB_OF(job, struct http_exchange, job);
    struct api_call c = api__thread_call(ex->user, thread_ctx);
    api__run(&c, ex);
    store_read_release(c.db);
    if (!c.later)
        api__answer(ex);
}

/* On the I/O thread, when the hashing or the media lane's queue is full. */
static void busy(struct api_service *a, struct http_exchange *ex, const char *what)
{
    struct api_call c = {.svc = a, .req = ex->req, .res = &ex->res};
    api__busy(&c, what);
    api__answer(ex);
}

enum api_lane api__lane(const struct api_route *route)
{
    if (route->hashes)
        return API_ON_HASHING;
    return route->tells_bots && route->auth != API_PUBLIC ? API_ON_WRITER : API_ON_WORKER;
}

int api_hashing_threads(const struct config *cfg)
{
    if (cfg->hashing_workers > 0)
        return cfg->hashing_workers;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 2 ? (int)(cores < 256 ? cores : 256) : 2;
}

void api_dispatch(struct api_service *a, struct http_exchange *ex)
{
    const struct http_route *route = NULL;
    ex->route = NULL;
    if (api__is_api_path(ex->req->path) && api__route_of(a, ex->req, &route) == HTTP_ROUTE_FOUND)
        ex->route = route;
    ex->label = route ? route->pattern : NULL;
    ex->user = a; /* for the worker that runs it (api_worker_run) */
    enum api_lane lane = route ? api__lane(route->handler) : API_ON_WORKER;
    if (ex->req->upload) {
        /* Its files are read, stripped, thumbnailed and stored before the write, on a lane of
         * their own: a flood of images delays only images. */
        if (workers_try_submit(a->media, &ex->job, (size_t)a->cfg->media_queue))
            busy(a, ex, "Muitos envios de arquivos ao mesmo tempo; tente de novo em instantes");
        return;
    }
    if (lane == API_ON_HASHING) {
        if (workers_try_submit(a->hashing, &ex->job, (size_t)a->cfg->hashing_queue))
            busy(a, ex, "Muitas entradas ao mesmo tempo; tente de novo em instantes");
        return;
    }
    if (lane != API_ON_WRITER || api__writer_lane(a, ex))
        workers_submit(a->workers, &ex->job);
}
