/* A pace: see pace.h. */
#include "core/pace.h"

int pace_take(struct pace *p, int64_t now_ms)
{
    if (p->per_s <= 0)
        return 1;
    if (!p->at_ms) {
        p->tokens = p->per_s; /* a full second's worth to begin with */
        p->at_ms = now_ms;
    } else if (now_ms > p->at_ms) { /* a clock that stepped back gives nothing */
        p->tokens += (double)(now_ms - p->at_ms) * p->per_s / 1000.0;
        if (p->tokens > p->per_s)
            p->tokens = p->per_s;
        p->at_ms = now_ms;
    }
    if (p->tokens < 1)
        return 0;
    p->tokens -= 1;
    return 1;
}
