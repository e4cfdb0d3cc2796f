/* Leased windows: see ratelimit_lease.h. A chained hash table; each lease keeps its window as a
 * growing ring of times, and the uses Redis has not seen yet apart. */
#include "state/ratelimit_lease.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/ratelimit_shared.h"

#define BUCKETS 1024

struct lease {
    char key[RATELIMIT_KEY_MAX];
    int64_t window_ms;
    int64_t *times; /* ring: the window's uses, oldest at head */
    uint32_t cap, head, count;
    int64_t *pending; /* decided here, not flushed yet */
    uint32_t npending, pending_cap;
    int64_t until, flush_at; /* monotonic */
    int flushing, ended;
    struct lease *next;
};

struct ratelimit_leases {
    pthread_mutex_t lock;
    size_t count;
    struct lease *buckets[BUCKETS];
};

struct ratelimit_leases *state__leases_new(void)
{
    struct ratelimit_leases *t = calloc(1, sizeof *t);
    if (t)
        pthread_mutex_init(&t->lock, NULL);
    return t;
}

static void lease_free(struct lease *e)
{
    free(e->times);
    free(e->pending);
    free(e);
}

static void clear(struct ratelimit_leases *t)
{
    for (size_t i = 0; i < BUCKETS; i++) {
        for (struct lease *e = t->buckets[i], *next; e; e = next) {
            next = e->next;
            lease_free(e);
        }
        t->buckets[i] = NULL;
    }
    t->count = 0;
}

void state__leases_free(struct ratelimit_leases *t)
{
    if (!t)
        return;
    clear(t);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static struct lease **slot(struct ratelimit_leases *t, const char *key)
{
    size_t h = 1469598103934665603u;
    for (const char *s = key; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    struct lease **pp = &t->buckets[h & (BUCKETS - 1)];
    while (*pp && strcmp((*pp)->key, key))
        pp = &(*pp)->next;
    return pp;
}

static void unlink_lease(struct ratelimit_leases *t, struct lease **pp)
{
    struct lease *e = *pp;
    *pp = e->next;
    lease_free(e);
    t->count--;
}

static int64_t oldest(const struct lease *e)
{
    return e->times[e->head];
}

static void expire(struct lease *e, int64_t now)
{
    while (e->count && oldest(e) <= now - e->window_ms) {
        e->head = (e->head + 1) % e->cap;
        e->count--;
    }
}

/* Room for one more time in the ring (never beyond RATELIMIT_LEASE_USES): 0, or -1. */
static int make_room(struct lease *e)
{
    if (e->count < e->cap)
        return 0;
    uint32_t cap = e->cap ? e->cap * 2 : 16;
    if (cap > RATELIMIT_LEASE_USES)
        cap = RATELIMIT_LEASE_USES;
    if (cap <= e->count)
        return -1;
    int64_t *times = malloc(cap * sizeof *times);
    if (!times)
        return -1;
    for (uint32_t i = 0; i < e->count; i++)
        times[i] = e->times[(e->head + i) % e->cap];
    free(e->times);
    e->times = times;
    e->cap = cap;
    e->head = 0;
    return 0;
}

static int add_pending(struct lease *e, int64_t at)
{
    if (e->npending == e->pending_cap) {
        uint32_t cap = e->pending_cap ? e->pending_cap * 2 : 16;
        int64_t *p = cap <= RATELIMIT_FLUSH_USES ? realloc(e->pending, cap * sizeof *p) : NULL;
        if (!p)
            return -1;
        e->pending = p;
        e->pending_cap = cap;
    }
    e->pending[e->npending++] = at;
    return 0;
}

int state__leases_take(struct ratelimit_leases *t, const char *key, uint32_t limit,
                       int64_t window_ms, int64_t now, int64_t mono, int record,
                       struct ratelimit_taken *out)
{
    pthread_mutex_lock(&t->lock);
    struct lease *e = *slot(t, key);
    int held = e && !e->ended && mono < e->until && e->window_ms == window_ms;
    if (held) {
        expire(e, now);
        int64_t wait = 0;
        if (e->count >= limit) {
            wait = oldest(e) + window_ms - now;
            wait = wait > 0 ? wait : 1;
        } else if (record && (make_room(e) || add_pending(e, now))) {
            held = 0, e->ended = 1; /* full: the window goes back to Redis */
        } else if (record) {
            e->times[(e->head + e->count++) % e->cap] = now;
        }
        if (held) {
            snprintf(out->key, sizeof out->key, "%s", key);
            out->member[0] = '\0';
            if (record && !wait)
                state__ratelimit_member(out->member, now);
            out->wait = wait;
            out->st.used = e->count;
            out->st.reset_ms = e->count ? oldest(e) + window_ms - now : 0;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return held;
}

int state__leases_grant(struct ratelimit_leases *t, const char *key, int64_t window_ms,
                        const int64_t *times, size_t n, int64_t asked_mono)
{
    if (n > RATELIMIT_LEASE_USES || strlen(key) >= RATELIMIT_KEY_MAX)
        return -1;
    struct lease *e = calloc(1, sizeof *e);
    uint32_t cap = 16;
    while (cap < n)
        cap *= 2;
    if (e)
        e->times = malloc(cap * sizeof *e->times);
    if (!e || !e->times) {
        if (e)
            lease_free(e);
        return -1;
    }
    memcpy(e->key, key, strlen(key) + 1);
    memcpy(e->times, times, n * sizeof *times);
    e->cap = cap;
    e->count = (uint32_t)n;
    e->window_ms = window_ms;
    e->until = asked_mono + RATELIMIT_LEASE_MS - RATELIMIT_LEASE_SAFE_MS;
    e->flush_at = asked_mono + RATELIMIT_FLUSH_MS;
    pthread_mutex_lock(&t->lock);
    struct lease **pp = slot(t, key);
    if (*pp) {
        lease_free(e); /* one already: Redis gives a lease once until it ends */
    } else {
        *pp = e;
        t->count++;
    }
    pthread_mutex_unlock(&t->lock);
    return 0;
}

/* The flush of e's pending uses (the last when e ended). NULL when out of memory. */
static struct ratelimit_flush *flush_of(struct lease *e, int64_t now, int64_t mono)
{
    struct ratelimit_flush *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    expire(e, now);
    memcpy(f->key, e->key, sizeof f->key);
    f->window_ms = e->window_ms;
    f->uses = e->pending;
    f->n = e->npending;
    f->kept = e->count;
    f->last = e->ended;
    f->sent_mono = mono;
    e->pending = NULL;
    e->npending = e->pending_cap = 0;
    e->flushing = 1;
    return f;
}

void state__leases_due(struct ratelimit_leases *t, int64_t now, int64_t mono,
                       int (*send)(struct ratelimit_flush *f, void *arg), void *arg)
{
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < BUCKETS; i++) {
        struct lease **pp = &t->buckets[i];
        while (*pp) {
            struct lease *e = *pp;
            if (!e->flushing && !e->ended && mono >= e->until)
                e->ended =
                    1; /* used up: it is given up with what it decided since its last flush */
            if (e->flushing || (!e->ended && (!e->npending || mono < e->flush_at))) {
                pp = &e->next;
                continue;
            }
            if (e->ended && !e->npending && mono >= e->until + RATELIMIT_LEASE_SAFE_MS) {
                unlink_lease(t, pp); /* nothing to hand over, and Redis has ended it already */
                continue;
            }
            struct ratelimit_flush *f = flush_of(e, now, mono);
            if (!f || send(f, arg)) {
                state__leases_flush_free(f);
                unlink_lease(t, pp); /* its uses are lost; Redis ends the lease by itself */
                continue;
            }
            pp = &e->next;
        }
    }
    pthread_mutex_unlock(&t->lock);
}

void state__leases_flush_free(struct ratelimit_flush *f)
{
    if (f)
        free(f->uses);
    free(f);
}

void state__leases_flushed(struct ratelimit_leases *t, struct ratelimit_flush *f, int answer)
{
    pthread_mutex_lock(&t->lock);
    struct lease **pp = slot(t, f->key);
    struct lease *e = *pp;
    if (e && e->flushing) {
        e->flushing = 0;
        if (f->last || answer < 0) {
            unlink_lease(t, pp);
        } else if (answer == 1) {
            e->until = f->sent_mono + RATELIMIT_LEASE_MS - RATELIMIT_LEASE_SAFE_MS;
            e->flush_at = f->sent_mono + RATELIMIT_FLUSH_MS;
        } else {
            e->ended = 1; /* another node asked: the last flush goes at the next tick */
        }
    }
    pthread_mutex_unlock(&t->lock);
    state__leases_flush_free(f);
}

int state__leases_give_back(struct ratelimit_leases *t, const char *key, int64_t at)
{
    int here = 0;
    pthread_mutex_lock(&t->lock);
    struct lease *e = *slot(t, key);
    if (e) {
        for (uint32_t i = e->count; i-- > 0;) {
            uint32_t at_i = (e->head + i) % e->cap;
            if (e->times[at_i] != at)
                continue;
            for (uint32_t j = i; j + 1 < e->count; j++) /* later ones move one back */
                e->times[(e->head + j) % e->cap] = e->times[(e->head + j + 1) % e->cap];
            e->count--;
            break;
        }
        for (uint32_t i = e->npending; i-- > 0;) {
            if (e->pending[i] != at)
                continue;
            memmove(&e->pending[i], &e->pending[i + 1], (e->npending - i - 1) * sizeof *e->pending);
            e->npending--;
            here = 1;
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return here;
}

size_t state__leases_count(struct ratelimit_leases *t)
{
    pthread_mutex_lock(&t->lock);
    size_t n = t->count;
    pthread_mutex_unlock(&t->lock);
    return n;
}

void state__leases_end_all(struct ratelimit_leases *t)
{
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < BUCKETS; i++)
        for (struct lease *e = t->buckets[i]; e; e = e->next)
            e->ended = 1;
    pthread_mutex_unlock(&t->lock);
}

void state__leases_clear(struct ratelimit_leases *t)
{
    pthread_mutex_lock(&t->lock);
    clear(t);
    pthread_mutex_unlock(&t->lock);
}
