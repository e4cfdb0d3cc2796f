/*
 * Prometheus metrics: requests counted by method, route pattern and status with a latency
 * histogram per route, and, read when scraped, what the HTTP server, the gateway, the writer and
 * the worker pools hold. Requests are counted on the I/O thread, where scrapes are answered too.
 */
#ifndef PRACA_OPS_METRICS_H
#define PRACA_OPS_METRICS_H
#include <stddef.h>
#include <stdint.h>

struct http_server;
struct gateway;
struct workers;
struct store_writer;

/* Web Push's counters (api/web_push.h), read through a function the start wires: ops/ includes
 * nothing of api/. */
struct metrics_web_push {
    unsigned long queued, dropped;                       /* messages */
    unsigned long sent, accepted, failed, retried, gone; /* push requests; gone: devices */
};

struct metrics_sources {
    struct http_server *http;
    struct gateway *gateway; /* NULL in conformance mode */
    struct workers *workers, *hashing, *media;
    struct store_writer *writer;
    struct relay *relay; /* NULL on one node */
    void (*web_push)(void *arg, struct metrics_web_push *out);
    void *web_push_arg;
};

struct metrics;

struct metrics *ops_metrics_new(void);
void ops_metrics_free(struct metrics *m);
/* One answered request; method < 0 and route NULL when unknown (answered before routing). */
void ops__metrics_request(struct metrics *m, int method, const char *route, int status,
                          uint64_t duration_ns);
/* The exposition text (malloc'd, *len set), or NULL when out of memory. */
char *ops__metrics_render(const struct metrics *m, const struct metrics_sources *src, size_t *len);

#endif
