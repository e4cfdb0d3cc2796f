/*
 * A pace: at most per_s events a second, a second's worth of them at once (a token bucket).
 * The gateway admits new sessions through one, so that a restart's reconnecting pages come in
 * at a rate the node keeps up with, the others waiting for their next try.
 */
#ifndef PRACA_CORE_PACE_H
#define PRACA_CORE_PACE_H
#include <stdint.h>

struct pace {
    double per_s;  /* <= 0: no limit */
    double tokens; /* what may go now */
    int64_t at_ms; /* when tokens was last brought up to date (0: never) */
};

/* 1 when one more may go at now_ms (taking its token), 0 when it has to wait. */
int pace_take(struct pace *p, int64_t now_ms);

#endif
