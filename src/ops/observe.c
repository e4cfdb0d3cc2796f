/* Access log and metrics endpoint: see observe.h. */
#include "ops/observe.h"

#include <http_parser.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/log.h"

void ops_observe_answer(void *arg, const struct http_answer *a)
{
    struct observe *o = arg;
    int method = a->req ? a->req->method : -1;
    if (o->metrics)
        ops__metrics_request(o->metrics, method, a->label, a->status, a->duration_ns);
    if (!o->access_log)
        return;
    /* The route pattern, never the path: paths carry IDs and anything a client typed. */
    struct log_field f[] = {
        LOG_STR("method", method < 0 ? NULL : http_method_str((enum http_method)method)),
        LOG_STR("route", a->label),
        LOG_NUM("status", a->status),
        LOG_NUM("ms", (double)a->duration_ns / 1e6),
        LOG_STR("caller", a->caller),
        LOG_STR("peer", a->peer),
    };
    log_fields(LOG_INFO, "http", f, sizeof f / sizeof f[0]);
}

void ops__observe_metrics_request(void *arg, struct http_exchange *ex)
{
    struct observe *o = arg;
    struct http_response *res = &ex->res;
    struct slice path = ex->req->path;
    if (path.len == 8 && !memcmp(path.ptr, "/metrics", 8) &&
        (ex->req->method == HTTP_GET || ex->req->method == HTTP_HEAD)) {
        size_t len;
        char *text = ops__metrics_render(o->metrics, &o->sources, &len);
        res->status = text ? 200 : 500;
        res->content_type = "text/plain; version=0.0.4; charset=utf-8";
        res->body = text;
        res->body_len = ex->req->method == HTTP_HEAD ? 0 : len;
    } else {
        res->status = 404;
        res->content_type = "text/plain; charset=utf-8";
        res->body = strdup("not found: the metrics are at /metrics\n");
        res->body_len = res->body ? strlen(res->body) : 0;
    }
    http_exchange_done(ex);
}

int ops_observe_listen_metrics(struct observe *o, uv_loop_t *loop, const char *listen,
                               struct http_server **out)
{
    *out = NULL;
    char host[256];
    const char *colon = strrchr(listen, ':');
    long long port;
    size_t hlen = colon ? (size_t)(colon - listen) : 0;
    if (hlen >= 2 && listen[0] == '[' && listen[hlen - 1] == ']') {
        listen++;
        hlen -= 2;
    }
    if (!colon || !hlen || hlen >= sizeof host ||
        slice_to_i64(slice_from(colon + 1), 0, 65535, &port)) {
        log_error("--metrics-listen: want HOST:PORT, got '%s'", listen);
        return -1;
    }
    memcpy(host, listen, hlen);
    host[hlen] = '\0';
    struct http_server_config cfg = {
        .host = host,
        .port = (int)port,
        .body_limit = 1024,
        .header_timeout_ms = 5000,
        .body_timeout_ms = 5000,
        .idle_timeout_ms = 60000,
        .max_connections = 64, /* scrapers, not clients */
        .body_budget = 64 * 1024,
    };
    *out = http_server_new(loop, &cfg, ops__observe_metrics_request, o);
    int bound = 0, rc = *out ? http_server_listen(*out, &bound) : UV_ENOMEM;
    if (rc) {
        log_error("cannot listen for metrics on %s:%lld: %s", host, port, uv_strerror(rc));
        return -1;
    }
    printf(strchr(host, ':') ? "metrics on http://[%s]:%d/metrics\n"
                             : "metrics on http://%s:%d/metrics\n",
           host, bound);
    return 0;
}
