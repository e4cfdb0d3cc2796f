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

/* KEYS[1] the window; ARGV now, window, limit, record (1 or 0). */
extern const char STATE__RATELIMIT_SCRIPT[];
/* A use as its window holds it: its time (two uses of one millisecond are the same to give back).
 */
void state__ratelimit_member(char member[RATELIMIT_MEMBER_MAX], int64_t now);
/* The window's key in Redis for key (action|account). */
void state__ratelimit_key(char window_key[RATELIMIT_KEY_MAX + 16], const char *key);
/* The script's answer read: the wait (0 = allowed) with *used and *reset_ms, or -1 when r is not
 * such an answer (none, or an error). */
int64_t state__ratelimit_reply(const redisReply *r, uint32_t *used, int64_t *reset_ms);

/* The wait in milliseconds (0 = allowed, and recorded as member when record), or -1 when Redis
 * could not answer within RATELIMIT_REDIS_WAIT_MS; *used and *reset_ms as
 * state_ratelimit_status says. */
int64_t state__ratelimit_shared_apply(const struct redis_url *url, const char *key, uint32_t limit,
                                      int64_t window_ms, int64_t now, int record, uint32_t *used,
                                      int64_t *reset_ms, char member[RATELIMIT_MEMBER_MAX]);
/* Removes a recorded use from its window. */
void state__ratelimit_shared_forget(const struct redis_url *url, const char *key,
                                    const char *member);

#endif
