/*
 * How large a request's body may be, decided before any byte of it is read: anonymous callers
 * and small routes get little; a known, valid credential gets its route's (large JSON, or an
 * upload whose files go to the spool). A credential memory cannot vouch for, or a token in the
 * path (an interaction's, a webhook's), is looked up on a worker while the connection waits.
 */
#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/dispatch_parts.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/workers.h"
#include "http/reqparse.h"
#include "state/state.h"
#include "store/interactions.h"
#include "store/people.h"
#include "store/webhooks.h"

/* A credential that may send large bodies: a person's session, or a bot of a live application. */
static int usable(const struct store_token_owner *owner)
{
    return !(owner->is_bot && (owner->suspended || !owner->app_id[0]));
}

static int is_multipart(const struct http_request *req)
{
    struct slice t = http_request_header(req, "content-type");
    return t.len >= 19 && slice_eq_nocase((struct slice){t.ptr, 19}, "multipart/form-data");
}

/* The largest upload: every file at its limit, and the JSON beside them. */
static size_t upload_max(const struct config *cfg)
{
    return (size_t)cfg->files_per_message * (size_t)cfg->file_max_mb * 1000 * 1000 +
           API_BODY_SMALL_MAX;
}

size_t api_body_max(const struct config *cfg)
{
    size_t up = upload_max(cfg),
           import = (size_t)cfg->import_max_mb * 1000 * 1000 + API_BODY_SMALL_MAX;
    up = up > import ? up : import;
    return up > API_BODY_LARGE_MAX ? up : API_BODY_LARGE_MAX;
}

/* An import's one file (api/imports.c), or nothing when imports from the page are off. */
static size_t import_granted(struct api_service *a, struct http_request *req)
{
    size_t file_max = (size_t)a->cfg->import_max_mb * 1000 * 1000;
    if (!file_max || !is_multipart(req))
        return API_BODY_SMALL_MAX;
    req->upload_limits = (struct http_upload_limits){.dir = a->files.spool,
                                                     .file_max = file_max,
                                                     .files_max = 1,
                                                     .field_max = API_BODY_SMALL_MAX};
    return file_max + API_BODY_SMALL_MAX;
}

/* The limit a known, valid credential gets on its route (an upload's files go to the spool). */
static size_t granted(struct api_service *a, struct http_request *req, enum api__body body)
{
    if (body == API_BODY_LARGE)
        return API_BODY_LARGE_MAX;
    if (body == API_BODY_IMPORT)
        return import_granted(a, req);
    if (body != API_BODY_UPLOAD || !is_multipart(req))
        return API_BODY_SMALL_MAX;
    req->upload_limits = (struct http_upload_limits){
        .dir = a->files.spool,
        .file_max = (size_t)a->cfg->file_max_mb * 1000 * 1000,
        .files_max = (size_t)a->cfg->files_per_message,
        .field_max = API_BODY_SMALL_MAX,
    };
    return upload_max(a->cfg);
}

/* A route whose credential is a token in its path: an interaction's (/api/interactions/:id/
 * :token/…) or a webhook's (/api/webhooks/:wid/:token). The token is checked like a bearer
 * token before any byte of the body: an upload, or a webhook's JSON past the anonymous limit
 * (a GitHub push), needs it. */
static int token_in_path_upload(const struct http_route *route, const struct http_request *req)
{
    const struct api_route *def = route->handler;
    return def->auth == API_PUBLIC && def->body == API_BODY_UPLOAD &&
           (is_multipart(req) || http_route_param_index(route, "wid") >= 0);
}

size_t api_body_limit(struct api_service *a, struct http_request *req)
{
    const struct http_route *route = NULL;
    if (!api__is_api_path(req->path) || api__route_of(a, req, &route) != HTTP_ROUTE_FOUND)
        return API_BODY_ANONYMOUS_MAX;
    const struct api_route *def = route->handler;
    if (token_in_path_upload(route, req)) {
        req->upload_limits.dir = ""; /* the interaction's token is checked before the body */
        return HTTP_BODY_LIMIT_ASK;
    }
    struct slice token = api__request_token(req, NULL);
    if (def->auth == API_PUBLIC || !token.len || token.len > TOKEN_MAX)
        return API_BODY_ANONYMOUS_MAX;
    int files = def->body == API_BODY_UPLOAD || def->body == API_BODY_IMPORT;
    if (def->body == API_BODY_SMALL || (files && !is_multipart(req)))
        return API_BODY_SMALL_MAX;
    char hash[65];
    struct store_token_owner owner;
    crypto_sha256_hex(token.ptr, token.len, hash);
    if (!state_identity_known(a->state, hash, &owner)) {
        if (files)
            req->upload_limits.dir = ""; /* asked about however small: it may be an upload */
        return HTTP_BODY_LIMIT_ASK;      /* looked up on a worker before the body is read */
    }
    return usable(&owner) ? granted(a, req, def->body) : API_BODY_SMALL_MAX;
}

/* A credential looked up off the I/O thread; until then nothing of the body was read. */
struct limit_job {
    struct job job;
    struct http_limit_ask *ask;
    struct api_service *svc;
    enum api__body body;
    char hash[65];
};

static void limit_job_run(struct job *job, void *thread_ctx)
{
    struct limit_job *l = (struct limit_job *)job;
    struct store_token_owner owner;
    int found = state_identity_current(l->svc->state, thread_ctx, l->hash, &owner);
    /* The request is the paused connection's, untouched by the I/O thread until decided. */
    struct http_request *req = (struct http_request *)l->ask->req;
    http_limit_decided(l->ask, found == 1 && usable(&owner) ? granted(l->svc, req, l->body)
                                                            : API_BODY_SMALL_MAX);
    free(l);
}

/* A token from the path, looked up the same way: an interaction's (within its 15 minutes) or a
 * webhook's grants its route's body; any other keeps the anonymous limit. */
struct path_token_job {
    struct job job;
    struct http_limit_ask *ask;
    struct api_service *svc;
    int webhook; /* a webhook's token, else an interaction's */
    char id[UUID_LEN + 1];
    char hash[CRYPTO_SHA256_HEX + 1];
};

/* Whether the token of the path is the interaction's (within its 15 minutes) or the webhook's. */
static int path_token_valid(struct store *db, const struct path_token_job *l)
{
    if (l->webhook) {
        struct store_webhook h;
        return store_webhook_find(db, l->id, &h) == 1 &&
               crypto_equal(l->hash, h.token_hash, CRYPTO_SHA256_HEX);
    }
    struct store_interaction it;
    return store_interaction_find(db, l->id, &it) == 1 &&
           clock_now_ms() - it.created_at < INTERACTION_TTL_MS &&
           strlen(it.token_hash) == CRYPTO_SHA256_HEX &&
           crypto_equal(l->hash, it.token_hash, CRYPTO_SHA256_HEX);
}

static void path_token_run(struct job *job, void *thread_ctx)
{
    struct path_token_job *l = (struct path_token_job *)job;
    int ok = path_token_valid(thread_ctx, l);
    store_read_release(thread_ctx);
    struct http_request *req = (struct http_request *)l->ask->req;
    http_limit_decided(l->ask, ok ? granted(l->svc, req, API_BODY_UPLOAD) : API_BODY_ANONYMOUS_MAX);
    free(l);
}

static void path_token_ask(struct api_service *a, struct http_limit_ask *ask,
                           const struct http_route *route)
{
    const struct http_request *req = ask->req;
    int webhook = http_route_param_index(route, "wid") >= 0;
    int id = http_route_param_index(route, webhook ? "wid" : "id");
    int token = http_route_param_index(route, "token");
    struct path_token_job *l = calloc(1, sizeof *l);
    if (!l || id < 0 || token < 0 || req->params[id].len != UUID_LEN ||
        !uuid_valid(req->params[id].ptr, UUID_LEN) || !req->params[token].len ||
        req->params[token].len > TOKEN_MAX) {
        free(l);
        http_limit_decided(ask, API_BODY_ANONYMOUS_MAX);
        return;
    }
    l->webhook = webhook;
    memcpy(l->id, req->params[id].ptr, UUID_LEN);
    crypto_sha256_hex(req->params[token].ptr, req->params[token].len, l->hash);
    l->job.run = path_token_run;
    l->ask = ask;
    l->svc = a;
    workers_submit(a->workers, &l->job);
}

void api_body_limit_ask(struct api_service *a, struct http_limit_ask *ask)
{
    const struct http_route *found = NULL;
    if (api__route_of(a, (struct http_request *)ask->req, &found) == HTTP_ROUTE_FOUND &&
        token_in_path_upload(found, ask->req)) {
        path_token_ask(a, ask, found);
        return;
    }
    struct slice token = api__request_token(ask->req, NULL);
    struct limit_job *l = calloc(1, sizeof *l);
    if (!l || !token.len || token.len > TOKEN_MAX) {
        free(l);
        http_limit_decided(ask, API_BODY_SMALL_MAX);
        return;
    }
    const struct http_route *route = NULL;
    api__route_of(a, (struct http_request *)ask->req, &route);
    l->job.run = limit_job_run;
    l->ask = ask;
    l->svc = a;
    l->body = route ? ((const struct api_route *)route->handler)->body : API_BODY_SMALL;
    crypto_sha256_hex(token.ptr, token.len, l->hash);
    workers_submit(a->workers, &l->job);
}
