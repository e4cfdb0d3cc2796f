/*
 * The shared request-limit windows asked from the I/O thread without waiting: one connection to
 * Redis on the loop, through hiredis's libuv adapter. Every take asked in one turn of the loop
 * leaves in one write and is answered in one, so Redis reads and writes once per batch rather
 * than once per request, and no thread blocks on it. A take not answered within
 * RATELIMIT_REDIS_WAIT_MS (a stalled Redis, a lost network) drops the connection: its waiting
 * takes are told nothing was counted, and the caller counts on this node alone for
 * RATELIMIT_REDIS_QUIET_MS before asking again.
 */
#ifndef PRACA_STATE_RATELIMIT_ASYNC_H
#define PRACA_STATE_RATELIMIT_ASYNC_H
#include <stdatomic.h>
#include <stdint.h>
#include <uv.h>

#include "core/redis.h"
#include "state/ratelimit.h"

struct ratelimit_async;
struct ratelimit_leases;

/* Opens nothing yet (the first take connects). node names this node to Redis, for leases
 * (ratelimit_lease.h), which are kept in leases. quiet_until is the limits' own: set here when
 * Redis fails to answer. Both outlive the object. NULL when out of memory. */
struct ratelimit_async *state__ratelimit_async_new(uv_loop_t *loop, const struct redis_url *url,
                                                   const char *node,
                                                   struct ratelimit_leases *leases,
                                                   _Atomic int64_t *quiet_until);
/* Drops the connection (its waiting takes are told nothing was counted) and closes the loop's
 * handles; the object is freed once they are closed. On the loop's thread. */
void state__ratelimit_async_close(struct ratelimit_async *a);
/* Records one use of key (action|account) in its window of limit uses per window_ms when it fits.
 * 0: asked, and done(arg) runs on the loop's thread with *out filled (out->key "" when nothing
 * was counted): at once, before this returns, when this node holds the window's lease, else
 * later; -1: not asked (no connection can be used now), *out left alone. */
int state__ratelimit_async_take(struct ratelimit_async *a, const char *key, uint32_t limit,
                                int64_t window_ms, int64_t now, struct ratelimit_taken *out,
                                void (*done)(void *arg), void *arg);

#endif
