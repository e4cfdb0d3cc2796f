/*
 * Request limits per account and kind of action, shared by all workers (one mutex).
 * Each (action, account) pair has its own exact sliding window (domain/ratewindow.h);
 * the operator's scale multiplies every count.
 */
#ifndef PRACA_STATE_RATELIMIT_H
#define PRACA_STATE_RATELIMIT_H
#include <stdint.h>
#include <uv.h>

struct ratelimit;

struct ratelimit *state_ratelimit_new(double scale);
/* Several nodes: the windows live in Redis at redis_url (state/ratelimit_shared.h), shared by
 * every node; this node's own windows stand in while Redis cannot be reached. 0, or -1 when the
 * URL is not redis://…. Before any request. */
int state_ratelimit_share(struct ratelimit *rl, const char *redis_url);
void state_ratelimit_free(struct ratelimit *rl);
/* One count: the window of (action, account), limit uses per window_ms before the operator's
 * scale. */
struct ratelimit_ask {
    const char *action;
    const char *account;
    uint32_t limit;
    int64_t window_ms;
};

/* A window as the caller may see it: its size after the operator's scale, how much of it is used
 * (after this call), and in how many milliseconds the oldest use leaves it (0: none in it). */
struct ratelimit_status {
    uint32_t limit;
    uint32_t used;
    int64_t reset_ms;
};

/* 1 when the windows live in Redis (several nodes), else 0. */
int state_ratelimit_shared(const struct ratelimit *rl);

/*
 * What a take counted. An action counted ahead in the shared windows by a thread that may wait
 * on Redis, for the writer, which may not: the writer uses the answer where it would have
 * counted, and an allowed action it did not do is given back. A shared call waits at most
 * RATELIMIT_REDIS_WAIT_MS; when Redis does not answer in time, this node counts alone for a
 * second (RATELIMIT_REDIS_QUIET_MS) before it asks again.
 */
#define RATELIMIT_KEY_MAX        160
#define RATELIMIT_MEMBER_MAX     64
#define RATELIMIT_REDIS_WAIT_MS  200
#define RATELIMIT_REDIS_QUIET_MS 1000
struct ratelimit_taken {
    char key[RATELIMIT_KEY_MAX];       /* action|account when counted ahead; else "" */
    char member[RATELIMIT_MEMBER_MAX]; /* the use recorded in Redis; "" when refused */
    int64_t wait;                      /* as state_ratelimit_take returns */
    struct ratelimit_status st;
};

/* How a take counts: records the use when allowed, or only looks; HERE on this node's own window
 * whatever the sharing (for a thread that must never wait on the network: the writer); AHEAD
 * only in the shared windows (records), so that the writer can use the answer later. */
enum { RATELIMIT_CHECK = 0, RATELIMIT_RECORD = 1, RATELIMIT_HERE = 2, RATELIMIT_AHEAD = 4 };

/* The one way to count: the milliseconds to wait (0: allowed), or -1 with AHEAD when nothing was
 * counted (the windows are not shared, or Redis did not answer in time). out (may be NULL) gets
 * the window's status, and with AHEAD what to give back. */
int64_t state_ratelimit_take(struct ratelimit *rl, const struct ratelimit_ask *ask, int how,
                             struct ratelimit_taken *out);
/* 1 when t is the answer for (action, account), else 0. */
int state_ratelimit_taken_for(const struct ratelimit_taken *t, const char *action,
                              const char *account);
/* With shared windows: takes may be asked from loop's thread without waiting
 * (state_ratelimit_take_async), through one connection of their own. 0, or -1 when out of
 * memory; does nothing when the windows are not shared. On loop's thread, before any take. */
int state_ratelimit_attach(struct ratelimit *rl, uv_loop_t *loop);
/* Drops that connection (its waiting takes count nothing) and closes its handles, so that the
 * loop can end. On loop's thread; the limits themselves stay usable. */
void state_ratelimit_detach(struct ratelimit *rl);
/* As an AHEAD take, on the attached loop's thread and without waiting: 0 when asked, and
 * then done(arg) runs later on that thread with *out filled (out->key "" when nothing was
 * counted: Redis did not answer in time); -1 when not asked (not attached, or Redis left alone
 * after failing to answer), out->key "". Takes asked in one turn of the loop go to Redis in one
 * write. */
int state_ratelimit_take_async(struct ratelimit *rl, const struct ratelimit_ask *ask,
                               struct ratelimit_taken *out, void (*done)(void *arg), void *arg);
/* Forgets an allowed use that was not made after all (waits on Redis, at most as a take). */
void state_ratelimit_give_back(struct ratelimit *rl, const struct ratelimit_taken *t);

#endif
