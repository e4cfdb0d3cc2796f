/* The following side of the relay (relay.h): XREAD on the loop, the other nodes' entries
 * applied and published here. */
#include <stdlib.h>
#include <string.h>

#include "bus/relay_entry.h"
#include "bus/relay_private.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/idset.h"
#include "core/log.h"
#include "core/redis_uv.h"

#define BLOCK_MS      "1000" /* an XREAD's longest wait; the next one follows at once */
#define READ_COUNT    512
#define GATHER_MS     1 /* between reads while entries keep coming: see read_again */
#define RETRY_MS      500
#define CONNECT_MS    1000 /* a connection not made by then is dropped and tried again */
#define QUIET_MS      3000 /* no answer for this long, with XREADs waiting BLOCK_MS: dropped */
#define TICK_MS       250
#define GONE_CHECK_MS 2000 /* how often the nodes that stopped following are looked for */
#define LATE_MS       1250 /* between two XREADs, past BLOCK_MS: this node was held up */
#define STR_(x)       #x
#define STR(x)        STR_(x)

static const char *text(const redisReply *fields, const char *name)
{
    const redisReply *v = bus__entry_field(fields, name);
    return v && v->type == REDIS_REPLY_STRING ? v->str : NULL;
}

struct publishing {
    struct relay_shard *r;
    const char *node;
};

/* One event from another node, published here. */
static void publish(void *arg, const struct relay_event_fields *f)
{
    struct publishing *p = arg;
    const redisReply *name = f->name, *position = f->position, *payload = f->payload, *ids = f->ids;
    if (!name || name->type != REDIS_REPLY_STRING || !position ||
        position->type != REDIS_REPLY_STRING || !ids || ids->type != REDIS_REPLY_STRING ||
        !payload || payload->type != REDIS_REPLY_STRING)
        return;
    uint64_t ref = bus__audience_ref(ids->str, ids->len), at = strtoull(position->str, NULL, 10);
    struct bus_where where = bus__entry_where(f);
    struct idset *to = NULL;
    if (ref && !(to = bus__audience_in(p->r, p->node, ref, name->str, payload->str, payload->len,
                                       at, &where)))
        return; /* it waits for its audience to be read, or the event log brings it */
    if (!ref)
        to = bus__audience_parse(ids->str, ids->len);
    char *copy = malloc(payload->len + 1);
    if (!to || !copy) {
        log_error("relay: %s from node %s dropped: no memory", name->str, p->node);
        idset_unref(to);
        free(copy);
        return;
    }
    memcpy(copy, payload->str, payload->len);
    copy[payload->len] = '\0';
    bus__publish_peer(p->r->bus, name->str, copy, payload->len, to, at, &where);
}

/* Returns 1 when the entry was another node's change mark. */
static int apply(struct relay_shard *r, const redisReply *fields)
{
    const char *node = text(fields, "n"), *kind = text(fields, "k");
    if (!node || !kind || !strcmp(node, r->node))
        return 0; /* ours: delivered and applied here already */
    if (!strcmp(kind, "c")) {
        const char *what = text(fields, "s");
        if (what)
            r->on_change(r->change_user, strcmp(what, "*") ? what : NULL);
        return what != NULL;
    }
    if (!strcmp(kind, "v")) {
        const redisReply *v = bus__entry_field(fields, "v");
        const char *removed = text(fields, "x");
        if (r->voice.apply && v && v->type == REDIS_REPLY_STRING && removed)
            r->voice.apply(r->voice.user, v->str, v->len, removed[0] == '1');
        return 0;
    }
    bus__entry_events(fields, kind, publish, &(struct publishing){r, node});
    return 0;
}

static void read_next(struct relay_shard *r);

/* After another node's change mark is applied here, and at least every RELAY_BEAT_MS: this node
 * follows, up to last_id (a node that changed something waits for that: bus_relay_settle). Sent
 * ahead of the next XREAD on the same connection. */
static void tell_applied(struct relay_shard *r, int marks)
{
    int64_t now = clock_mono_ms();
    if (!marks && now - r->beat_ms < RELAY_BEAT_MS)
        return;
    r->beat_ms = now;
    redisAsyncCommand(r->in, NULL, NULL, "HSET %s %s %s", r->applied, r->node, r->last_id);
    redisAsyncCommand(r->in, NULL, NULL, "ZADD %s %lld %s", r->following,
                      (long long)clock_wall_ms(), r->node);
}

static void on_pause(uv_timer_t *t)
{
    struct relay_shard *r = t->data;
    if (r->in && !r->in_doomed && !r->stopping)
        read_next(r);
}

/* The next XREAD after one that brought `got` entries: at once after a wait that ended empty or
 * a full read (a backlog), else after GATHER_MS, so that a busy stream is read in batches rather
 * than an entry or two per round trip (the failure tests' pause replaces it). */
static void read_again(struct relay_shard *r, size_t got)
{
    uint64_t pause = r->pause_ms                   ? (uint64_t)r->pause_ms
                     : got > 0 && got < READ_COUNT ? GATHER_MS
                                                   : 0;
    if (pause)
        uv_timer_start(&r->pause, on_pause, pause, 0);
    else
        read_next(r);
}

/* XREAD's answer: [[stream, [[id, [field, value, …]], …]]], or nil when the wait ended. */
static void on_read(redisAsyncContext *ac, void *reply_, void *arg)
{
    struct relay_shard *r = arg;
    redisReply *reply = reply_;
    (void)ac;
    if (!reply || r->stopping || r->in_doomed)
        return; /* disconnected: on_disconnect takes over */
    r->in_since_ms = clock_mono_ms();
    int marks = 0;
    size_t got = 0;
    if (reply->type == REDIS_REPLY_ERROR) {
        log_error("relay: XREAD failed: %s", reply->str);
    } else if (reply->type == REDIS_REPLY_ARRAY && reply->elements == 1 &&
               reply->element[0]->elements == 2) {
        const redisReply *entries = reply->element[0]->element[1];
        got = entries->elements;
        for (size_t i = 0; i < entries->elements; i++) {
            const redisReply *e = entries->element[i];
            if (e->elements != 2 || e->element[0]->type != REDIS_REPLY_STRING)
                continue;
            slice_copy(slice_from(e->element[0]->str), r->last_id, sizeof r->last_id);
            if (e->element[1]->type == REDIS_REPLY_ARRAY)
                marks |= apply(r, e->element[1]);
        }
    }
    r->read_full = got >= READ_COUNT;
    tell_applied(r, marks);
    read_again(r, got);
}

/* 1 while the stream still holds an entry at or before ARGV[1]: it is trimmed from its oldest
 * end, so then nothing after that entry is gone. */
static const char KEPT_SCRIPT[] = "return #redis.call('XRANGE', KEYS[1], '-', ARGV[1], 'COUNT', 1)";

static void on_kept(redisAsyncContext *ac, void *reply_, void *arg)
{
    struct relay_shard *r = arg;
    redisReply *reply = reply_;
    (void)ac;
    if (!reply || r->stopping || r->in_doomed)
        return;
    if (reply->type == REDIS_REPLY_ERROR) {
        log_error("relay: cannot tell whether entries were trimmed unread: %s", reply->str);
    } else if (reply->type == REDIS_REPLY_INTEGER && reply->integer == 0) {
        /* Change marks among them are lost to this node: it drops what it holds, as after a
         * lost connection (the events among them come from the log by their positions). */
        log_warn("relay: the stream was trimmed past what this node had read; dropping what it "
                 "holds");
        r->on_change(r->change_user, NULL);
    }
}

static void read_next(struct relay_shard *r)
{
    int64_t now = clock_mono_ms();
    /* A node that fell behind (a full read), or was held up between reads, may have let the
     * stream's cap pass its last entry: asked just before the read, in the same round trip. */
    if (strcmp(r->last_id, "0-0") &&
        (r->read_full || (r->read_sent_ms && now - r->read_sent_ms > LATE_MS)))
        redisAsyncCommand(r->in, on_kept, r, "EVAL %s 1 %s %s", KEPT_SCRIPT, r->stream, r->last_id);
    r->read_sent_ms = now;
    const char *argv[] = {"XREAD",  "COUNT",   STR(READ_COUNT), "BLOCK",
                          BLOCK_MS, "STREAMS", r->stream,       r->last_id};
    redisAsyncCommandArgv(r->in, on_read, r, (int)(sizeof argv / sizeof argv[0]), argv, NULL);
}

/* The stream's newest entry when following starts: what comes after it is for us. (XREAD with
 * "$" would miss what is appended between one wait's end and the next.) */
static void on_newest(redisAsyncContext *ac, void *reply_, void *arg)
{
    struct relay_shard *r = arg;
    redisReply *reply = reply_;
    (void)ac;
    if (!reply || r->stopping || r->in_doomed)
        return;
    r->in_since_ms = clock_mono_ms();
    if (reply->type == REDIS_REPLY_ARRAY && reply->elements == 1 &&
        reply->element[0]->elements == 2 &&
        reply->element[0]->element[0]->type == REDIS_REPLY_STRING)
        slice_copy(slice_from(reply->element[0]->element[0]->str), r->last_id, sizeof r->last_id);
    else
        slice_copy(slice_from("0-0"), r->last_id, sizeof r->last_id);
    tell_applied(r, 1);
    bus__shard_in_ready(r);
}

void bus__shard_in_ready(struct relay_shard *r)
{
    if (!r->loading && r->last_id[0] && r->in && !r->in_doomed && !r->stopping)
        read_next(r);
}

/* No connection until RETRY_MS from now. While this node does not follow, the others' change
 * marks pass it by: what it holds in memory is dropped at each attempt, so it is never staler than
 * RETRY_MS (requests and the events read from the log meanwhile use the database's word). */
static void between_attempts(struct relay_shard *r)
{
    r->in = NULL;
    r->in_doomed = 0;
    r->lost = 1;
    r->in_retry_at_ms = clock_mono_ms() + RETRY_MS;
}

static void on_connect(const redisAsyncContext *ac, int status)
{
    struct relay_shard *r = ac->data;
    r->in_since_ms = clock_mono_ms();
    if (status != REDIS_OK) {
        log_error("relay: cannot follow Redis at %s:%d: %s", r->url.host, r->url.port, ac->errstr);
        between_attempts(r); /* hiredis frees a context that failed to connect */
    } else if (redis_connected_to_itself(ac->c.fd)) {
        log_error("relay: cannot follow Redis at %s:%d: connected to itself", r->url.host,
                  r->url.port);
        r->in_doomed = 1; /* not freed inside hiredis's own callback */
    } else if (r->lost) {
        /* Marks appended while it was away, by this node or another, may be lost with a Redis
         * that restarted: everyone drops what it holds, this node included. */
        r->lost = 0;
        log_info("relay: following Redis at %s:%d again", r->url.host, r->url.port);
        r->on_change(r->change_user, NULL);
        redisAsyncCommand(r->in, NULL, NULL, "XADD %s MAXLEN ~ %s * n %s k c s *", r->stream,
                          RELAY_STREAM_KEEP, r->node);
    }
    if (status == REDIS_OK && !r->in_doomed)
        r->beat_ms = 0; /* says it follows with its first answer */
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
    struct relay_shard *r = ac->data;
    if (status != REDIS_OK && !r->stopping)
        log_error("relay: lost Redis: %s; following again", ac->errstr);
    if (!r->stopping)
        between_attempts(r);
}

static void start(struct relay_shard *r)
{
    r->in = redisAsyncConnect(r->url.host, r->url.port);
    r->in_since_ms = clock_mono_ms();
    if (!r->in || r->in->err || redis_uv_attach(r->in, r->loop) != REDIS_OK) {
        log_error("relay: cannot follow Redis: %s", r->in ? r->in->errstr : "no memory");
        if (r->in)
            redisAsyncFree(r->in);
        between_attempts(r);
        return;
    }
    r->in->data = r;
    if (r->replies)
        redis_replies_use(r->replies, r->in->c.reader);
    redisAsyncSetConnectCallback(r->in, on_connect);
    redisAsyncSetDisconnectCallback(r->in, on_disconnect);
    if (r->url.password[0])
        redisAsyncCommand(r->in, NULL, NULL, "AUTH %s", r->url.password);
    if (r->url.db)
        redisAsyncCommand(r->in, NULL, NULL, "SELECT %d", r->url.db);
    /* The stream's newest entry, then the other nodes' voice sessions, then their entries after
     * that one (or after the last read, following again after a drop). */
    if (!r->last_id[0])
        redisAsyncCommand(r->in, on_newest, r, "XREVRANGE %s + - COUNT 1", r->stream);
    bus__voice_load(r);
    bus__shard_in_ready(r);
}

/* Drops the connection; its waiting commands hear NULL, which they ignore. */
static void give_up(struct relay_shard *r, const char *why)
{
    log_error("relay: cannot follow Redis at %s:%d: %s", r->url.host, r->url.port, why);
    redisAsyncContext *in = r->in;
    between_attempts(r);
    redisAsyncFree(in); /* on_disconnect, for one that was connected */
}

/* Whatever hiredis reports or fails to report, the connection is never left as it is: hiredis
 * 0.14's libuv adapter drops the poll error of a refused connection (so such a context never
 * hears back), and a Redis that stops answering without closing (a stalled host, a lost network)
 * leaves an XREAD waiting forever. */
static void on_tick(uv_timer_t *t)
{
    struct relay_shard *r = t->data;
    int64_t now = clock_mono_ms();
    if (!r->in) {
        if (now >= r->in_retry_at_ms) {
            r->on_change(r->change_user, NULL);
            start(r);
        }
    } else if (r->in_doomed) {
        give_up(r, "dropped");
    } else if (!(r->in->c.flags & REDIS_CONNECTED) && now - r->in_since_ms >= CONNECT_MS) {
        give_up(r, "no connection after " STR(CONNECT_MS) " ms");
    } else if (now - r->in_since_ms >= QUIET_MS) {
        give_up(r, "no answer in " STR(QUIET_MS) " ms");
    } else if (now - r->gone_checked_ms >= GONE_CHECK_MS) {
        r->gone_checked_ms = now;
        bus__voice_check_gone(r);
    }
}

int bus__shard_follow(struct relay_shard *r, uv_loop_t *loop)
{
    r->loop = loop;
    r->last_id[0] = '\0';
    r->replies = redis_replies_new(); /* NULL: hiredis's own allocation per element */
    uv_timer_init(loop, &r->tick);
    r->tick.data = r;
    r->tick_started = 1;
    uv_timer_start(&r->tick, on_tick, TICK_MS, TICK_MS);
    uv_timer_init(loop, &r->pause);
    r->pause.data = r;
    const char *pause = getenv("PRACA_FAULT_RELAY_READ_PAUSE_MS");
    long long pause_ms = 0;
    if (pause && slice_to_i64(slice_from(pause), 0, 10000, &pause_ms))
        pause_ms = 0;
    r->pause_ms = (int)pause_ms;
    start(r);
    return 0;
}

static void on_timer_closed(uv_handle_t *h)
{
    (void)h;
}

void bus__shard_stop(struct relay_shard *r)
{
    if (!r || !r->loop)
        return;
    r->stopping = 1;
    if (r->in) /* not redisAsyncDisconnect: it waits for an XREAD's answer that may never come */
        redisAsyncFree(r->in);
    r->in = NULL;
    if (r->tick_started) {
        uv_close((uv_handle_t *)&r->tick, on_timer_closed);
        uv_close((uv_handle_t *)&r->pause, on_timer_closed);
    }
}
