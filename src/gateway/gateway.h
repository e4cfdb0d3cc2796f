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
#include "http/server.h"
#include "store/people.h"

struct bus;
struct presence;
struct state_voice;
struct console;
struct gateway;
struct state;

/* What the gateway asks of the API's rules, on a worker thread (thread_ctx is the worker's).
 * main.c wires the API's functions in, so neither layer includes the other. */
struct gateway_rules {
    /* Who holds the token: 1 found, 0 nobody, < 0 a storage error. */
    int (*identity)(void *thread_ctx, const char *token_hash, struct store_token_owner *out);
    /* The worker's database connection. */
    struct store *(*thread_store)(void *thread_ctx);
    /* Where user_id stands in voice channel channel_id. */
    void (*voice_standing)(void *thread_ctx, const char *user_id, int is_bot,
                           const char *channel_id, struct voice_standing *out);
    /* Who watches the channel's voice participants: the bots with voice.connect and the people
     * that can see it (malloc'd array). 0 or -1. */
    int (*voice_observers)(void *thread_ctx, const char *server_id, const char *channel_id,
                           char (**to)[UUID_LEN + 1], size_t *n);
    /* Who sees user_id's presence change live (a new reference), or NULL on error. The rule
     * itself NULL: nobody. */
    struct idset *(*presence_watchers)(void *thread_ctx, const char *user_id);
};

struct gateway_config {
    int ping_interval_ms;
    int ping_timeout_ms;
    size_t max_payload;
    size_t max_queued;       /* per connection, before a slow reader is dropped */
    double rate_limit_scale; /* multiplies the limits on client events (PRACA_RATE_LIMIT_SCALE) */
    size_t max_sessions;     /* Engine.IO sessions open at once (0 = no cap) */
    int access_log;          /* a log line per connect and refusal */
    int in_order;            /* several nodes: logged events in position order (sequence.h) */
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

struct gateway *gateway_new(uv_loop_t *loop, const struct gateway_config *cfg,
                            const struct gateway_rules *rules, struct state *state,
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
