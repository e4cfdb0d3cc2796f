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
#include "core/thread_name.h"
#include "bus/relay_entry.h"
#include "bus/relay_private.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"

#define RETRY_MS          500 /* between attempts to append a lost "*" mark alone */
#define CONNECT_EVERY_MS  100 /* between attempts to reach Redis, while entries wait */
#define RELAY_BATCH       512 /* entries appended in one round trip */
#define RELAY_QUEUE_BYTES ((size_t)64 << 20)
/* While commits keep coming (the last append was under BUSY_MS ago), the thread lets GATHER_US
 * pass before taking what is queued, so that one round trip carries several commits' events;
 * a change mark waiting is taken at once, since answers wait for it. */
#define GATHER_US 1000
#define BUSY_MS   2

/* One of an entry's fields; a value without a length is a C string. */
struct field {
    const char *name, *value;
    size_t len;
};

#define ENTRY_HEAD   10 /* XADD stream MAXLEN ~ keep * n node k kind */
#define ENTRY_FIELDS 5
#define ENTRY_ARGS   (ENTRY_HEAD + 2 * ENTRY_FIELDS)

/* Events appended together go as one stream entry of kind "b" holding each one's five fields in
 * turn: Redis then keeps, and the followers read, one entry for many events. */
#define MERGE_MAX   16
#define MERGE_BYTES ((size_t)256 << 10) /* one event larger than this goes alone */

/* An XADD waiting for out_thread: its arguments point into data, which follows it. */
struct relay_entry {
    struct relay_entry *next;
    int argc;
    int is_change;
    int is_event;    /* kind "e", with its five fields */
    uint64_t ticket; /* a change mark's place among this node's marks */
    const char *argv[ENTRY_ARGS];
    size_t lens[ENTRY_ARGS];
    size_t size;
    char data[];
};

/* Any command, its arguments copied. */
static struct relay_entry *entry_of(int argc, const char **argv, const size_t *lens)
{
    size_t total = 0;
    for (int i = 0; i < argc; i++)
        total += lens[i];
    struct relay_entry *e = malloc(sizeof *e + total);
    if (!e)
        return NULL;
    *e = (struct relay_entry){.argc = argc, .size = total};
    char *at = e->data;
    for (int i = 0; i < argc; i++) {
        memcpy(at, argv[i], lens[i]);
        e->argv[i] = at;
        e->lens[i] = lens[i];
        at += lens[i];
    }
    return e;
}

/* An XADD of this node's entry: its kind, then the fields given (at most ENTRY_FIELDS). */
static struct relay_entry *entry_new(struct relay_shard *r, const char *kind, const struct field *f,
                                     size_t n)
{
    const char *argv[ENTRY_ARGS] = {"XADD", r->stream, "MAXLEN", "~", RELAY_STREAM_KEEP,
                                    "*",    "n",       r->node,  "k", kind};
    size_t lens[ENTRY_ARGS];
    int argc = ENTRY_HEAD + 2 * (int)(n < ENTRY_FIELDS ? n : ENTRY_FIELDS);
    for (int i = ENTRY_HEAD; i < argc; i += 2) {
        const struct field *fi = &f[(i - ENTRY_HEAD) / 2];
        argv[i] = fi->name;
        argv[i + 1] = fi->value;
        lens[i + 1] = fi->len ? fi->len : strlen(fi->value);
    }
    for (int i = 0; i < argc; i++)
        if (i < ENTRY_HEAD || (i - ENTRY_HEAD) % 2 == 0)
            lens[i] = strlen(argv[i]);
    struct relay_entry *e = entry_of(argc, argv, lens);
    if (e) {
        e->is_change = kind[0] == 'c';
        e->is_event = kind[0] == 'e' && argc == ENTRY_ARGS;
    }
    return e;
}

/* Queues an entry for out_thread: committing threads never wait on Redis. When the queue is
 * full the entry is dropped, as one Redis refused would be. */
static void enqueue(struct relay_shard *r, struct relay_entry *e, int is_change)
{
    pthread_mutex_lock(&r->lock);
    if (!e || r->queued_bytes + e->size > RELAY_QUEUE_BYTES) {
        r->dropped++;
        r->marks_lost |= is_change;
        free(e);
    } else {
        if (r->tail)
            r->tail->next = e;
        else
            r->head = e;
        r->tail = e;
        r->queued_bytes += e->size;
        if (e->is_change)
            e->ticket = ++r->marks_queued;
        pthread_cond_signal(&r->queued);
    }
    pthread_mutex_unlock(&r->lock);
}

static void append(struct relay_shard *r, const char *kind, const struct field *f, size_t n)
{
    enqueue(r, entry_new(r, kind, f, n), kind[0] == 'c');
}

/* ---- out_thread ---- */

static void free_entries(struct relay_entry *e)
{
    for (struct relay_entry *next; e; e = next) {
        next = e->next;
        free(e);
    }
}

/* The next reply: 1 when the entry went in (its ID into id, when given); a refused one is
 * logged. */
static int appended(struct relay_shard *r, int *broken, char id[RELAY_ID_MAX])
{
    redisReply *reply = NULL;
    if (*broken || redisGetReply(r->out, (void **)&reply) != REDIS_OK) {
        *broken = 1;
        return 0;
    }
    int ok = reply->type != REDIS_REPLY_ERROR;
    if (!ok)
        log_error("relay: an entry was not appended: %s", reply->str);
    else if (id && reply->type == REDIS_REPLY_STRING)
        slice_copy(slice_from(reply->str), id, RELAY_ID_MAX);
    freeReplyObject(reply);
    return ok;
}

/* How many entries from e on go as one stream entry: the events that follow one another, up to
 * MERGE_MAX of them and MERGE_BYTES together; 1 for anything else. */
static int merged_with(const struct relay_entry *e)
{
    int n = 0;
    size_t bytes = 0;
    for (; e && e->is_event && n < MERGE_MAX; e = e->next, n++) {
        if (n && bytes + e->size > MERGE_BYTES)
            break;
        bytes += e->size;
    }
    return n ? n : 1;
}

/* The n events from e on as one XADD of kind "b"; e itself when n is 1. */
static void append_merged(struct relay_shard *r, struct relay_entry *e, int n)
{
    if (n == 1) {
        redisAppendCommandArgv(r->out, e->argc, e->argv, e->lens);
        return;
    }
    enum { OWN = 2 * ENTRY_FIELDS };
    const char *argv[ENTRY_HEAD + MERGE_MAX * OWN];
    size_t lens[ENTRY_HEAD + MERGE_MAX * OWN];
    memcpy(argv, e->argv, ENTRY_HEAD * sizeof *argv);
    memcpy(lens, e->lens, ENTRY_HEAD * sizeof *lens);
    argv[ENTRY_HEAD - 1] = "b";
    int argc = ENTRY_HEAD;
    for (int i = 0; i < n; i++, e = e->next, argc += OWN) {
        memcpy(argv + argc, e->argv + ENTRY_HEAD, OWN * sizeof *argv);
        memcpy(lens + argc, e->lens + ENTRY_HEAD, OWN * sizeof *lens);
    }
    redisAppendCommandArgv(r->out, argc, argv, lens);
}

/* Appends the entries in one round trip, after a "*" mark when marks were lost (everyone drops
 * what it holds: a lost mark may have mattered). Counts what Redis refused; -1 when the
 * connection broke (it is closed, and nothing is counted: the caller may send them again). */
static int send_entries(struct relay_shard *r, struct relay_entry *list, unsigned long *dropped,
                        int *marks_lost, char last_mark[RELAY_ID_MAX])
{
    int mark = *marks_lost, broken = 0;
    if (mark)
        redisAppendCommand(r->out, "XADD %s MAXLEN ~ %s * n %s k c s *", r->stream,
                           RELAY_STREAM_KEEP, r->node);
    for (struct relay_entry *e = list; e;) {
        int n = merged_with(e);
        append_merged(r, e, n);
        while (n--)
            e = e->next;
    }
    if (mark)
        *marks_lost = !appended(r, &broken, NULL);
    for (const struct relay_entry *e = list; e;) {
        int n = merged_with(e);
        int ok = appended(r, &broken, e->is_change ? last_mark : NULL);
        for (; n--; e = e->next)
            if (!ok) {
                ++*dropped;
                *marks_lost |= e->is_change;
            }
    }
    if (broken) {
        log_error("relay: Redis connection lost: %s", r->out->errstr);
        redisFree(r->out);
        r->out = NULL;
    }
    return broken ? -1 : 0;
}

/* Sends the list, once more on a new connection when the one in hand had broken (Redis
 * restarted since the last append, say): an entry appended twice is one the others drop. */
static void send_or_drop(struct relay_shard *r, struct relay_entry *list, unsigned long *dropped,
                         int *marks_lost, char last_mark[RELAY_ID_MAX])
{
    int had = r->out != NULL;
    for (int attempt = 0; attempt < 2; attempt++) {
        int64_t now = clock_mono_ms();
        if (!r->out && !attempt && now < r->retry_at_ms) /* paced, not dropped */
            nanosleep(&(struct timespec){0, (long)(r->retry_at_ms - now) * 1000000L}, NULL);
        if (!r->out) {
            char why[256];
            r->retry_at_ms = clock_mono_ms() + CONNECT_EVERY_MS;
            if (!(r->out = redis_open_quiet(&r->url, 2, why, sizeof why)) &&
                clock_mono_ms() - r->unreachable_logged_ms >= 1000) {
                r->unreachable_logged_ms = clock_mono_ms();
                log_error("relay: Redis at %s:%d cannot be used (%s); the other nodes read this "
                          "node's events from the event log",
                          r->url.host, r->url.port, why);
            }
        }
        unsigned long refused = 0;
        int lost = *marks_lost;
        if (r->out && !send_entries(r, list, &refused, &lost, last_mark)) {
            *dropped += refused;
            *marks_lost = lost;
            return;
        }
        if (!had)
            break; /* a new connection that broke at once: Redis is not there */
    }
    for (const struct relay_entry *e = list; e; e = e->next, ++*dropped)
        *marks_lost |= e->is_change;
}

/* KEYS[1] the following nodes, KEYS[2] what each applied; ARGV[1] the oldest live beat, ARGV[2]
 * this node, ARGV[3] and ARGV[4] an entry ID's two parts. How many live nodes have not applied
 * that entry yet; the nodes gone for a minute are forgotten on the way. */
static const char SETTLE_SCRIPT[] =
    "for _, n in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - 60000)) do "
    "  redis.call('ZREM', KEYS[1], n) redis.call('HDEL', KEYS[2], n) "
    "end "
    "local ms, seq, lagging = tonumber(ARGV[3]), tonumber(ARGV[4]), 0 "
    "for _, n in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '+inf')) do "
    "  if n ~= ARGV[2] then "
    "    local id = redis.call('HGET', KEYS[2], n) or '0-0' "
    "    local dash = string.find(id, '-') or 1 "
    "    local a, b = tonumber(string.sub(id, 1, dash - 1)) or 0, "
    "                 tonumber(string.sub(id, dash + 1)) or 0 "
    "    if a < ms or (a == ms and b < seq) then lagging = lagging + 1 end "
    "  end "
    "end "
    "return lagging";

#define SETTLE_WAIT_MS 400 /* under RELAY_SETTLE_MS: the writer is told before it gives up */

/* Waits until every live node following the stream has applied entry id. */
static void wait_applied(struct relay_shard *r, const char *id)
{
    char ms[24] = "0", oldest[24];
    const char *dash = strchr(id, '-');
    if (!dash || slice_copy((struct slice){id, (size_t)(dash - id)}, ms, sizeof ms))
        return;
    int64_t began = clock_mono_ms();
    for (;;) {
        int64_t now = clock_mono_ms();
        snprintf(oldest, sizeof oldest, "%lld", (long long)(clock_wall_ms() - RELAY_GONE_MS));
        const char *argv[] = {"2", r->following, r->applied, oldest, r->node, ms, dash + 1};
        redisReply *reply = redis_script(r->out, r->settle_sha, SETTLE_SCRIPT, 7, argv, NULL);
        long long lagging = reply && reply->type == REDIS_REPLY_INTEGER ? reply->integer : 0;
        if (!reply || reply->type == REDIS_REPLY_ERROR)
            log_error("relay: which nodes applied a change is unknown: %s",
                      reply ? reply->str : r->out->errstr);
        freeReplyObject(reply);
        if (!lagging)
            return;
        if (now - began >= SETTLE_WAIT_MS) {
            log_error("relay: %lld nodes had not applied a change after %d ms", lagging,
                      SETTLE_WAIT_MS);
            return;
        }
        nanosleep(&(struct timespec){0, 200 * 1000}, NULL);
    }
}

/* The last change mark's ticket in list, or 0. */
static uint64_t last_ticket(const struct relay_entry *list)
{
    uint64_t t = 0;
    for (; list; list = list->next)
        if (list->ticket)
            t = list->ticket;
    return t;
}

/* Takes up to RELAY_BATCH queued entries (the lock is held). */
static struct relay_entry *take(struct relay_shard *r)
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
    struct relay_shard *r = arg;
    thread_name("praca-relay-out");
    unsigned long dropped = 0;
    int64_t logged_at = 0, sent_at = 0;
    uint64_t marks_taken = 0;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        if (!r->head && r->out_stopping)
            break;
        if (!r->head && !r->marks_lost) {
            pthread_cond_wait(&r->queued, &r->lock);
            continue;
        }
        if (!r->head) { /* marks were lost and nothing else comes: "*" alone, in a moment */
            struct timespec until = clock_deadline(RETRY_MS);
            pthread_cond_timedwait(&r->queued, &r->lock, &until);
            if (!r->head && r->out_stopping)
                break;
        }
        if (r->head && !r->out_stopping && r->marks_queued == marks_taken &&
            clock_mono_ms() - sent_at < BUSY_MS) {
            pthread_mutex_unlock(&r->lock);
            nanosleep(&(struct timespec){0, GATHER_US * 1000L}, NULL);
            pthread_mutex_lock(&r->lock);
        }
        struct relay_entry *list = r->head ? take(r) : NULL;
        int marks_lost = r->marks_lost;
        r->marks_lost = 0;
        unsigned long dropped_before = dropped;
        dropped += r->dropped;
        r->dropped = 0;
        pthread_mutex_unlock(&r->lock);
        char last_mark[RELAY_ID_MAX] = "";
        send_or_drop(r, list, &dropped, &marks_lost, last_mark);
        int lost_entries = dropped > dropped_before; /* an audience's key among them, maybe */
        int64_t now = sent_at = clock_mono_ms();
        if (last_mark[0] && r->out)
            wait_applied(r, last_mark);
        uint64_t settled = last_ticket(list);
        if (settled)
            marks_taken = settled;
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
        r->audiences_lost |= lost_entries;
        if (settled) {
            r->marks_settled = settled;
            pthread_cond_broadcast(&r->settled);
        }
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* Shard 0 keeps the names of a deployment with one stream; shard k > 0 adds ":k" to them. */
static void key_name(char *out, size_t cap, const char *log_name, const char *what, int index)
{
    if (index)
        snprintf(out, cap, "praca:%s:%s:%d", log_name, what, index);
    else
        snprintf(out, cap, "praca:%s:%s", log_name, what);
}

struct relay_shard *bus__shard_new(const char *url, int index, const char *log_name,
                                   const char *node, struct bus *bus, relay_change_fn on_change,
                                   void *change_user)
{
    struct relay_shard *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (redis_url_parse(url, &r->url)) {
        log_error("relay: %s is not redis://[:PASSWORD@]HOST[:PORT][/DB]", url);
        free(r);
        return NULL;
    }
    r->index = index;
    snprintf(r->node, sizeof r->node, "%s", node);
    r->bus = bus;
    r->exit_before = getenv("PRACA_FAULT_EXIT_BEFORE_RELAY");
    const char *ref_min = getenv("PRACA_RELAY_AUDIENCE_REF_MIN");
    long long min = 100;
    if (ref_min && slice_to_i64(slice_from(ref_min), 1, 1000000000, &min))
        min = 100;
    r->audience_ref_min = (size_t)min;
    r->audience_keys_off = getenv("PRACA_FAULT_AUDIENCE_KEYS_OFF") != NULL;
    r->on_change = on_change;
    r->change_user = change_user;
    key_name(r->stream, sizeof r->stream, log_name, "events", index);
    key_name(r->following, sizeof r->following, log_name, "following", index);
    key_name(r->applied, sizeof r->applied, log_name, "applied", index);
    snprintf(r->voice_prefix, sizeof r->voice_prefix, "praca:%s:voice:", log_name);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->queued, NULL);
    pthread_cond_init(&r->settled, NULL);
    if (!(r->out = redis_open(&r->url, 2, "relay", "praca does not start"))) {
        bus__shard_free(r);
        return NULL;
    }
    if (pthread_create(&r->out_thread, NULL, out_main, r)) {
        log_error("relay: cannot start its thread");
        bus__shard_free(r);
        return NULL;
    }
    r->out_started = 1;
    log_info("relay: node %s on Redis %s:%d, stream %s", r->node, r->url.host, r->url.port,
             r->stream);
    return r;
}

struct audience_text {
    struct buf buf;
    int failed;
};

static void append_id(const char *id, void *arg)
{
    struct audience_text *t = arg;
    t->failed =
        t->failed || buf_append_str(&t->buf, t->buf.len ? "," : "") || buf_append_str(&t->buf, id);
}

/* SET key ids PX ttl, queued ahead of the entry that names it. */
static void put_audience(struct relay_shard *r, uint64_t ref, const struct buf *ids)
{
    char key[RELAY_AUDIENCE_KEY_MAX];
    bus__audience_key(key, r->stream, r->node, ref);
    const char *argv[] = {"SET", key, ids->data ? ids->data : "", "PX", RELAY_AUDIENCE_TTL_MS};
    size_t lens[] = {3, strlen(key), ids->len, 2, strlen(RELAY_AUDIENCE_TTL_MS)};
    enqueue(r, entry_of(5, argv, lens), 0);
}

void bus__shard_event(struct relay_shard *r, const struct bus_event *ev)
{
    if (r->exit_before && strstr(ev->payload, r->exit_before))
        _exit(137); /* as a kill -9 between the commit and the relay would */
    int define;
    uint64_t ref = bus__audience_out(r, ev, &define);
    struct audience_text to = {.failed = 0};
    buf_init(&to.buf, (size_t)16 << 20);
    if (!ref || define)
        idset_each(ev->to, append_id, &to);
    if (to.failed) {
        log_error("relay: %s's audience is too large to relay", ev->name);
        buf_cleanup(&to.buf);
        return;
    }
    char position[24], named[24], where[BUS_WHERE_TEXT];
    bus_where_text(&ev->where, where);
    snprintf(position, sizeof position, "%llu", (unsigned long long)ev->position);
    snprintf(named, sizeof named, "#%llu", (unsigned long long)ref);
    if (define && !r->audience_keys_off)
        put_audience(r, ref, &to.buf);
    const struct field f[] = {{"t", ev->name, 0},
                              {"o", position, 0},
                              {"p", ev->payload, ev->payload_len},
                              {"r",
                               ref           ? named
                               : to.buf.data ? to.buf.data
                                             : "",
                               0},
                              {"w", where, 0}};
    append(r, "e", f, sizeof f / sizeof f[0]);
    buf_cleanup(&to.buf);
}

void bus__shard_settle(struct relay_shard *r, const struct timespec *until)
{
    pthread_mutex_lock(&r->lock);
    uint64_t mine = r->marks_queued;
    while (r->marks_settled < mine && !r->out_stopping)
        if (pthread_cond_timedwait(&r->settled, &r->lock, until))
            break;
    pthread_mutex_unlock(&r->lock);
}

size_t bus__shard_queued_bytes(struct relay_shard *r)
{
    pthread_mutex_lock(&r->lock);
    size_t n = r->queued_bytes;
    pthread_mutex_unlock(&r->lock);
    return n;
}

void bus__shard_voice(struct relay_shard *r, const char *owner, const char *key, const char *text,
                      int removed)
{
    const struct field f[] = {{"x", removed ? "1" : "0", 0}, {"v", text, 0}};
    append(r, "v", f, 2);
    char hash[128];
    snprintf(hash, sizeof hash, "%s%s", r->voice_prefix, owner);
    const char *argv[] = {removed ? "HDEL" : "HSET", hash, key, text};
    size_t lens[] = {4, strlen(hash), strlen(key), strlen(text)};
    enqueue(r, entry_of(removed ? 3 : 4, argv, lens), 0);
}

void bus__shard_change(struct relay_shard *r, const char *what)
{
    const struct field f[] = {{"s", what ? what : "*", 0}};
    append(r, "c", f, 1);
}

void bus__shard_free(struct relay_shard *r)
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
    if (r->out) { /* the others no longer wait for this node, nor count its voice sessions */
        freeReplyObject(redisCommand(r->out, "ZREM %s %s", r->following, r->node));
        freeReplyObject(redisCommand(r->out, "HDEL %s %s", r->applied, r->node));
        freeReplyObject(redisCommand(r->out, "DEL %s%s", r->voice_prefix, r->node));
    }
    free_entries(r->head);
    bus__audiences_free(r);
    redisFree(r->out);
    redis_replies_free(r->replies); /* its reader went with the following connection */
    pthread_cond_destroy(&r->settled);
    pthread_cond_destroy(&r->queued);
    pthread_mutex_destroy(&r->lock);
    free(r);
}
