/*
 * The real-time gateway: Socket.IO connections of bots (and people) at /socket.io/, who is
 * connected as whom, delivery of bus events to exactly the connections they name, presence,
 * and closing connections whose token stopped being valid.
 */
#ifndef PRACA_GATEWAY_GATEWAY_H
#define PRACA_GATEWAY_GATEWAY_H
#include <uv.h>

#include "core/uuid.h"
#include "core/workers.h"
#include "domain/voice_rules.h"
#include "gateway/voice_ice.h"
#include "gateway/voice_sfu.h"
#include "http/server.h"
#include "store/people.h"

struct bus;
struct presence;
struct state_voice;
struct console;
struct gateway;
struct state;

struct gateway_config {
    int ping_interval_ms;
    int ping_timeout_ms;
    size_t max_payload;
    size_t max_queued;       /* per connection, before a slow reader is dropped */
    double rate_limit_scale; /* multiplies the limits on client events (PRACA_RATE_LIMIT_SCALE) */
    size_t max_sessions;     /* Engine.IO sessions open at once (0 = no cap) */
    double sessions_per_s;   /* new Engine.IO sessions a second (0 = no limit) */
    int access_log;          /* a log line per connect and refusal */
    int in_order;            /* several nodes: logged events in position order (sequence.h) */
    /* The people of a larger server get no PRESENCE_UPDATE (state/watchers.h). */
    size_t presence_people_max;
    int presence_grace_ms; /* an offline is said once no connection came back by then */
    struct voice_ice ice;  /* handed out with voice:join (its strings outlive the gateway) */
    struct voice_sfu sfu;  /* past a mesh (voice_sfu.h; its strings outlive the gateway too) */
};

/* What the gateway has done, for metrics (I/O thread). */
/* One account's gateway connections at most, per node: every event to the account is written
 * once per connection, so 5,000 sockets made each message cost 43 ms of the I/O thread. */
#define GATEWAY_CONNECTIONS_PER_ACCOUNT 32
#define GATEWAY_STR_(x)                 #x
#define GATEWAY_STR(x)                  GATEWAY_STR_(x)

struct gateway_stats {
    size_t connections, bots;      /* open now */
    unsigned long long connects;   /* accepted CONNECTs since start */
    unsigned long long refused;    /* refused CONNECTs */
    unsigned long long unchecked;  /* CONNECTs whose credential could not be checked (retried) */
    unsigned long long too_many;   /* refused: the account had its connections already */
    unsigned long long events;     /* events fanned out */
    unsigned long long recipients; /* accounts entitled to them, connected or not */
    unsigned long long deliveries; /* frames written to sockets */
};
void gateway_stats(const struct gateway *gw, struct gateway_stats *out);

/* The workers' thread context is their database connection (store_worker_open): the gateway's
 * jobs read through it, and ask state what the API would answer. */
struct gateway *gateway_new(uv_loop_t *loop, const struct gateway_config *cfg, struct state *state,
                            struct workers *workers, struct bus *bus, struct presence *presence,
                            struct state_voice *voice, struct console *console);
/* 1 when the request is for the gateway's path. */
int gateway_owns(const struct http_request *req);
void gateway_handle(struct gateway *gw, struct http_exchange *ex);
/* Closes every connection's transport, with no Socket.IO disconnect, so clients reconnect (to
 * this node once it is back, or another) by themselves; new sessions get 503 meanwhile. Polling
 * clients collect their close with their next request: call gateway_sessions until it reaches
 * 0 (or a grace period ends), then gateway_release. */
void gateway_drain(struct gateway *gw);
/* Offsets continue after the event log's last position (call once, before serving). */
void gateway_resume_after(struct gateway *gw, uint64_t last_position);
size_t gateway_sessions(const struct gateway *gw);
void gateway_release(struct gateway *gw);
void gateway_free(struct gateway *gw);

#endif
