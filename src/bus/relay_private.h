/* What the relay's parts share: relay.c spreads the work over the stream's shards, each one
 * stream on one Redis with its writing side (relay_out.c) and following side (relay_in.c). */
#ifndef PRACA_BUS_RELAY_PRIVATE_H
#define PRACA_BUS_RELAY_PRIVATE_H
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdint.h>

#include "core/redis.h"
#include "core/redis_replies.h"
#include "bus/relay.h"

#define RELAY_STREAM_KEEP "10000" /* MAXLEN ~ of the stream: entries, of up to 16 events each */
#define RELAY_BEAT_MS     1000    /* a following node says so at least this often */
#define RELAY_GONE_MS     3000    /* one that has not said so for this long is not waited for */
#define RELAY_ID_MAX      48      /* a stream entry's ID, "MS-SEQ" */
#define RELAY_SHARDS_MAX  64
#define RELAY_AUDIENCES                                                                            \
    16 /* audiences named by reference, kept by each side (relay_audience.c)                       \
        */
#define RELAY_AUDIENCE_TTL_MS "10000" /* how long a key of one lives in Redis */

/* An audience this node put under a key, and names by its reference for a while. */
struct relay_audience_sent {
    struct idset *to; /* one reference: its address is the audience's while it is held */
    uint64_t ref;
    int64_t at_ms;
};

/* Another node's audience read from its key, or being read (to NULL, events waiting). */
struct relay_audience_kept {
    char node[17];
    uint64_t ref;
    struct idset *to;
    uint64_t used;
    int64_t used_ms;
    struct relay_audience_wait *waiting, **waiting_end;
};

struct relay_shard {
    struct redis_url url;
    int index;          /* the shard's place in PRACA_REDIS_STREAMS */
    char node[17];      /* this node's name in the stream: random at each start */
    char stream[80];    /* praca:LOG_NAME:events, and ":INDEX" after shard 0 */
    char following[80]; /* praca:LOG_NAME:following[:INDEX]: node → when it last said so */
    char applied[80];   /* praca:LOG_NAME:applied[:INDEX]: node → the last entry it applied */
    struct bus *bus;
    relay_change_fn on_change;
    void *change_user;
    struct bus_relay_voice voice; /* apply is NULL when voice is not shared, and after shard 0 */
    char voice_prefix[64];        /* praca:LOG_NAME:voice: */
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
    int64_t unreachable_logged_ms;
    size_t audience_ref_min; /* a logged event's audience this large goes by reference */
    struct relay_audience_sent sent[RELAY_AUDIENCES]; /* under lock */
    uint64_t audience_refs;                           /* the last reference given */
    int audiences_lost;    /* an entry was not appended: each audience is put under a key again */
    int audience_keys_off; /* failure tests: audiences are named, never put under their keys */
    /* The following side (the loop's thread). */
    uv_loop_t *loop;
    redisAsyncContext *in;         /* NULL between attempts */
    struct redis_replies *replies; /* where in's replies are built (bus__shard_free frees it) */
    uv_timer_t tick;               /* watches the connection, whatever state it is in */
    int tick_started;
    int64_t in_since_ms;    /* when the attempt began, or the last answer came */
    int64_t in_retry_at_ms; /* with no connection: when to try again */
    int in_doomed;          /* the connection is to be dropped at the next tick */
    int64_t beat_ms;        /* when this node last said it follows */
    int pause_ms;           /* failure tests: a wait before each XREAD */
    int loading;            /* other nodes' voice hashes still being read before the first XREAD */
    int64_t gone_checked_ms;
    uv_timer_t pause;
    char last_id[64];     /* the last entry read; "" until the newest at start is known */
    int64_t read_sent_ms; /* when the last XREAD was sent */
    int read_full;        /* it brought READ_COUNT entries: this node is behind */
    int lost;             /* not following since a connection dropped or failed */
    int stopping;
    struct relay_audience_kept kept[RELAY_AUDIENCES];
    uint64_t kept_tick;
};

/* relay_out.c: a shard's stream and its writing thread; what the relay.h functions of the same
 * names do, for this shard. */
struct relay_shard *bus__shard_new(const char *url, int index, const char *log_name,
                                   const char *node, struct bus *bus, relay_change_fn on_change,
                                   void *change_user);
void bus__shard_event(struct relay_shard *r, const struct bus_event *ev);
void bus__shard_change(struct relay_shard *r, const char *what);
void bus__shard_settle(struct relay_shard *r, const struct timespec *until);
/* Bytes queued for out_thread, not yet taken. */
size_t bus__shard_queued_bytes(struct relay_shard *r);
void bus__shard_voice(struct relay_shard *r, const char *owner, const char *key, const char *text,
                      int removed);
void bus__shard_free(struct relay_shard *r);
/* relay_in.c: following a shard's stream on the loop. */
int bus__shard_follow(struct relay_shard *r, uv_loop_t *loop);
void bus__shard_stop(struct relay_shard *r);
/* relay_in.c: reads the stream once nothing is loading and the point to read from is known. */
void bus__shard_in_ready(struct relay_shard *r);
/* relay_voice.c, on the loop's thread: the other live nodes' voice sessions loaded afresh
 * (r->loading counts the answers still due; bus__shard_in_ready follows the last), and the nodes
 * that stopped following dropped. Both do nothing unless voice is shared. */
void bus__voice_load(struct relay_shard *r);
void bus__voice_check_gone(struct relay_shard *r);
/* relay_audience.c. The writing side, any thread: 0 when ev's audience goes in full, else the
 * reference to name it by, *define set when it must first be put under its key. */
uint64_t bus__audience_out(struct relay_shard *r, const struct bus_event *ev, int *define);
/* The following side, on the loop: the audience another node named by reference, one reference
 * for the caller to publish its event with; else NULL, the event waiting for the key to be read
 * (published then) or dropped for the event log to bring. */
struct idset *bus__audience_in(struct relay_shard *r, const char *node, uint64_t ref,
                               const char *name, const char *payload, size_t len, uint64_t position,
                               const struct bus_where *where);
/* Both sides' audiences let go, when the shard is freed. */
void bus__audiences_free(struct relay_shard *r);

#endif
