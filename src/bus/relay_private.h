/* What the relay's two sides (relay_out.c, relay_in.c) share. */
#ifndef PRACA_BUS_RELAY_PRIVATE_H
#define PRACA_BUS_RELAY_PRIVATE_H
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdint.h>

#include "core/redis.h"
#include "bus/relay.h"

#define RELAY_STREAM_KEEP "100000" /* MAXLEN ~ of the stream */
#define RELAY_BEAT_MS     1000     /* a following node says so at least this often */
#define RELAY_GONE_MS     3000     /* one that has not said so for this long is not waited for */
#define RELAY_ID_MAX      48       /* a stream entry's ID, "MS-SEQ" */

struct relay {
    struct redis_url url;
    char node[17];      /* this node's name in the stream: random at each start */
    char stream[64];    /* praca:LOG_NAME:events */
    char following[64]; /* praca:LOG_NAME:following: node → when it last said it follows */
    char applied[64];   /* praca:LOG_NAME:applied: node → the last entry it applied */
    struct bus *bus;
    relay_change_fn on_change;
    void *change_user;
    /* The writer's side: entries queued by the committing threads, appended by out_thread. */
    const char *exit_before; /* failure tests: dies before relaying an event holding this */
    pthread_mutex_t lock;
    pthread_cond_t queued;
    struct relay_entry *head, *tail;
    size_t queued_bytes;
    unsigned long dropped; /* entries not appended since the last time it was logged */
    int marks_lost;        /* a change mark was not appended: "*" goes first next time */
    uint64_t marks_queued, marks_settled; /* tickets: appended and applied by every node */
    pthread_cond_t settled;
    char settle_sha[48]; /* out_thread's script, once loaded */
    int out_stopping;
    pthread_t out_thread;
    int out_started;
    redisContext *out; /* out_thread's */
    int64_t retry_at_ms;
    /* The following side (the loop's thread). */
    uv_loop_t *loop;
    redisAsyncContext *in; /* NULL between attempts */
    uv_timer_t tick;       /* watches the connection, whatever state it is in */
    int tick_started;
    int64_t in_since_ms;    /* when the attempt began, or the last answer came */
    int64_t in_retry_at_ms; /* with no connection: when to try again */
    int in_doomed;          /* the connection is to be dropped at the next tick */
    int64_t beat_ms;        /* when this node last said it follows */
    int pause_ms;           /* failure tests: a wait before each XREAD */
    uv_timer_t pause;
    char last_id[64]; /* the last entry read; "" until the newest at start is known */
    int lost;         /* not following since a connection dropped or failed */
    int stopping;
};

#endif
