/* Metrics: see metrics.h. */
#include "ops/metrics.h"

#include <http_parser.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bus/relay.h"
#include "core/buf.h"
#include "core/workers.h"
#include "gateway/gateway.h"
#include "http/server.h"
#include "media/probe.h"
#include "store/writer.h"

#define SLOTS    2048 /* series (method, route, status); more fold into the unmatched one */
#define NBUCKETS 16

static const double BUCKETS[NBUCKETS] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                         0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};

/* One (method, route, status): its count and its latency histogram. */
struct series {
    const char *route; /* a route table's pattern (static), or NULL */
    int method, status, used;
    unsigned long long count, buckets[NBUCKETS];
    double seconds;
};

struct metrics {
    struct series slots[SLOTS];
    size_t used;
};

struct metrics *ops_metrics_new(void)
{
    return calloc(1, sizeof(struct metrics));
}

void ops_metrics_free(struct metrics *m)
{
    free(m);
}

static size_t slot_of(const char *route, int method, int status)
{
    uint64_t h = (uint64_t)(uintptr_t)route * 0x9E3779B97F4A7C15u;
    h ^= (uint64_t)(method + 1) * 0xC2B2AE3D27D4EB4Fu ^ (uint64_t)status * 0x165667B19E3779F9u;
    return (size_t)(h >> 40) & (SLOTS - 1);
}

static struct series *find(struct metrics *m, const char *route, int method, int status)
{
    for (size_t i = slot_of(route, method, status), n = 0; n < SLOTS;
         i = (i + 1) & (SLOTS - 1), n++) {
        struct series *s = &m->slots[i];
        if (s->used && s->route == route && s->method == method && s->status == status)
            return s;
        if (!s->used) {
            if (m->used + 1 >= SLOTS * 3 / 4)
                return NULL;
            *s = (struct series){.route = route, .method = method, .status = status, .used = 1};
            m->used++;
            return s;
        }
    }
    return NULL;
}

void ops__metrics_request(struct metrics *m, int method, const char *route, int status,
                          uint64_t duration_ns)
{
    struct series *s = find(m, route, method, status);
    if (!s && !(s = find(m, NULL, -1, status)))
        return;
    double seconds = (double)duration_ns / 1e9;
    s->count++;
    s->seconds += seconds;
    for (int b = 0; b < NBUCKETS; b++)
        if (seconds <= BUCKETS[b])
            s->buckets[b]++;
}

static const char *method_name(int method)
{
    return method < 0 ? "other" : http_method_str((enum http_method)method);
}

static void requests(struct buf *out, const struct metrics *m)
{
    buf_appendf(out, "# HELP praca_http_requests_total HTTP answers by method, route pattern and "
                     "status (route \"unmatched\": no route or answered before routing).\n"
                     "# TYPE praca_http_requests_total counter\n");
    for (size_t i = 0; i < SLOTS; i++) {
        const struct series *s = &m->slots[i];
        if (s->used)
            buf_appendf(
                out, "praca_http_requests_total{method=\"%s\",route=\"%s\",status=\"%d\"} %llu\n",
                method_name(s->method), s->route ? s->route : "unmatched", s->status, s->count);
    }
    buf_appendf(out, "# HELP praca_http_request_duration_seconds From the request complete to its "
                     "answer leaving, by method, route pattern and status.\n"
                     "# TYPE praca_http_request_duration_seconds histogram\n");
    for (size_t i = 0; i < SLOTS; i++) {
        const struct series *s = &m->slots[i];
        if (!s->used)
            continue;
        char labels[512];
        snprintf(labels, sizeof labels, "method=\"%s\",route=\"%s\",status=\"%d\"",
                 method_name(s->method), s->route ? s->route : "unmatched", s->status);
        for (int b = 0; b < NBUCKETS; b++)
            buf_appendf(out, "praca_http_request_duration_seconds_bucket{%s,le=\"%g\"} %llu\n",
                        labels, BUCKETS[b], s->buckets[b]);
        buf_appendf(out,
                    "praca_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %llu\n"
                    "praca_http_request_duration_seconds_sum{%s} %.6f\n"
                    "praca_http_request_duration_seconds_count{%s} %llu\n",
                    labels, s->count, labels, s->seconds, labels, s->count);
    }
}

static void one(struct buf *out, const char *name, const char *type, const char *help,
                unsigned long long value)
{
    buf_appendf(out, "# HELP %s %s\n# TYPE %s %s\n%s %llu\n", name, help, name, type, name, value);
}

static void web_push(struct buf *out, const struct metrics_sources *src)
{
    struct metrics_web_push w = {0};
    if (!src->web_push)
        return;
    src->web_push(src->web_push_arg, &w);
    buf_appendf(out,
                "# HELP praca_web_push_messages_total New messages Web Push looked at, or dropped "
                "past its queue.\n# TYPE praca_web_push_messages_total counter\n"
                "praca_web_push_messages_total{outcome=\"queued\"} %lu\n"
                "praca_web_push_messages_total{outcome=\"dropped\"} %lu\n",
                w.queued, w.dropped);
    buf_appendf(out,
                "# HELP praca_web_push_requests_total Push requests to push services, by "
                "outcome.\n# TYPE praca_web_push_requests_total counter\n"
                "praca_web_push_requests_total{outcome=\"sent\"} %lu\n"
                "praca_web_push_requests_total{outcome=\"accepted\"} %lu\n"
                "praca_web_push_requests_total{outcome=\"retried\"} %lu\n"
                "praca_web_push_requests_total{outcome=\"failed\"} %lu\n",
                w.sent, w.accepted, w.retried, w.failed);
    one(out, "praca_web_push_gone_total", "counter",
        "Devices forgotten because their push service said 404 or 410.", w.gone);
}

static void held(struct buf *out, const struct metrics_sources *src)
{
    struct http_server_stats h;
    http_server_stats(src->http, &h);
    one(out, "praca_http_connections", "gauge", "Open connections, upgraded ones included.",
        h.connections);
    one(out, "praca_http_connections_refused_total", "counter",
        "Connections closed on arrival for a connection cap.", h.refused);
    one(out, "praca_http_body_bytes", "gauge", "Request body bytes held, all connections.",
        h.body_bytes);
    one(out, "praca_http_answer_bytes", "gauge",
        "Answer bytes waiting on clients that have not read them, all connections.",
        h.answer_bytes);
    one(out, "praca_http_spool_bytes", "gauge",
        "Uploads' bytes received and not yet stored or deleted (of --upload-budget-mb).",
        h.spool_bytes);
    struct media_stats ms;
    media_stats(&ms);
    buf_appendf(out, "# HELP praca_media_thumbnails_total Thumbnails asked of an image's header, "
                     "by verdict (only \"ok\" reaches the decoder).\n"
                     "# TYPE praca_media_thumbnails_total counter\n");
    for (int v = 0; v <= MEDIA_THUMB_DECODE_BUDGET; v++)
        buf_appendf(out, "praca_media_thumbnails_total{verdict=\"%s\"} %llu\n",
                    media_thumb_verdict_name((enum media_thumb_verdict)v), ms.verdicts[v]);
    one(out, "praca_http_write_timeouts_total", "counter",
        "Connections closed because their answer made no progress.", h.write_timeouts);
    if (src->gateway) {
        struct gateway_stats g;
        gateway_stats(src->gateway, &g);
        buf_appendf(out,
                    "# HELP praca_gateway_connections Gateway connections open, by account kind.\n"
                    "# TYPE praca_gateway_connections gauge\n"
                    "praca_gateway_connections{as=\"bot\"} %zu\n"
                    "praca_gateway_connections{as=\"person\"} %zu\n",
                    g.bots, g.connections - g.bots);
        buf_appendf(out,
                    "# HELP praca_gateway_connects_total Socket.IO CONNECTs, accepted or refused.\n"
                    "# TYPE praca_gateway_connects_total counter\n"
                    "praca_gateway_connects_total{result=\"accepted\"} %llu\n"
                    "praca_gateway_connects_total{result=\"refused\"} %llu\n"
                    "praca_gateway_connects_total{result=\"unchecked\"} %llu\n",
                    g.connects, g.refused, g.unchecked);
        one(out, "praca_gateway_events_total", "counter", "Events fanned out.", g.events);
        one(out, "praca_gateway_event_recipients_total", "counter",
            "Accounts entitled to those events (intents and permissions applied), connected or "
            "not.",
            g.recipients);
        one(out, "praca_gateway_deliveries_total", "counter", "Event frames written to sockets.",
            g.deliveries);
    }
    struct store_writer_stats w;
    store_writer_stats(src->writer, &w);
    one(out, "praca_writer_transactions_total", "counter",
        "Group-commit transactions (jobs / transactions = batch size).", w.transactions);
    one(out, "praca_writer_jobs_total", "counter", "Writes and writer-lane requests run.", w.jobs);
    buf_appendf(out,
                "# HELP praca_writer_wait_seconds_total Time writes waited for the writer, "
                "summed.\n# TYPE praca_writer_wait_seconds_total counter\n"
                "praca_writer_wait_seconds_total %.6f\n",
                (double)w.wait_ns / 1e9);
    buf_appendf(out,
                "# HELP praca_queue_depth Jobs waiting, by queue.\n# TYPE praca_queue_depth gauge\n"
                "praca_queue_depth{queue=\"writer\"} %llu\n"
                "praca_queue_depth{queue=\"workers\"} %zu\n"
                "praca_queue_depth{queue=\"hashing\"} %zu\n"
                "praca_queue_depth{queue=\"media\"} %zu\n",
                w.queued, workers_queued(src->workers), workers_queued(src->hashing),
                workers_queued(src->media));
    if (w.checkpoints.beside) {
        one(out, "praca_sqlite_checkpoints_total", "counter",
            "Checkpoints of SQLite's -wal run on their own thread, beside the writer.",
            w.checkpoints.runs);
        one(out, "praca_sqlite_wal_pages", "gauge",
            "Pages in SQLite's -wal at the last commit (the writer checkpoints itself past 8000).",
            (unsigned long long)w.checkpoints.wal_pages);
    }
    if (src->relay)
        one(out, "praca_relay_queue_bytes", "gauge",
            "Events and changes committed and waiting to be appended to Redis.",
            bus_relay_queued_bytes(src->relay));
}

char *ops__metrics_render(const struct metrics *m, const struct metrics_sources *src, size_t *len)
{
    struct buf out;
    buf_init(&out, 16 * 1024 * 1024);
    requests(&out, m);
    held(&out, src);
    web_push(&out, src);
    if (buf_append(&out, "", 1)) { /* the NUL */
        buf_cleanup(&out);
        return NULL;
    }
    *len = out.len - 1;
    return out.data;
}
