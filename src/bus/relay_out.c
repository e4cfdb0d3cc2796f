/* The writer's side of the relay (relay.h): entries queued by the committing threads, appended to
 * the stream by a thread of its own on a blocking connection. */
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bus/relay.h"
#include "bus/relay_private.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"

#define RETRY_MS          500 /* between attempts to reach Redis after a failure */
#define RELAY_BATCH       512 /* entries appended in one round trip */
#define RELAY_QUEUE_BYTES ((size_t)64 << 20)

/* One of an entry's fields; a value without a length is a C string. */
struct field {
    const char *name, *value;
    size_t len;
};

#define ENTRY_HEAD   10 /* XADD stream MAXLEN ~ keep * n node k kind */
#define ENTRY_FIELDS 4
#define ENTRY_ARGS   (ENTRY_HEAD + 2 * ENTRY_FIELDS)

/* An XADD waiting for out_thread: its arguments point into data, which follows it. */
struct relay_entry {
    struct relay_entry *next;
    int argc;
    int is_change;
    const char *argv[ENTRY_ARGS];
    size_t lens[ENTRY_ARGS];
    size_t size;
    char data[];
};

static struct relay_entry *entry_new(struct relay *r, const char *kind, const struct field *f,
                                     size_t n)
{
    const char *argv[ENTRY_ARGS] = {"XADD", r->stream, "MAXLEN", "~", RELAY_STREAM_KEEP,
                                    "*",    "n",       r->node,  "k", kind};
    size_t lens[ENTRY_ARGS], total = 0;
    int argc = ENTRY_HEAD + 2 * (int)(n < ENTRY_FIELDS ? n : ENTRY_FIELDS);
    for (int i = ENTRY_HEAD; i < argc; i += 2) {
        const struct field *fi = &f[(i - ENTRY_HEAD) / 2];
        argv[i] = fi->name;
        argv[i + 1] = fi->value;
        lens[i + 1] = fi->len ? fi->len : strlen(fi->value);
    }
    for (int i = 0; i < argc; i++) {
        if (i < ENTRY_HEAD || (i - ENTRY_HEAD) % 2 == 0)
            lens[i] = strlen(argv[i]);
        total += lens[i];
    }
    struct relay_entry *e = malloc(sizeof *e + total);
    if (!e)
        return NULL;
    *e = (struct relay_entry){.argc = argc, .is_change = kind[0] == 'c', .size = total};
    char *at = e->data;
    for (int i = 0; i < argc; i++) {
        memcpy(at, argv[i], lens[i]);
        e->argv[i] = at;
        e->lens[i] = lens[i];
        at += lens[i];
    }
    return e;
}

/* Queues an entry of this node for out_thread: committing threads never wait on Redis. When
 * the queue is full the entry is dropped, as one Redis refused would be. */
static void append(struct relay *r, const char *kind, const struct field *f, size_t n)
{
    struct relay_entry *e = entry_new(r, kind, f, n);
    pthread_mutex_lock(&r->lock);
    if (!e || r->queued_bytes + e->size > RELAY_QUEUE_BYTES) {
        r->dropped++;
        r->marks_lost |= kind[0] == 'c';
        free(e);
    } else {
        if (r->tail)
            r->tail->next = e;
        else
            r->head = e;
        r->tail = e;
        r->queued_bytes += e->size;
        pthread_cond_signal(&r->queued);
    }
    pthread_mutex_unlock(&r->lock);
}

/* ---- out_thread ---- */

static void free_entries(struct relay_entry *e)
{
    for (struct relay_entry *next; e; e = next) {
        next = e->next;
        free(e);
    }
}

/* The next reply: 1 when the entry went in; a refused one is logged. */
static int appended(struct relay *r, int *broken)
{
    redisReply *reply = NULL;
    if (*broken || redisGetReply(r->out, (void **)&reply) != REDIS_OK) {
        *broken = 1;
        return 0;
    }
    int ok = reply->type != REDIS_REPLY_ERROR;
    if (!ok)
        log_error("relay: an entry was not appended: %s", reply->str);
    freeReplyObject(reply);
    return ok;
}

/* Appends the entries in one round trip, after a "*" mark when marks were lost (everyone drops
 * what it holds: a lost mark may have mattered). Counts what did not go in. */
static void send_entries(struct relay *r, struct relay_entry *list, unsigned long *dropped,
                         int *marks_lost)
{
    int mark = *marks_lost, broken = 0;
    if (mark)
        redisAppendCommand(r->out, "XADD %s MAXLEN ~ %s * n %s k c s *", r->stream,
                           RELAY_STREAM_KEEP, r->node);
    for (struct relay_entry *e = list; e; e = e->next)
        redisAppendCommandArgv(r->out, e->argc, e->argv, e->lens);
    if (mark)
        *marks_lost = !appended(r, &broken);
    for (const struct relay_entry *e = list; e; e = e->next)
        if (!appended(r, &broken)) {
            ++*dropped;
            *marks_lost |= e->is_change;
        }
    if (broken) {
        log_error("relay: Redis connection lost: %s", r->out->errstr);
        redisFree(r->out);
        r->out = NULL;
    }
}

/* Takes up to RELAY_BATCH queued entries (the lock is held). */
static struct relay_entry *take(struct relay *r)
{
    struct relay_entry *list = r->head, *last = list;
    size_t bytes = list->size;
    for (int n = 1; last->next && n < RELAY_BATCH; n++) {
        last = last->next;
        bytes += last->size;
    }
    r->head = last->next;
    if (!r->head)
        r->tail = NULL;
    last->next = NULL;
    r->queued_bytes -= bytes;
    return list;
}

static void *out_main(void *arg)
{
    struct relay *r = arg;
    unsigned long dropped = 0;
    int64_t logged_at = 0;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        if (!r->head && r->out_stopping)
            break;
        if (!r->head && !r->marks_lost) {
            pthread_cond_wait(&r->queued, &r->lock);
            continue;
        }
        if (!r->head) { /* marks were lost and nothing else comes: "*" alone, in a moment */
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += RETRY_MS * 1000000L;
            until.tv_sec += until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
            pthread_cond_timedwait(&r->queued, &r->lock, &until);
            if (!r->head && r->out_stopping)
                break;
        }
        struct relay_entry *list = r->head ? take(r) : NULL;
        int marks_lost = r->marks_lost;
        r->marks_lost = 0;
        dropped += r->dropped;
        r->dropped = 0;
        pthread_mutex_unlock(&r->lock);
        int64_t now = clock_now_ms();
        if (!r->out && now >= r->retry_at_ms) {
            r->retry_at_ms = now + RETRY_MS;
            r->out = redis_open(&r->url, 2, "relay",
                                "the other nodes read this node's events from the event log");
        }
        if (r->out)
            send_entries(r, list, &dropped, &marks_lost);
        else
            for (const struct relay_entry *e = list; e; e = e->next, dropped++)
                marks_lost |= e->is_change;
        free_entries(list);
        if (dropped && now - logged_at >= 1000) {
            log_error("relay: %lu entries not appended; the other nodes read those events from "
                      "the event log",
                      dropped);
            dropped = 0;
            logged_at = now;
        }
        pthread_mutex_lock(&r->lock);
        r->marks_lost |= marks_lost;
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

struct relay *relay_new(const char *url, const char *log_name, struct bus *bus,
                        relay_change_fn on_change, void *change_user)
{
    struct relay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->stream, sizeof r->stream, "praca:%s:events", log_name);
    if (redis_url_parse(url, &r->url)) {
        log_error("relay: %s is not redis://[:PASSWORD@]HOST[:PORT][/DB]", url);
        free(r);
        return NULL;
    }
    crypto_random_hex(r->node, (sizeof r->node - 1) / 2);
    r->bus = bus;
    r->exit_before = getenv("PRACA_FAULT_EXIT_BEFORE_RELAY");
    r->on_change = on_change;
    r->change_user = change_user;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->queued, NULL);
    if (!(r->out = redis_open(&r->url, 2, "relay", "praca does not start"))) {
        relay_free(r);
        return NULL;
    }
    if (pthread_create(&r->out_thread, NULL, out_main, r)) {
        log_error("relay: cannot start its thread");
        relay_free(r);
        return NULL;
    }
    r->out_started = 1;
    log_info("relay: node %s on Redis %s:%d, stream %s", r->node, r->url.host, r->url.port,
             r->stream);
    return r;
}

void relay_event(void *relay, const struct bus_event *ev)
{
    struct relay *r = relay;
    if (r->exit_before && strstr(ev->payload, r->exit_before))
        _exit(137); /* as a kill -9 between the commit and the relay would */
    struct buf to;
    buf_init(&to, (size_t)16 << 20);
    size_t n = ev->to ? idset_count(ev->to) : 0;
    for (size_t i = 0; i < n; i++)
        if (buf_append_str(&to, i ? "," : "") || buf_append_str(&to, idset_at(ev->to, i))) {
            log_error("relay: %s's audience is too large to relay", ev->name);
            buf_cleanup(&to);
            return;
        }
    char position[24];
    snprintf(position, sizeof position, "%llu", (unsigned long long)ev->position);
    const struct field f[] = {{"t", ev->name, 0},
                              {"o", position, 0},
                              {"p", ev->payload, ev->payload_len},
                              {"r", to.data ? to.data : "", 0}};
    append(r, "e", f, sizeof f / sizeof f[0]);
    buf_cleanup(&to);
}

void relay_change(struct relay *r, const char *what)
{
    const struct field f[] = {{"s", what ? what : "*", 0}};
    append(r, "c", f, 1);
}

void relay_free(struct relay *r)
{
    if (!r)
        return;
    if (r->out_started) { /* what is queued is appended first, or dropped when it cannot be */
        pthread_mutex_lock(&r->lock);
        r->out_stopping = 1;
        pthread_cond_signal(&r->queued);
        pthread_mutex_unlock(&r->lock);
        pthread_join(r->out_thread, NULL);
    }
    free_entries(r->head);
    redisFree(r->out);
    pthread_cond_destroy(&r->queued);
    pthread_mutex_destroy(&r->lock);
    free(r);
}
