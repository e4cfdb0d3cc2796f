/*
 * Leased windows. With several nodes a window lives in Redis, and each use asked there costs a
 * round trip, which wakes Redis and the loop for every request. A node that is a window's only
 * taker is lent it for a moment (RATELIMIT_LEASE_MS): it decides the window's uses here, exactly
 * as Redis would, and hands them over in flushes (every RATELIMIT_FLUSH_MS while it has new
 * ones), which also renew the lease while nobody else asks for the window. A node that asks
 * meanwhile is told to wait the lease's time left, and the lease is then not renewed: the window
 * is back in Redis, with every use, within one lease.
 *
 * The leases a node holds, shared by the loop's thread (takes, grants, flushes) and the others
 * (workers' takes, the writer's give-backs): one mutex.
 */
#ifndef PRACA_STATE_RATELIMIT_LEASE_H
#define PRACA_STATE_RATELIMIT_LEASE_H
#include <stddef.h>
#include <stdint.h>

#include "state/ratelimit.h"

#define RATELIMIT_LEASE_MS      300
#define RATELIMIT_LEASE_SAFE_MS 150 /* a lease is used until this long before Redis ends it */
#define RATELIMIT_FLUSH_MS      40
#define RATELIMIT_LEASE_USES    1000000 /* the most uses a leased window holds: a limit's most */
#define RATELIMIT_FLUSH_USES    4096    /* the most uses one flush hands over */

struct ratelimit_leases;

/* NULL when out of memory. */
struct ratelimit_leases *state__leases_new(void);
void state__leases_free(struct ratelimit_leases *t);

/* Decides a use of key at now (recorded when record) on its lease, at monotonic mono: 1 with
 * out's key, member (when recorded), wait and st.used / st.reset_ms filled; 0 when this node
 * holds no usable lease on key. */
int state__leases_take(struct ratelimit_leases *t, const char *key, uint32_t limit,
                       int64_t window_ms, int64_t now, int64_t mono, int record,
                       struct ratelimit_taken *out);

/* A lease given with the window's times, oldest first, asked for at asked_mono: usable until
 * asked_mono + RATELIMIT_LEASE_MS - RATELIMIT_LEASE_SAFE_MS. -1 when it cannot be kept (no
 * memory, too many times): the caller lets it lapse. */
int state__leases_grant(struct ratelimit_leases *t, const char *key, int64_t window_ms,
                        const int64_t *times, size_t n, int64_t asked_mono);

/* A flush for Redis (STATE__RATELIMIT_FLUSH_SCRIPT): the uses decided since the last, how many
 * of the window to keep, and whether it gives the lease up. */
struct ratelimit_flush {
    char key[RATELIMIT_KEY_MAX];
    int64_t window_ms;
    int64_t *uses; /* owned */
    size_t n;
    uint32_t kept;
    int last;
    int64_t sent_mono;
};
/* Calls send(f, arg) for each flush due at mono (now: the windows' clock): 0 when sent (send
 * then owns f and answers it later with state__leases_flushed, never from inside send), -1 when
 * not (the lease is dropped). Leases that ended with nothing to hand over are forgotten. */
void state__leases_due(struct ratelimit_leases *t, int64_t now, int64_t mono,
                       int (*send)(struct ratelimit_flush *f, void *arg), void *arg);
/* Redis's answer to f: 1 renewed, 0 not (the lease ends: a last flush follows), -1 none (the
 * lease is dropped). Frees f. */
void state__leases_flushed(struct ratelimit_leases *t, struct ratelimit_flush *f, int answer);
void state__leases_flush_free(struct ratelimit_flush *f);

/* Gives back a use at `at` decided on key's lease: 1 when it had not left for Redis yet (nothing
 * more to do), else 0 (the caller removes it from Redis's window). */
int state__leases_give_back(struct ratelimit_leases *t, const char *key, int64_t at);
/* How many leases are held. */
size_t state__leases_count(struct ratelimit_leases *t);
/* Ends every lease: the next state__leases_due sends each its last flush. */
void state__leases_end_all(struct ratelimit_leases *t);
/* Forgets every lease (Redis is gone): uses not flushed are lost with them. */
void state__leases_clear(struct ratelimit_leases *t);

#endif
