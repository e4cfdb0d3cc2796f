/*
 * What an operator sees of a running server: the access log (one line per answer, never a
 * token) and the metrics, answered on their own listen address.
 */
#ifndef PRACA_OPS_OBSERVE_H
#define PRACA_OPS_OBSERVE_H
#include "http/server.h"
#include "ops/metrics.h"

struct observe {
    struct metrics *metrics;
    struct metrics_sources sources;
    int access_log;
};

/* An http_answer_fn: logs the answer and counts it. */
void ops_observe_answer(void *observe, const struct http_answer *a);
/* An http_handler_fn for the metrics listener: GET /metrics, anything else 404. */
void ops__observe_metrics_request(void *observe, struct http_exchange *ex);

/* Serves the metrics on listen ("HOST:PORT", "[v6]:PORT"; port 0 picks one) from the same loop
 * and prints where. Returns 0, or -1 after logging why not; *out gets the server whenever one
 * was made (the caller drains and frees it either way). */
int ops_observe_listen_metrics(struct observe *o, uv_loop_t *loop, const char *listen,
                               struct http_server **out);

#endif
