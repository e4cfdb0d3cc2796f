/* Shared request limits asked without waiting: see ratelimit_async.h. */
#include "state/ratelimit_async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"
#include "core/redis_replies.h"
#include "core/redis_uv.h"
#include "state/ratelimit_lease.h"
#include "state/ratelimit_shared.h"

#define TICK_MS       50
#define LEASE_TICK_MS 10
/* A take told to wait for another node's lease asks again when it ends; one still unanswered
 * after this long is counted on this node alone. */
#define PARKED_MAX_MS (3 * RATELIMIT_LEASE_MS)
#define STR_(x)       #x
#define STR(x)        STR_(x)

/* One take on its way: the script's arguments are kept for a Redis that lost the script
 * (restarted), which hears them again with the script's text. Oldest first. */
struct ask {
    struct ratelimit_async *owner;
    struct ratelimit_taken *out;
    void (*done)(void *arg);
    void *arg;
    int64_t first_ms, sent_ms, retry_ms;
    int resent;
    struct ask *prev, *next; /* asked, or parked */
    char key[RATELIMIT_KEY_MAX];
    struct ratelimit_keys keys;
    uint32_t limit_n;
    int64_t window_ms;
    char now[24], window[24], limit[16];
    char member[RATELIMIT_MEMBER_MAX];
};

/* A flush on its way, with what it carries, for a Redis that lost the script. */
struct flushing {
    struct ratelimit_async *owner;
    struct ratelimit_flush *f;
    int resent;
};

struct ratelimit_async {
    uv_loop_t *loop;
    uv_timer_t tick, lease_tick;
    struct redis_url url;
    const char *node;
    struct ratelimit_leases *leases;
    _Atomic int64_t *quiet_until;
    redisAsyncContext *ac;
    struct redis_replies *replies; /* where ac's replies are built; NULL: by hiredis */
    int64_t connect_ms;            /* when the connection was asked for */
    int doomed;                    /* connected to itself: dropped at the next tick */
    char sha[41], flush_sha[41];   /* the scripts' digests, worked out here */
    struct ask *oldest, *newest;
    struct ask *parked; /* waiting for another node's lease to end */
    int closing, open_timers;
};

static void unlink_ask(struct ratelimit_async *a, struct ask *k)
{
    if (k->prev)
        k->prev->next = k->next;
    else
        a->oldest = k->next;
    if (k->next)
        k->next->prev = k->prev;
    else
        a->newest = k->prev;
}

/* The take's caller hears its answer; k is already out of every list. */
static void answer(struct ask *k)
{
    void (*done)(void *) = k->done;
    void *arg = k->arg;
    free(k);
    done(arg);
}

static void finish(struct ask *k)
{
    unlink_ask(k->owner, k);
    answer(k);
}

/* Nothing was counted in Redis: the caller counts the use on this node, as when Redis is gone. */
static void answer_uncounted(struct ask *k)
{
    k->out->key[0] = '\0';
    answer(k);
}

/* Parked takes told nothing was counted: Redis is gone, or the node closes. */
static void unpark_all(struct ratelimit_async *a)
{
    while (a->parked) {
        struct ask *k = a->parked;
        a->parked = k->next;
        answer_uncounted(k);
    }
}

/* Nothing answered in time: the waiting takes count here, and Redis is left alone a while. */
static void give_up(struct ratelimit_async *a, const char *why)
{
    log_error("limits: Redis at %s:%d: %s; this node counts alone meanwhile", a->url.host,
              a->url.port, why);
    atomic_store(a->quiet_until, clock_mono_ms() + RATELIMIT_REDIS_QUIET_MS);
    redisAsyncContext *ac = a->ac;
    a->ac = NULL;
    a->doomed = 0;
    if (ac)
        redisAsyncFree(ac); /* each waiting take and flush hears NULL */
    state__leases_clear(a->leases);
    unpark_all(a);
}

static void send_ask(struct ratelimit_async *a, struct ask *k);
static void on_tick(uv_timer_t *t);
static void on_lease_tick(uv_timer_t *t);

static void lease_ticking(struct ratelimit_async *a)
{
    if (!uv_is_active((uv_handle_t *)&a->lease_tick))
        uv_timer_start(&a->lease_tick, on_lease_tick, LEASE_TICK_MS, LEASE_TICK_MS);
}

/* Another node holds the window (or this node's lease is on its way): asked again in ms. */
static void park(struct ratelimit_async *a, struct ask *k, int64_t ms)
{
    unlink_ask(a, k);
    int64_t now = clock_mono_ms();
    if (now - k->first_ms >= PARKED_MAX_MS || a->closing) {
        answer_uncounted(k); /* counted here instead, as when Redis is slow */
        return;
    }
    k->retry_ms = now + (ms < 1 ? 1 : ms > RATELIMIT_LEASE_MS ? RATELIMIT_LEASE_MS : ms);
    k->prev = NULL;
    k->next = a->parked;
    a->parked = k;
    lease_ticking(a);
}

/* The window lent with a use: its times, read from Redis's answer. */
static void take_lease(struct ratelimit_async *a, struct ask *k, const redisReply *times)
{
    if (times->elements > RATELIMIT_LEASE_USES)
        return; /* let it lapse */
    int64_t *t = malloc((times->elements ? times->elements : 1) * sizeof *t);
    if (!t)
        return;
    size_t n = 0;
    for (size_t i = 0; i < times->elements; i++)
        if (times->element[i]->type == REDIS_REPLY_STRING)
            t[n++] = strtoll(times->element[i]->str, NULL, 10);
    if (!state__leases_grant(a->leases, k->key, k->window_ms, t, n, k->sent_ms))
        lease_ticking(a);
    free(t);
}

static void on_reply(redisAsyncContext *ac, void *reply_, void *arg)
{
    (void)ac;
    redisReply *r = reply_;
    struct ask *k = arg;
    struct ratelimit_async *a = k->owner;
    if (r && r->type == REDIS_REPLY_ERROR && !strncmp(r->str, "NOSCRIPT", 8) && !k->resent &&
        a->ac) {
        k->resent = 1; /* Redis restarted and forgot it: once more, with its text */
        send_ask(a, k);
        return;
    }
    struct ratelimit_taken *out = k->out;
    int64_t wait = state__ratelimit_reply(r, &out->st.used, &out->st.reset_ms);
    if (wait == RATELIMIT_LEASED_HERE) {
        if (state__leases_take(a->leases, k->key, k->limit_n, k->window_ms, clock_now_ms(),
                               clock_mono_ms(), 1, out))
            finish(k); /* granted by an answer just before this one */
        else
            park(a, k, 2); /* this node's lease is ending: Redis has the window again soon */
        return;
    }
    if (wait == RATELIMIT_LEASED_ELSEWHERE) {
        park(a, k, out->st.reset_ms);
        return;
    }
    if (wait >= 0) {
        out->wait = wait;
        memcpy(out->key, k->key, sizeof out->key);
        if (wait == 0) /* recorded: given back should the handler not use it */
            memcpy(out->member, k->member, sizeof out->member);
        const redisReply *times = state__ratelimit_reply_lease(r);
        if (times)
            take_lease(a, k, times);
    } else if (r) {
        log_error("limits: Redis answered %s", r->str ? r->str : "?");
    }
    finish(k);
}

static void send_ask(struct ratelimit_async *a, struct ask *k)
{
    const char *argv[] = {k->resent ? "EVAL" : "EVALSHA",
                          k->resent ? STATE__RATELIMIT_SCRIPT : a->sha,
                          "3",
                          k->keys.window,
                          k->keys.lease,
                          k->keys.taker,
                          k->now,
                          k->window,
                          k->limit,
                          "1",
                          a->node,
                          STR(RATELIMIT_LEASE_MS),
                          STR(RATELIMIT_LEASE_USES)};
    if (redisAsyncCommandArgv(a->ac, on_reply, k, (int)(sizeof argv / sizeof *argv), argv, NULL) !=
        REDIS_OK)
        finish(k); /* nothing counted */
}

/* The take joins the newest end of those on their way, watched by the tick, and is sent. */
static void ask_now(struct ratelimit_async *a, struct ask *k)
{
    k->prev = a->newest;
    k->next = NULL;
    if (a->newest)
        a->newest->next = k;
    else
        a->oldest = k;
    a->newest = k;
    if (!uv_is_active((uv_handle_t *)&a->tick))
        uv_timer_start(&a->tick, on_tick, TICK_MS, TICK_MS);
    send_ask(a, k);
}

static int send_flush(struct flushing *fl);

static void on_flushed(redisAsyncContext *ac, void *reply_, void *arg)
{
    (void)ac;
    redisReply *r = reply_;
    struct flushing *fl = arg;
    struct ratelimit_async *a = fl->owner;
    if (r && r->type == REDIS_REPLY_ERROR && !strncmp(r->str, "NOSCRIPT", 8) && !fl->resent &&
        a->ac) {
        fl->resent = 1;
        if (!send_flush(fl))
            return;
        r = NULL;
    }
    int answer = r && r->type == REDIS_REPLY_INTEGER ? (int)r->integer : -1;
    if (r && answer < 0)
        log_error("limits: Redis answered a flush with %s", r->str ? r->str : "?");
    state__leases_flushed(a->leases, fl->f, answer);
    free(fl);
}

/* STATE__RATELIMIT_FLUSH_SCRIPT with the flush's uses: 0, or -1 when not sent. */
static int send_flush(struct flushing *fl)
{
    struct ratelimit_async *a = fl->owner;
    const struct ratelimit_flush *f = fl->f;
    enum { FIXED = 11 };
    const char **argv = malloc((FIXED + f->n) * sizeof *argv);
    char(*uses)[24] = malloc((f->n ? f->n : 1) * sizeof *uses);
    struct ratelimit_keys keys;
    char window[24], kept[16];
    int rc = -1;
    if (argv && uses && a->ac) {
        state__ratelimit_keys(&keys, f->key);
        snprintf(window, sizeof window, "%lld", (long long)f->window_ms);
        snprintf(kept, sizeof kept, "%u", f->kept);
        const char *fixed[FIXED] = {fl->resent ? "EVAL" : "EVALSHA",
                                    fl->resent ? STATE__RATELIMIT_FLUSH_SCRIPT : a->flush_sha,
                                    "3",
                                    keys.window,
                                    keys.lease,
                                    keys.taker,
                                    a->node,
                                    STR(RATELIMIT_LEASE_MS),
                                    window,
                                    kept,
                                    f->last ? "1" : "0"};
        memcpy(argv, fixed, sizeof fixed);
        for (size_t i = 0; i < f->n; i++) {
            snprintf(uses[i], sizeof uses[i], "%lld", (long long)f->uses[i]);
            argv[FIXED + i] = uses[i];
        }
        rc = redisAsyncCommandArgv(a->ac, on_flushed, fl, (int)(FIXED + f->n), argv, NULL) ==
                     REDIS_OK
                 ? 0
                 : -1;
    }
    free(argv);
    free(uses);
    return rc;
}

static int flush_now(struct ratelimit_flush *f, void *arg)
{
    struct ratelimit_async *a = arg;
    struct flushing *fl = malloc(sizeof *fl);
    if (!fl)
        return -1;
    *fl = (struct flushing){.owner = a, .f = f};
    if (send_flush(fl)) {
        free(fl);
        return -1;
    }
    return 0;
}

/* Every LEASE_TICK_MS while leases are held or takes parked: parked takes asked again, and the
 * leases' uses handed to Redis. */
static void on_lease_tick(uv_timer_t *t)
{
    struct ratelimit_async *a = t->data;
    int64_t mono = clock_mono_ms();
    if (!a->ac)
        unpark_all(a); /* no connection to ask again on: counted here, as when Redis is gone */
    for (struct ask **pp = &a->parked; *pp;) {
        struct ask *k = *pp;
        if (k->retry_ms > mono) {
            pp = &k->next;
            continue;
        }
        *pp = k->next;
        k->sent_ms = mono;
        snprintf(k->now, sizeof k->now, "%lld", (long long)clock_now_ms());
        state__ratelimit_member(k->member, strtoll(k->now, NULL, 10));
        ask_now(a, k);
    }
    if (a->ac)
        state__leases_due(a->leases, clock_now_ms(), mono, flush_now, a);
    if (!a->parked && !state__leases_count(a->leases))
        uv_timer_stop(t);
}

static void on_connect(const redisAsyncContext *ac, int status)
{
    struct ratelimit_async *a = ac->data;
    if (status != REDIS_OK) {
        /* hiredis frees a context that failed to connect, after its waiting takes hear NULL */
        log_error("limits: cannot reach Redis at %s:%d: %s; this node counts alone meanwhile",
                  a->url.host, a->url.port, ac->errstr);
        atomic_store(a->quiet_until, clock_mono_ms() + RATELIMIT_REDIS_QUIET_MS);
        a->ac = NULL;
    } else if (redis_connected_to_itself(ac->c.fd)) {
        a->doomed = 1; /* not freed inside hiredis's own callback */
    }
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
    struct ratelimit_async *a = ac->data;
    if (a->ac == ac) {
        if (status != REDIS_OK)
            log_error("limits: lost Redis: %s", ac->errstr);
        a->ac = NULL;
        state__leases_clear(a->leases); /* what they decided since their last flush is lost */
        unpark_all(a);
    }
}

static int connect_now(struct ratelimit_async *a)
{
    redisAsyncContext *ac = redisAsyncConnect(a->url.host, a->url.port);
    if (!ac || ac->err || redis_uv_attach(ac, a->loop) != REDIS_OK) {
        log_error("limits: cannot reach Redis: %s", ac ? ac->errstr : "no memory");
        if (ac)
            redisAsyncFree(ac);
        atomic_store(a->quiet_until, clock_mono_ms() + RATELIMIT_REDIS_QUIET_MS);
        return -1;
    }
    ac->data = a;
    if (a->replies)
        redis_replies_use(a->replies, ac->c.reader);
    redisAsyncSetConnectCallback(ac, on_connect);
    redisAsyncSetDisconnectCallback(ac, on_disconnect);
    if (a->url.password[0])
        redisAsyncCommand(ac, NULL, NULL, "AUTH %s", a->url.password);
    if (a->url.db)
        redisAsyncCommand(ac, NULL, NULL, "SELECT %d", a->url.db);
    a->ac = ac;
    a->connect_ms = clock_mono_ms();
    return 0;
}

/* A Redis that stops answering without closing never calls back: the oldest take's age tells. */
static void on_tick(uv_timer_t *t)
{
    struct ratelimit_async *a = t->data;
    if (a->doomed)
        give_up(a, "connected to itself");
    else if (a->oldest && clock_mono_ms() - a->oldest->sent_ms >= RATELIMIT_REDIS_WAIT_MS)
        give_up(a, "no answer in " STR(RATELIMIT_REDIS_WAIT_MS) " ms");
    if (!a->oldest)
        uv_timer_stop(t);
}

struct ratelimit_async *state__ratelimit_async_new(uv_loop_t *loop, const struct redis_url *url,
                                                   const char *node,
                                                   struct ratelimit_leases *leases,
                                                   _Atomic int64_t *quiet_until)
{
    struct ratelimit_async *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->loop = loop;
    a->url = *url;
    a->node = node;
    a->leases = leases;
    a->quiet_until = quiet_until;
    a->replies = redis_replies_new();
    unsigned char digest[20];
    crypto_sha1(STATE__RATELIMIT_SCRIPT, strlen(STATE__RATELIMIT_SCRIPT), digest);
    crypto_hex(digest, sizeof digest, a->sha);
    crypto_sha1(STATE__RATELIMIT_FLUSH_SCRIPT, strlen(STATE__RATELIMIT_FLUSH_SCRIPT), digest);
    crypto_hex(digest, sizeof digest, a->flush_sha);
    uv_timer_init(loop, &a->tick);
    uv_timer_init(loop, &a->lease_tick);
    a->tick.data = a->lease_tick.data = a;
    return a;
}

static void on_closed(uv_handle_t *h)
{
    struct ratelimit_async *a = h->data;
    if (--a->open_timers)
        return;
    redis_replies_free(a->replies); /* the connection went before */
    free(a);
}

void state__ratelimit_async_close(struct ratelimit_async *a)
{
    if (!a)
        return;
    a->closing = 1;
    a->open_timers = 2;
    redisAsyncContext *ac = a->ac;
    a->ac = NULL;
    if (ac)
        redisAsyncFree(ac);
    state__leases_clear(a->leases);
    unpark_all(a);
    uv_close((uv_handle_t *)&a->tick, on_closed);
    uv_close((uv_handle_t *)&a->lease_tick, on_closed);
}

int state__ratelimit_async_take(struct ratelimit_async *a, const char *key, uint32_t limit,
                                int64_t window_ms, int64_t now, struct ratelimit_taken *out,
                                void (*done)(void *arg), void *arg)
{
    if (state__leases_take(a->leases, key, limit, window_ms, now, clock_mono_ms(), 1, out)) {
        done(arg);
        return 0;
    }
    if (!a->ac && connect_now(a))
        return -1;
    struct ask *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    *k = (struct ask){.owner = a, .out = out, .done = done, .arg = arg};
    k->first_ms = k->sent_ms = clock_mono_ms();
    snprintf(k->key, sizeof k->key, "%s", key);
    state__ratelimit_keys(&k->keys, key);
    k->limit_n = limit;
    k->window_ms = window_ms;
    snprintf(k->now, sizeof k->now, "%lld", (long long)now);
    snprintf(k->window, sizeof k->window, "%lld", (long long)window_ms);
    snprintf(k->limit, sizeof k->limit, "%u", limit);
    state__ratelimit_member(k->member, now);
    ask_now(a, k);
    return 0;
}
