/*
 * The real-time gateway: Socket.IO connections of bots (and people) at /socket.io/, who is
 * connected as whom, delivery of bus events to exactly the connections they name, presence,
 * and closing connections whose token stopped being valid.
 */
#ifndef PRACA_GATEWAY_GATEWAY_H
#define PRACA_GATEWAY_GATEWAY_H
#include <uv.h>

#include "core/workers.h"
#include "http/server.h"

struct bus;
struct presence;
struct voicestate;
struct gateway;

/* Control event on the bus: close the recipients' connections (payload {tokenHash?}: only the
 * connections made with that token). */
#define GATEWAY_DISCONNECT "__disconnect__"
/* Another process changed the database: look for suspended applications now. */
#define GATEWAY_SWEEP "__sweep__"

struct gateway_config {
    int ping_interval_ms;
    int ping_timeout_ms;
    size_t max_payload;
    size_t max_queued;       /* per connection, before a slow reader is dropped */
    double rate_limit_scale; /* multiplies the limits on client events (PRACA_RATE_LIMIT_SCALE) */
};

struct gateway *gateway_new(uv_loop_t *loop, const struct gateway_config *cfg,
                            struct workers *workers, struct bus *bus, struct presence *presence,
                            struct voicestate *voice);
/* 1 when the request is for the gateway's path. */
int gateway_owns(const struct http_request *req);
void gateway_handle(struct gateway *gw, struct http_exchange *ex);
/* Sends a Socket.IO disconnect to every connection and closes them. Polling clients collect
 * theirs with their next request: call gateway_sessions until it reaches 0 (or a grace period
 * ends), then gateway_release. */
void gateway_drain(struct gateway *gw);
size_t gateway_sessions(const struct gateway *gw);
void gateway_release(struct gateway *gw);
void gateway_free(struct gateway *gw);

#endif
