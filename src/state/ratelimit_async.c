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
#include "state/ratelimit_shared.h"

#define TICK_MS 50
#define STR_(x) #x
#define STR(x)  STR_(x)

/* One take on its way: the script's arguments are kept for a Redis that lost the script
 * (restarted), which hears them again with the script's text. Oldest first. */
struct ask {
    struct ratelimit_async *owner;
    struct ratelimit_taken *out;
    void (*done)(void *arg);
    void *arg;
    int64_t sent_ms;
    int resent;
    struct ask *prev, *next;
    char key[RATELIMIT_KEY_MAX];
    char window_key[RATELIMIT_KEY_MAX + 16];
    char now[24], window[24], limit[16];
    char member[RATELIMIT_MEMBER_MAX];
};

struct ratelimit_async {
    uv_loop_t *loop;
    uv_timer_t tick;
    struct redis_url url;
    _Atomic int64_t *quiet_until;
    redisAsyncContext *ac;
    struct redis_replies *replies; /* where ac's replies are built; NULL: by hiredis */
    int64_t connect_ms;            /* when the connection was asked for */
    int doomed;                    /* connected to itself: dropped at the next tick */
    char sha[41];                  /* the script's digest, worked out here */
    struct ask *oldest, *newest;
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

static void finish(struct ask *k)
{
    unlink_ask(k->owner, k);
    void (*done)(void *) = k->done;
    void *arg = k->arg;
    free(k);
    done(arg);
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
        redisAsyncFree(ac); /* each waiting take hears NULL */
}

static void send_ask(struct ratelimit_async *a, struct ask *k);

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
    if (wait >= 0) {
        out->wait = wait;
        memcpy(out->key, k->key, sizeof out->key);
        if (wait == 0) /* recorded: given back should the handler not use it */
            memcpy(out->member, k->member, sizeof out->member);
    } else if (r) {
        log_error("limits: Redis answered %s", r->str ? r->str : "?");
    }
    finish(k);
}

static void send_ask(struct ratelimit_async *a, struct ask *k)
{
    const char *argv[] = {k->resent ? "EVAL" : "EVALSHA",
                          k->resent ? STATE__RATELIMIT_SCRIPT : a->sha,
                          "1",
                          k->window_key,
                          k->now,
                          k->window,
                          k->limit,
                          "1"};
    if (redisAsyncCommandArgv(a->ac, on_reply, k, (int)(sizeof argv / sizeof *argv), argv, NULL) !=
        REDIS_OK)
        finish(k); /* nothing counted */
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
                                                   _Atomic int64_t *quiet_until)
{
    struct ratelimit_async *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->loop = loop;
    a->url = *url;
    a->quiet_until = quiet_until;
    a->replies = redis_replies_new();
    unsigned char digest[20];
    crypto_sha1(STATE__RATELIMIT_SCRIPT, strlen(STATE__RATELIMIT_SCRIPT), digest);
    crypto_hex(digest, sizeof digest, a->sha);
    uv_timer_init(loop, &a->tick);
    a->tick.data = a;
    return a;
}

static void on_closed(uv_handle_t *h)
{
    struct ratelimit_async *a = h->data;
    redis_replies_free(a->replies); /* the connection went before */
    free(a);
}

void state__ratelimit_async_close(struct ratelimit_async *a)
{
    if (!a)
        return;
    redisAsyncContext *ac = a->ac;
    a->ac = NULL;
    if (ac)
        redisAsyncFree(ac);
    uv_close((uv_handle_t *)&a->tick, on_closed);
}

int state__ratelimit_async_take(struct ratelimit_async *a, const char *key, uint32_t limit,
                                int64_t window_ms, int64_t now, struct ratelimit_taken *out,
                                void (*done)(void *arg), void *arg)
{
    if (!a->ac && connect_now(a))
        return -1;
    struct ask *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    *k = (struct ask){.owner = a, .out = out, .done = done, .arg = arg};
    k->sent_ms = clock_mono_ms();
    snprintf(k->key, sizeof k->key, "%s", key);
    state__ratelimit_key(k->window_key, key);
    snprintf(k->now, sizeof k->now, "%lld", (long long)now);
    snprintf(k->window, sizeof k->window, "%lld", (long long)window_ms);
    snprintf(k->limit, sizeof k->limit, "%u", limit);
    state__ratelimit_member(k->member, now);
    k->prev = a->newest;
    if (a->newest)
        a->newest->next = k;
    else
        a->oldest = k;
    a->newest = k;
    if (!uv_is_active((uv_handle_t *)&a->tick))
        uv_timer_start(&a->tick, on_tick, TICK_MS, TICK_MS);
    send_ask(a, k);
    return 0;
}
