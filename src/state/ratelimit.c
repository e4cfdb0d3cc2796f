/* Shared limiter: see ratelimit.h. A chained hash table; idle entries are swept now and then. */
#include "state/ratelimit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "domain/ratewindow.h"
#include "state/ratelimit_shared.h"

#define BUCKETS     4096
#define SWEEP_EVERY 4096
#define KEY_MAX     160

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
    if (redis_url_parse(redis_url, &rl->redis))
        return -1;
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

static int64_t apply(struct ratelimit *rl, const char *action, const char *account, uint32_t limit,
                     int64_t window_ms, int record, struct ratelimit_status *st)
{
    struct ratelimit_status none;
    if (!st)
        st = &none;
    char key[KEY_MAX];
    snprintf(key, sizeof key, "%s|%s", action, account);
    double scaled = (double)limit * rl->scale;
    uint32_t n = scaled < 1 ? 1 : scaled > 1e6 ? 1000000 : (uint32_t)scaled;
    int64_t now = clock_now_ms();
    int64_t wait = 0;
    *st = (struct ratelimit_status){.limit = n, .used = 0, .reset_ms = 0};
    if (rl->shared && (wait = state__ratelimit_shared_apply(&rl->redis, key, n, window_ms, now,
                                                            record, &st->used, &st->reset_ms)) >= 0)
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
            memcpy(e->key, key, sizeof key);
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

int64_t state_ratelimit_hit(struct ratelimit *rl, const char *action, const char *account,
                            uint32_t limit, int64_t window_ms)
{
    return apply(rl, action, account, limit, window_ms, 1, NULL);
}

int64_t state_ratelimit_check(struct ratelimit *rl, const char *action, const char *account,
                              uint32_t limit, int64_t window_ms)
{
    return apply(rl, action, account, limit, window_ms, 0, NULL);
}

int64_t state_ratelimit_status(struct ratelimit *rl, const char *action, const char *account,
                               uint32_t limit, int64_t window_ms, int record,
                               struct ratelimit_status *st)
{
    return apply(rl, action, account, limit, window_ms, record, st);
}
