/* Answers: see api.h. Every /api answer is JSON and uncached, but for the media proxy's images. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/json_rules.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "api/api.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/log.h"
#include "store/db.h"
#include "store/servers.h"

/* A success tells the request limit it passed, as Discord's answers do; a 429 tells nothing
 * but its body (the interface's rule). */
static void budget_headers(struct api_call *c, int status)
{
    if (!c->budget.name || status < 200 || status >= 300)
        return;
    char v[32];
    snprintf(v, sizeof v, "%u", c->budget.limit);
    http_response_add_header(c->res, "X-RateLimit-Limit", v);
    snprintf(v, sizeof v, "%u", c->budget.remaining);
    http_response_add_header(c->res, "X-RateLimit-Remaining", v);
    snprintf(v, sizeof v, "%.3f", (double)c->budget.reset_ms / 1000.0);
    http_response_add_header(c->res, "X-RateLimit-Reset-After", v);
    http_response_add_header(c->res, "X-RateLimit-Bucket", c->budget.name);
}

void api__reply(struct api_call *c, int status, json_t *body)
{
    if (c->answered) {
        json_decref(body);
        return;
    }
    c->answered = 1;
    char *text = body ? jsonout_dump(body, NULL) : NULL;
    json_decref(body);
    if (!text) {
        status = 500;
        text = strdup("{\"error\":\"Erro interno\"}");
    }
    budget_headers(c, status);
    http_response_set(c->res, status, "application/json; charset=utf-8", text,
                      text ? strlen(text) : 0);
}

void api__reply_wrapped(struct api_call *c, const char *key, char *json)
{
    struct buf b;
    size_t klen = strlen(key), jlen = strlen(json);
    buf_init(&b, klen + jlen + 8);
    int failed = c->answered || buf_append(&b, "{\"", 2) || buf_append(&b, key, klen) ||
                 buf_append(&b, "\":", 2) || buf_append(&b, json, jlen) || buf_append(&b, "}", 1);
    free(json);
    if (failed) {
        buf_cleanup(&b);
        if (!c->answered)
            api__internal(c);
        return;
    }
    c->answered = 1;
    size_t len;
    char *text = buf_detach(&b, &len);
    budget_headers(c, 200);
    http_response_set(c->res, 200, "application/json; charset=utf-8", text, len);
}

void api__reply_bytes(struct api_call *c, int status, const char *content_type, char *body,
                      size_t len)
{
    if (c->answered) {
        free(body);
        return;
    }
    c->answered = 1;
    budget_headers(c, status);
    http_response_add_header(c->res, "Content-Security-Policy", "default-src 'none'; sandbox");
    http_response_set(c->res, status, content_type, body, len);
}

int api__store_answer(struct api_call *c, int rc, const struct api_store_words *w)
{
    if (rc >= 0)
        return 0;
    if (rc == STORE_MISSING && w->missing)
        api__error(c, 404, w->missing);
    else if (rc == STORE_REFUSED && w->refused)
        api__error(c, 403, w->refused);
    else if (rc == STORE_TAKEN && w->taken)
        api__error(c, 409, w->taken);
    else if (rc == STORE_FULL && w->full)
        api__error(c, 400, w->full);
    else
        api__internal(c);
    return 1;
}

void api__unanswer(struct api_call *c)
{
    http_response_cleanup(c->res);
    http_response_init(c->res);
    c->answered = 0;
    c->budget.name = NULL;
}

void api__error(struct api_call *c, int status, const char *msg)
{
    api__reply(c, status, json_pack("{ss}", "error", msg));
}

void api__error_flag(struct api_call *c, int status, const char *msg, const char *flag)
{
    api__reply(c, status, json_pack("{sssb}", "error", msg, flag, 1));
}

void api__bad(struct api_call *c, const char *path, const char *reason)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s: %s", path, reason);
    api__error(c, 400, msg);
}

int api__room_for_one(struct api_call *c, const char *count_sql, const char *sid, int64_t max,
                      const char *full)
{
    int64_t count;
    if (store_count(c->db, count_sql, sid, &count) != STORE_DONE) {
        api__internal(c);
        return 0;
    }
    if (count >= max) {
        api__bad(c, "name", full);
        return 0;
    }
    return 1;
}

int api__rule_refused(struct api_call *c, const struct rule_error *err)
{
    api__bad(c, err->path, err->reason);
    return -1;
}

void api__ok(struct api_call *c)
{
    api__reply(c, 200, json_pack("{sb}", "ok", 1));
}

void api__reply_found(struct api_call *c, int status, const char *key, json_t *obj)
{
    if (obj)
        api__reply(c, status, json_pack("{so}", key, obj));
    else
        api__internal(c);
}

void api__reply_list(struct api_call *c, const char *key, json_t *list)
{
    api__reply_found(c, 200, key, list);
}

void api__internal(struct api_call *c)
{
    if (!store_reachable())
        api__busy(c, API_UNAVAILABLE);
    else
        api__error(c, 500, "Erro interno; tente novamente em instantes");
}

void api__busy(struct api_call *c, const char *msg)
{
    api__error(c, 503, msg);
    http_response_add_header(c->res, "Retry-After", "1");
}

void api__rate_limited(struct api_call *c, int64_t retry_after_ms)
{
    api__reply(c, 429,
               json_pack("{sssI}", "error", "Muitas requisições; aguarde antes de tentar de novo",
                         "retryAfterMs", (json_int_t)retry_after_ms));
}
