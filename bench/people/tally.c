// What the simulator counts with: latencies in a log histogram (2% wide buckets, so a
// percentile is within 2% whatever the run's length) and growable bit sets of the messages
// each person received.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "people.h"

const char *const timed_names[T_COUNT] = {
    "switch", "scroll", "members", "unread", "send",   "react",  "reconnect", "search",
    "edit",   "idle",   "history", "mark",   "typing", "ticket", "signIn",    "delivery",
};

static const double STEP = 1.02;

void hist_add(struct hist *h, int64_t us)
{
    int b = us <= 1 ? 0 : (int)(log((double)us) / log(STEP));
    h->b[b < HIST_BUCKETS ? b : HIST_BUCKETS - 1]++;
    h->n++;
}

// The p-th fraction's upper bucket edge, in ms (p = 1: the largest).
double hist_pct_ms(const struct hist *h, double p)
{
    if (!h->n)
        return 0;
    uint64_t want = (uint64_t)ceil(p * (double)h->n), seen = 0;
    if (!want)
        want = 1;
    for (int b = 0; b < HIST_BUCKETS; b++) {
        seen += h->b[b];
        if (seen >= want)
            return pow(STEP, b + 1) / 1000.0;
    }
    return pow(STEP, HIST_BUCKETS) / 1000.0;
}

bool bits_set(struct bits *s, uint32_t i)
{
    size_t byte = i / 8;
    if (byte >= s->cap) {
        size_t cap = s->cap ? s->cap : 64;
        while (cap <= byte)
            cap *= 2;
        s->b = realloc(s->b, cap);
        if (!s->b)
            die("realloc");
        memset(s->b + s->cap, 0, cap - s->cap);
        s->cap = cap;
    }
    bool was = s->b[byte] >> (i % 8) & 1;
    s->b[byte] |= (uint8_t)(1u << (i % 8));
    return was;
}

bool bits_has(const struct bits *s, uint32_t i)
{
    return i / 8 < s->cap && (s->b[i / 8] >> (i % 8) & 1);
}
