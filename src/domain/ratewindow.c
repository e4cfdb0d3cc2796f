/* Sliding window: see ratewindow.h. */
#include "domain/ratewindow.h"

#include <stdlib.h>

int rule_ratewindow_init(struct ratewindow *w, uint32_t limit, int64_t window_ms)
{
    w->limit = limit ? limit : 1;
    w->times = calloc(w->limit, sizeof *w->times);
    w->count = 0;
    w->head = 0;
    w->window_ms = window_ms;
    return w->times ? 0 : -1;
}

void rule_ratewindow_cleanup(struct ratewindow *w)
{
    free(w->times);
    w->times = NULL;
}

static void expire(struct ratewindow *w, int64_t now)
{
    while (w->count && w->times[w->head] <= now - w->window_ms) {
        w->head = (w->head + 1) % w->limit;
        w->count--;
    }
}

int64_t rule_ratewindow_check(struct ratewindow *w, int64_t now)
{
    expire(w, now);
    if (w->count < w->limit)
        return 0;
    int64_t wait = w->times[w->head] + w->window_ms - now;
    return wait > 0 ? wait : 1;
}

int64_t rule_ratewindow_hit(struct ratewindow *w, int64_t now)
{
    int64_t wait = rule_ratewindow_check(w, now);
    if (wait)
        return wait;
    w->times[(w->head + w->count) % w->limit] = now;
    w->count++;
    return 0;
}

uint32_t rule_ratewindow_used(struct ratewindow *w, int64_t now, int64_t *reset_ms)
{
    expire(w, now);
    *reset_ms = w->count ? w->times[w->head] + w->window_ms - now : 0;
    return w->count;
}

int rule_ratewindow_idle(const struct ratewindow *w, int64_t now)
{
    if (!w->count)
        return 1;
    uint32_t newest = (w->head + w->count - 1) % w->limit;
    return w->times[newest] <= now - w->window_ms;
}
