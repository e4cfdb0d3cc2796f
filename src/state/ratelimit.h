/*
 * Request limits per account and kind of action, shared by all workers (one mutex).
 * Each (action, account) pair has its own exact sliding window (domain/ratewindow.h);
 * the operator's scale multiplies every count.
 */
#ifndef PRACA_STATE_RATELIMIT_H
#define PRACA_STATE_RATELIMIT_H
#include <stdint.h>

struct ratelimit;

struct ratelimit *state_ratelimit_new(double scale);
/* Several nodes: the windows live in Redis at redis_url (state/ratelimit_shared.h), shared by
 * every node; this node's own windows stand in while Redis cannot be reached. 0, or -1 when the
 * URL is not redis://…. Before any request. */
int state_ratelimit_share(struct ratelimit *rl, const char *redis_url);
void state_ratelimit_free(struct ratelimit *rl);
/* Records one action when allowed and returns 0; otherwise the milliseconds to wait. */
int64_t state_ratelimit_hit(struct ratelimit *rl, const char *action, const char *account,
                            uint32_t limit, int64_t window_ms);
/* The wait without recording anything (0 = allowed). */
int64_t state_ratelimit_check(struct ratelimit *rl, const char *action, const char *account,
                              uint32_t limit, int64_t window_ms);

/* A window as the caller may see it: its size after the operator's scale, how much of it is used
 * (after this call), and in how many milliseconds the oldest use leaves it (0: none in it). */
struct ratelimit_status {
    uint32_t limit;
    uint32_t used;
    int64_t reset_ms;
};
/* hit (record) or check, saying the window's status too. */
int64_t state_ratelimit_status(struct ratelimit *rl, const char *action, const char *account,
                               uint32_t limit, int64_t window_ms, int record,
                               struct ratelimit_status *st);

#endif
