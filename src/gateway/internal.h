/*
 * What the gateway's parts share on the I/O thread: a connection and the gateway itself. How a
 * part runs a job on a worker is jobs.h; delivering an event, deliver.h.
 */
#ifndef PRACA_GATEWAY_INTERNAL_H
#define PRACA_GATEWAY_INTERNAL_H
#include <jansson.h>
#include <stdint.h>
#include <uv.h>

#include "core/inbox.h"
#include "core/map.h"
#include "core/uuid.h"
#include "core/workers.h"
#include "gateway/gateway.h"
#include "gateway/recovery.h"

struct sio_socket;
struct sio_server;
struct bus;
struct presence;
struct recovery;
struct state_voice;
struct voice_limits;
struct list_sub;
struct reach;

#define GATEWAY_REACH_KEPT 4 /* audiences whose connected users are kept (reach.c) */

struct conn {
    struct sio_socket *sock;
    char user_id[UUID_LEN + 1];
    char token_hash[65];
    int is_bot;
    int recovery; /* opted in: a pid, and offsets on events */
    char pid[RECOVERY_PID_MAX];
    uint64_t since;                    /* the last offset before this connection began */
    struct conn *next;                 /* the user's other connections */
    struct voice_limits *voice_limits; /* made on the first voice event */
    int64_t events_since;              /* the client's events in the window from there */
    int replaying;                     /* resuming from the log: live events wait */
    char viewing[UUID_LEN + 1]; /* the channel or thread the page has open ("" none): typing */
    uint64_t resumed_upto;      /* events up to this position were replayed */
    struct list_sub *list_sub;  /* the member list it follows (member_lists.h), or NULL */
    int events;
    uint32_t
        reach_at[GATEWAY_REACH_KEPT]; /* a first connection's place in each kept list (reach.c) */
};

struct gateway {
    uv_loop_t *loop;
    struct state *state; /* identities known in memory answer a CONNECT at once */
    struct sio_server *sio;
    struct workers *workers;
    struct bus *bus;
    struct presence *presence;
    struct inbox *inbox;
    struct recovery *recovery;
    struct sequence *sequence; /* several nodes: logged events in position order, else NULL */
    struct state_voice *voice;
    struct console *console; /* the portal's event console (not owned; may be NULL) */
    double rate_limit_scale;
    size_t presence_people_max;
    int presence_grace_ms;
    struct voice_ice ice;       /* the ICE servers a voice:join answer hands out */
    struct voice_sfu sfu;       /* past a mesh: the SFU (voice_sfu.h) */
    struct workers *sfu_lane;   /* the one thread that reaches it, or NULL without one */
    struct map sfu_calls;       /* channel id → the gateway: calls on the SFU */
    struct map users;           /* user id → first struct conn */
    size_t conns;               /* connected sockets */
    size_t bots;                /* of which bots */
    struct gateway_stats stats; /* counters since start (connections and bots come from above) */
    int access_log;
    int inflight; /* worker jobs whose answer has not come back */
    uv_timer_t sweep;
    int sweeping;
    int draining;
    unsigned long voice_reviews; /* rights reviews started: observers listed before are stale */
    struct presence_live *presence_live; /* presence announced to people (presence_live.h) */
    struct carry *carry; /* stand-ins for who was online before a restart (presence_carry.h) */
    struct lists *lists; /* member lists by range (member_lists.h) */
    struct reach *reach; /* audiences' connected users, kept (reach.h) */
};

#endif
