/* Shared request-limit windows: see ratelimit_shared.h. */
#include "state/ratelimit_shared.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/log.h"

/* KEYS[1] the window: a list of the accepted uses' times, oldest first; ARGV now, window, limit,
 * record. Times at or before now - window have left it; the wait is until the oldest kept time
 * leaves. Answers {wait, used, reset}: used the times in the window after this call, reset when
 * the oldest of them leaves. A list, not a sorted set: each call pops what left and pushes one
 * time, 40% less of Redis's time than a sorted set for the same answers (bench/RESULTS.md). A
 * use is pushed first and popped again when it finds the window full, so an accepted one costs
 * three calls (LINDEX, RPUSH, PEXPIRE), the fewest Redis's Lua allows for these answers. A
 * node whose clock runs behind another's may push a time below the newest; it then leaves the
 * window no later than the newest does, never earlier than it should. */
const char STATE__RATELIMIT_SCRIPT[] =
    "local k, now, win, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]) "
    "local oldest = tonumber(redis.call('LINDEX', k, 0)) "
    "while oldest and oldest <= now - win do "
    "  redis.call('LPOP', k) "
    "  oldest = tonumber(redis.call('LINDEX', k, 0)) "
    "end "
    "local used, full = 0, false "
    "if ARGV[4] == '1' then "
    "  used = redis.call('RPUSH', k, ARGV[1]) "
    "  full = used > limit "
    "  if full then "
    "    redis.call('RPOP', k) "
    "    used = used - 1 "
    "  else "
    "    redis.call('PEXPIRE', k, win) "
    "    oldest = oldest or now "
    "  end "
    "elseif oldest then "
    "  used = redis.call('LLEN', k) "
    "  full = used >= limit "
    "end "
    "local reset = 0 "
    "if oldest then reset = oldest + win - now end "
    "local wait = 0 "
    "if full then wait = reset end "
    "return {wait, used, reset}";

/* This thread's: the script's digest once loaded on its connection. */
static _Thread_local char script_sha[48];

void state__ratelimit_member(char member[RATELIMIT_MEMBER_MAX], int64_t now)
{
    snprintf(member, RATELIMIT_MEMBER_MAX, "%lld", (long long)now);
}

void state__ratelimit_key(char window_key[RATELIMIT_KEY_MAX + 16], const char *key)
{
    snprintf(window_key, RATELIMIT_KEY_MAX + 16, "praca:window:%s", key);
}

int64_t state__ratelimit_reply(const redisReply *r, uint32_t *used, int64_t *reset_ms)
{
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 3 ||
        r->element[0]->type != REDIS_REPLY_INTEGER || r->element[1]->type != REDIS_REPLY_INTEGER ||
        r->element[2]->type != REDIS_REPLY_INTEGER)
        return -1;
    *used = (uint32_t)r->element[1]->integer;
    *reset_ms = r->element[2]->integer > 0 ? r->element[2]->integer : 0;
    return r->element[0]->integer > 0 ? r->element[0]->integer : 0;
}

#define WHO       "limits"
#define MEANWHILE "this node counts alone meanwhile"

/* The thread's connection, set to give up on a command after RATELIMIT_REDIS_WAIT_MS. */
static redisContext *connection(const struct redis_url *url)
{
    redisContext *c = redis_thread(url, WHO, MEANWHILE);
    if (c)
        redisSetTimeout(c, (struct timeval){0, RATELIMIT_REDIS_WAIT_MS * 1000});
    return c;
}

/* Back to the thread connection's usual wait, for its other users (tickets, presence). */
static void done_with(redisContext *c)
{
    redisSetTimeout(c, (struct timeval){REDIS_THREAD_TIMEOUT_S, 0});
}

int64_t state__ratelimit_shared_apply(const struct redis_url *url, const char *key, uint32_t limit,
                                      int64_t window_ms, int64_t now, int record, uint32_t *used,
                                      int64_t *reset_ms, char member[RATELIMIT_MEMBER_MAX])
{
    redisContext *c = connection(url);
    if (!c)
        return -1;
    state__ratelimit_member(member, now);
    char now_s[24], window_s[24], limit_s[16], record_s[4];
    snprintf(now_s, sizeof now_s, "%lld", (long long)now);
    snprintf(window_s, sizeof window_s, "%lld", (long long)window_ms);
    snprintf(limit_s, sizeof limit_s, "%u", limit);
    snprintf(record_s, sizeof record_s, "%d", record);
    char window_key[RATELIMIT_KEY_MAX + 16];
    state__ratelimit_key(window_key, key);
    const char *argv[] = {"1", window_key, now_s, window_s, limit_s, record_s};
    redisReply *r = redis_script(c, script_sha, STATE__RATELIMIT_SCRIPT,
                                 sizeof argv / sizeof argv[0], argv, NULL);
    int64_t wait = state__ratelimit_reply(r, used, reset_ms);
    if (wait < 0)
        log_error("limits: Redis answered %s", r ? (r->str ? r->str : "?") : c->errstr);
    if (!r) /* the connection broke or Redis was too slow: open another next time */
        redis_thread_broken();
    else
        done_with(c);
    freeReplyObject(r);
    return wait;
}

void state__ratelimit_shared_forget(const struct redis_url *url, const char *key,
                                    const char *member)
{
    redisContext *c = connection(url);
    if (!c)
        return;
    char window_key[RATELIMIT_KEY_MAX + 16];
    state__ratelimit_key(window_key, key);
    redisReply *r = redisCommand(c, "LREM %s -1 %s", window_key, member);
    if (r)
        done_with(c);
    freeReplyObject(redis_thread_reply(WHO, c, r));
}
