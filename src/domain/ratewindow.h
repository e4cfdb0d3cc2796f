/*
 * A sliding-window limit: at most `limit` events in any `window_ms`, exactly (a log of the
 * last `limit` event times in a ring), with the wait until the next event is allowed.
 * Pure: the caller passes the time, so tests drive it with a fake clock.
 */
#ifndef PRACA_DOMAIN_RATEWINDOW_H
#define PRACA_DOMAIN_RATEWINDOW_H
#include <stdint.h>

struct ratewindow {
    int64_t *times; /* ring of the last `limit` accepted event times (owned) */
    uint32_t limit;
    uint32_t count; /* events in the ring */
    uint32_t head;  /* index of the oldest */
    int64_t window_ms;
};

/* Returns 0, or -1 when out of memory. */
int rule_ratewindow_init(struct ratewindow *w, uint32_t limit, int64_t window_ms);
void rule_ratewindow_cleanup(struct ratewindow *w);
/* Records an event at now when allowed and returns 0; otherwise returns the milliseconds to
 * wait (> 0) and records nothing. */
int64_t rule_ratewindow_hit(struct ratewindow *w, int64_t now);
/* Like hit, but records nothing either way. */
int64_t rule_ratewindow_check(struct ratewindow *w, int64_t now);
/* Events still in the window at now, and in *reset_ms when the oldest of them leaves it (0 when
 * there is none): what a caller has used and when one more is free. */
uint32_t rule_ratewindow_used(struct ratewindow *w, int64_t now, int64_t *reset_ms);
/* 1 when every recorded event has left the window (the entry can be dropped). */
int rule_ratewindow_idle(const struct ratewindow *w, int64_t now);

#endif
