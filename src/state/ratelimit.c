/* Shared limiter: see ratelimit.h. A chained hash table; idle entries are swept now and then. */
#include "state/ratelimit.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/crypto.h"
#include "domain/ratewindow.h"
#include "state/ratelimit_async.h"
#include "state/ratelimit_lease.h"
#include "state/ratelimit_shared.h"

#define BUCKETS     4096
#define SWEEP_EVERY 4096
#define KEY_MAX     RATELIMIT_KEY_MAX

struct entry {
    char key[KEY_MAX];
    struct ratewindow win;
    struct entry *next;
};

struct ratelimit {
    pthread_mutex_t lock;
    double scale;
    int shared;
    struct redis_url redis;
    char node[33];                   /* this node's name to Redis, for leases */
    struct ratelimit_leases *leases; /* windows this node holds for a moment */
    _Atomic int64_t quiet_until;     /* monotonic ms: until then Redis is not asked */
    struct ratelimit_async *async;   /* the loop's connection, once attached */
    struct entry *buckets[BUCKETS];
    unsigned ops;
};

struct ratelimit *state_ratelimit_new(double scale)
{
    struct ratelimit *rl = calloc(1, sizeof *rl);
    if (!rl)
        return NULL;
    pthread_mutex_init(&rl->lock, NULL);
    rl->scale = scale > 0 ? scale : 1;
    return rl;
}

int state_ratelimit_share(struct ratelimit *rl, const char *redis_url)
{
    if (redis_url_parse(redis_url, &rl->redis) || !(rl->leases = state__leases_new()))
        return -1;
    crypto_random_hex(rl->node, 16);
    rl->shared = 1;
    return 0;
}

void state_ratelimit_free(struct ratelimit *rl)
{
    if (!rl)
        return;
    for (size_t i = 0; i < BUCKETS; i++) {
        for (struct entry *e = rl->buckets[i], *next; e; e = next) {
            next = e->next;
            rule_ratewindow_cleanup(&e->win);
            free(e);
        }
    }
    state__leases_free(rl->leases);
    pthread_mutex_destroy(&rl->lock);
    free(rl);
}

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211u;
    return h & (BUCKETS - 1);
}

static void sweep(struct ratelimit *rl, int64_t now)
{
    for (size_t i = 0; i < BUCKETS; i++) {
        struct entry **pp = &rl->buckets[i];
        while (*pp) {
            struct entry *e = *pp;
            if (rule_ratewindow_idle(&e->win, now)) {
                *pp = e->next;
                rule_ratewindow_cleanup(&e->win);
                free(e);
            } else {
                pp = &e->next;
            }
        }
    }
}

static uint32_t scaled(const struct ratelimit *rl, uint32_t limit)
{
    double n = (double)limit * rl->scale;
    return n < 1 ? 1 : n > 1e6 ? 1000000 : (uint32_t)n;
}

/* On this node's lease of the window, else asked of Redis unless it failed to answer lately:
 * the wait, or -1 (then quiet for a while). A window leased elsewhere is asked again when the
 * lease ends, as the loop's takes are (ratelimit_async.c). */
static int64_t shared_apply(struct ratelimit *rl, const char *key, uint32_t n, int64_t window_ms,
                            int64_t now, int record, struct ratelimit_status *st,
                            char member[RATELIMIT_MEMBER_MAX])
{
    int64_t mono = clock_mono_ms(), first = mono;
    if (!rl->shared || mono < atomic_load(&rl->quiet_until))
        return -1;
    for (;;) {
        struct ratelimit_taken t = {.st = *st};
        if (state__leases_take(rl->leases, key, n, window_ms, now, mono, record, &t)) {
            st->used = t.st.used;
            st->reset_ms = t.st.reset_ms;
            memcpy(member, t.member, RATELIMIT_MEMBER_MAX);
            return t.wait;
        }
        int64_t wait = state__ratelimit_shared_apply(&rl->redis, rl->node, key, n, window_ms, now,
                                                     record, &st->used, &st->reset_ms, member);
        if (wait >= 0)
            return wait;
        mono = clock_mono_ms();
        if (wait == -1 || mono - first >= 3 * RATELIMIT_LEASE_MS) {
            atomic_store(&rl->quiet_until, mono + RATELIMIT_REDIS_QUIET_MS);
            return -1;
        }
        int64_t ms = wait == RATELIMIT_LEASED_HERE ? 2 : st->reset_ms;
        ms = ms < 1 ? 1 : ms > RATELIMIT_LEASE_MS ? RATELIMIT_LEASE_MS : ms;
        nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000}, NULL);
        now = clock_now_ms();
        mono = clock_mono_ms();
    }
}

/* A take on this node's windows, or on the shared ones when they answer (the local ones stand
 * in when they do not). */
static int64_t apply(struct ratelimit *rl, const char *key, const struct ratelimit_ask *ask,
                     int how, struct ratelimit_status *st)
{
    uint32_t n = scaled(rl, ask->limit);
    int64_t window_ms = ask->window_ms;
    int record = how & RATELIMIT_RECORD;
    int64_t now = clock_now_ms();
    int64_t wait = 0;
    char member[RATELIMIT_MEMBER_MAX];
    *st = (struct ratelimit_status){.limit = n, .used = 0, .reset_ms = 0};
    if (!(how & RATELIMIT_HERE) &&
        (wait = shared_apply(rl, key, n, window_ms, now, record, st, member)) >= 0)
        return wait;
    wait = 0;
    pthread_mutex_lock(&rl->lock);
    if (++rl->ops % SWEEP_EVERY == 0)
        sweep(rl, now);
    size_t b = hash(key);
    struct entry *e = rl->buckets[b];
    while (e && strcmp(e->key, key) != 0)
        e = e->next;
    if (!e && record) {
        e = calloc(1, sizeof *e);
        if (e && rule_ratewindow_init(&e->win, n, window_ms) == 0) {
            snprintf(e->key, sizeof e->key, "%s", key);
            e->next = rl->buckets[b];
            rl->buckets[b] = e;
        } else {
            free(e);
            e = NULL;
        }
    }
    if (e) {
        wait = record ? rule_ratewindow_hit(&e->win, now) : rule_ratewindow_check(&e->win, now);
        st->used = rule_ratewindow_used(&e->win, now, &st->reset_ms);
    }
    pthread_mutex_unlock(&rl->lock);
    return wait;
}

int state_ratelimit_shared(const struct ratelimit *rl)
{
    return rl->shared;
}

int state_ratelimit_attach(struct ratelimit *rl, uv_loop_t *loop)
{
    if (!rl->shared || rl->async)
        return 0;
    return (rl->async = state__ratelimit_async_new(loop, &rl->redis, rl->node, rl->leases,
                                                   &rl->quiet_until))
               ? 0
               : -1;
}

/* Sent and answered at once; the lease goes either way (-1 tells state__leases_due so). */
static int flush_waiting(struct ratelimit_flush *f, void *arg)
{
    struct ratelimit *rl = arg;
    state__ratelimit_shared_flush(&rl->redis, rl->node, f);
    return -1;
}

void state_ratelimit_detach(struct ratelimit *rl)
{
    if (!rl)
        return;
    if (rl->leases && state__leases_count(rl->leases)) {
        /* Stopping: what the leases decided goes to Redis, and the windows back to it now. */
        state__leases_end_all(rl->leases);
        state__leases_due(rl->leases, clock_now_ms(), clock_mono_ms(), flush_waiting, rl);
    }
    state__ratelimit_async_close(rl->async);
    rl->async = NULL;
}

int state_ratelimit_take_async(struct ratelimit *rl, const struct ratelimit_ask *ask,
                               struct ratelimit_taken *out, void (*done)(void *arg), void *arg)
{
    memset(out, 0, sizeof *out);
    if (!rl->async || clock_mono_ms() < atomic_load(&rl->quiet_until))
        return -1;
    char key[KEY_MAX];
    snprintf(key, sizeof key, "%s|%s", ask->action, ask->account);
    out->st.limit = scaled(rl, ask->limit);
    return state__ratelimit_async_take(rl->async, key, out->st.limit, ask->window_ms,
                                       clock_now_ms(), out, done, arg);
}

int64_t state_ratelimit_take(struct ratelimit *rl, const struct ratelimit_ask *ask, int how,
                             struct ratelimit_taken *out)
{
    struct ratelimit_taken none;
    if (!out)
        out = &none;
    memset(out, 0, sizeof *out);
    char key[KEY_MAX];
    snprintf(key, sizeof key, "%s|%s", ask->action, ask->account);
    if (!(how & RATELIMIT_AHEAD))
        return out->wait = apply(rl, key, ask, how, &out->st);
    out->st.limit = scaled(rl, ask->limit);
    out->wait = shared_apply(rl, key, out->st.limit, ask->window_ms, clock_now_ms(), 1, &out->st,
                             out->member);
    if (out->wait < 0)
        return -1;
    memcpy(out->key, key, sizeof key);
    if (out->wait > 0)
        out->member[0] = '\0'; /* refused: nothing recorded to give back */
    return out->wait;
}

int state_ratelimit_taken_for(const struct ratelimit_taken *t, const char *action,
                              const char *account)
{
    size_t a = strlen(action);
    return t->key[0] && strncmp(t->key, action, a) == 0 && t->key[a] == '|' &&
           strcmp(t->key + a + 1, account) == 0;
}

void state_ratelimit_give_back(struct ratelimit *rl, const struct ratelimit_taken *t)
{
    if (rl->shared && t->key[0] && t->member[0] &&
        !state__leases_give_back(rl->leases, t->key, strtoll(t->member, NULL, 10)))
        state__ratelimit_shared_forget(&rl->redis, t->key, t->member);
}
