/*
 * Request-limit windows kept in Redis, so that several nodes count one bot's requests together:
 * the same exact sliding window as domain/ratewindow.h, as a list of the accepted times per
 * (action, account) under praca:window:ACTION|ACCOUNT, checked and recorded atomically by a
 * script. Each calling thread has
 * its own connection. When Redis cannot be reached the caller falls back to its own window.
 */
#ifndef PRACA_STATE_RATELIMIT_SHARED_H
#define PRACA_STATE_RATELIMIT_SHARED_H
#include <stdint.h>

#include "core/redis.h"
#include "state/ratelimit.h"

/* How long a window's taker is remembered: a window taken from several nodes gets no lease
 * for that long. */
#define STATE__RATELIMIT_MIXED_MS_S "600000"
/* KEYS the window, its lease and its taker (state__ratelimit_keys); ARGV now, window, limit,
 * record (1 or 0), node, lease (ms; 0: none wanted), cap (the most uses a lease takes). */
extern const char STATE__RATELIMIT_SCRIPT[];
/* A lease holder's uses added to the window, and its lease renewed or given up. */
extern const char STATE__RATELIMIT_FLUSH_SCRIPT[];
/* A use as its window holds it: its time (two uses of one millisecond are the same to give back).
 */
void state__ratelimit_member(char member[RATELIMIT_MEMBER_MAX], int64_t now);
/* The Redis keys of key (action|account): its window, its lease, and who takes it. */
struct ratelimit_keys {
    char window[RATELIMIT_KEY_MAX + 16], lease[RATELIMIT_KEY_MAX + 16],
        taker[RATELIMIT_KEY_MAX + 16];
};
void state__ratelimit_keys(struct ratelimit_keys *k, const char *key);
/* The script's answer read: the wait (0 = allowed) with *used and *reset_ms;
 * RATELIMIT_LEASED_HERE when this node holds the window's lease; RATELIMIT_LEASED_ELSEWHERE with
 * *reset_ms the lease's time left when another does; or -1 when r is not such an answer (none,
 * or an error). */
#define RATELIMIT_LEASED_HERE      (-2)
#define RATELIMIT_LEASED_ELSEWHERE (-3)
int64_t state__ratelimit_reply(const redisReply *r, uint32_t *used, int64_t *reset_ms);
/* The window's times that came with a lease given in r, or NULL when none was. */
const redisReply *state__ratelimit_reply_lease(const redisReply *r);

/* The wait in milliseconds (0 = allowed, and recorded as member when record), or -1 when Redis
 * could not answer within RATELIMIT_REDIS_WAIT_MS; *used and *reset_ms as
 * state_ratelimit_status says. A leased window answers as state__ratelimit_reply says (node is
 * the asking node's name); no lease is asked for. */
int64_t state__ratelimit_shared_apply(const struct redis_url *url, const char *node,
                                      const char *key, uint32_t limit, int64_t window_ms,
                                      int64_t now, int record, uint32_t *used, int64_t *reset_ms,
                                      char member[RATELIMIT_MEMBER_MAX]);
struct ratelimit_flush;
/* Hands a lease's flush over (STATE__RATELIMIT_FLUSH_SCRIPT), waiting: 1 renewed, 0 not, -1 no
 * answer. */
int state__ratelimit_shared_flush(const struct redis_url *url, const char *node,
                                  const struct ratelimit_flush *f);
/* Removes a recorded use from its window. */
void state__ratelimit_shared_forget(const struct redis_url *url, const char *key,
                                    const char *member);

#endif
