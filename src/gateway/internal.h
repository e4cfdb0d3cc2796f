/*
 * What the gateway's parts share on the I/O thread: a connection, the gateway itself, and how a
 * part runs a job on a worker and hears its answer.
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
    struct map presence_noted;   /* user id → why: presence to announce (presence_live.h) */
    struct map presence_later;   /* user id → the tick after which to look at it again */
    uintptr_t presence_ticks;    /* sweeps so far */
    int presence_busy;           /* a presence job is on a worker */
    uv_timer_t presence_timer;   /* the next presence job's start */
    struct map lists;            /* "server/channel" → member list (member_lists.h) */
    uv_timer_t lists_timer;      /* their tick, while there are any */
    size_t lists_members;        /* members held in all of them */
};

/* A piece of work for a worker thread (the database) whose answer comes back to the I/O
 * thread. Embed it first in a struct of your own. */
struct gateway_job {
    struct workers_job job;
    struct inbox_item item;
    struct gateway *gw;
    void (*work)(struct gateway_job *j, void *thread_ctx); /* on a worker */
    void (*done)(struct gateway_job *j);                   /* on the I/O thread; frees the job */
};

void gateway__run(struct gateway *gw, struct gateway_job *j);
/* Sends an event to those of its audience connected here, with its offset when logged. */
struct bus_event;
void gateway__fan_out(struct gateway *gw, const struct bus_event *ev);
/* Publishes an event to users' connections (takes payload): to those on every node, or (with
 * everywhere 0) to this node's only. */
void gateway__publish(struct gateway *gw, const char *name, json_t *payload,
                      const char (*to)[UUID_LEN + 1], size_t n, int everywhere);

#endif
