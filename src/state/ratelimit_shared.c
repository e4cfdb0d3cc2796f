/* Shared request-limit windows: see ratelimit_shared.h. */
#include "state/ratelimit_shared.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/log.h"
#include "state/ratelimit_lease.h"

/* KEYS the window, its lease and its taker; ARGV now, window, limit, record, node, lease, cap.
 * The window is a list of the accepted uses' times, oldest first. Times at or before now - window
 * have left it; the wait is until the oldest kept time leaves. Answers {wait, used, reset}: used
 * the times in the window after this call, reset when the oldest of them leaves. A list, not a
 * sorted set: each call pops what left and pushes one time, 40% less of Redis's time than a
 * sorted set for the same answers (bench/RESULTS.md). A use is pushed first and popped again when
 * it finds the window full. A node whose clock runs behind another's may push a time below the
 * newest; it then leaves the window no later than the newest does, never earlier than it should.
 *
 * Leases (ratelimit_lease.h): while a node holds the window's lease, the window is its own: the
 * holder is answered {-2} (count on your lease) and anyone else {-1, the lease's time left},
 * which also marks the window as wanted by several ("*" as its taker) for a while, so that the
 * holder's lease is not renewed and none is lent again. A node that took the window twice in a
 * row, with no other node between, is lent it with a use it recorded: {wait, used, reset,
 * [times]}; nodes that take it in turns never are. lease 0 asks for none (a thread that waits
 * on Redis). */
const char STATE__RATELIMIT_SCRIPT[] =
    "local k, kl, kw = KEYS[1], KEYS[2], KEYS[3] "
    "local now, win, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]) "
    "local node, lease = ARGV[5], tonumber(ARGV[6]) "
    "local holder = redis.call('GET', kl) "
    "if holder then "
    "  if holder == node then return {-2, 0, 0} end "
    "  redis.call('SET', kw, '*', 'PX', " STATE__RATELIMIT_MIXED_MS_S ") "
    "  return {-1, redis.call('PTTL', kl), 0} "
    "end "
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
    "if lease > 0 then "
    "  local taker = redis.call('GET', kw) "
    "  if taker == node then "
    "    if not full and ARGV[4] == '1' and used <= tonumber(ARGV[7]) then "
    "      redis.call('SET', kl, node, 'PX', lease) "
    "      return {wait, used, reset, redis.call('LRANGE', k, 0, -1)} "
    "    end "
    "  elseif taker ~= '*' then "
    "    redis.call('SET', kw, node, 'PX', " STATE__RATELIMIT_MIXED_MS_S ") "
    "  end "
    "end "
    "return {wait, used, reset}";

/* KEYS as above; ARGV node, lease, window, kept, last, then the holder's uses to add. The uses
 * join the window, which keeps only its newest `kept` (the holder's count of it); the lease is
 * renewed while its holder is still the window's only taker, and given up on the last flush. */
const char STATE__RATELIMIT_FLUSH_SCRIPT[] =
    "local k, kl, kw = KEYS[1], KEYS[2], KEYS[3] "
    "local node, kept = ARGV[1], tonumber(ARGV[4]) "
    "if #ARGV > 5 then "
    "  redis.call('RPUSH', k, unpack(ARGV, 6)) "
    "  if kept > 0 then "
    "    redis.call('LTRIM', k, -kept, -1) "
    "    redis.call('PEXPIRE', k, ARGV[3]) "
    "  else "
    "    redis.call('DEL', k) "
    "  end "
    "end "
    "if redis.call('GET', kl) ~= node then return 0 end "
    "if ARGV[5] == '1' then "
    "  redis.call('DEL', kl) "
    "  return 0 "
    "end "
    "if redis.call('GET', kw) ~= node then return 0 end "
    "redis.call('PEXPIRE', kl, ARGV[2]) "
    "redis.call('PEXPIRE', kw, " STATE__RATELIMIT_MIXED_MS_S ") "
    "return 1";

/* This thread's: the script's digest once loaded on its connection. */
static _Thread_local char script_sha[48];

void state__ratelimit_member(char member[RATELIMIT_MEMBER_MAX], int64_t now)
{
    snprintf(member, RATELIMIT_MEMBER_MAX, "%lld", (long long)now);
}

void state__ratelimit_keys(struct ratelimit_keys *k, const char *key)
{
    snprintf(k->window, sizeof k->window, "praca:window:%s", key);
    snprintf(k->lease, sizeof k->lease, "praca:lease:%s", key);
    snprintf(k->taker, sizeof k->taker, "praca:taker:%s", key);
}

int64_t state__ratelimit_reply(const redisReply *r, uint32_t *used, int64_t *reset_ms)
{
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements < 3 || r->elements > 4 ||
        r->element[0]->type != REDIS_REPLY_INTEGER || r->element[1]->type != REDIS_REPLY_INTEGER ||
        r->element[2]->type != REDIS_REPLY_INTEGER)
        return -1;
    if (r->element[0]->integer == -2)
        return RATELIMIT_LEASED_HERE;
    if (r->element[0]->integer == -1) {
        *reset_ms = r->element[1]->integer > 0 ? r->element[1]->integer : 1;
        return RATELIMIT_LEASED_ELSEWHERE;
    }
    *used = (uint32_t)r->element[1]->integer;
    *reset_ms = r->element[2]->integer > 0 ? r->element[2]->integer : 0;
    return r->element[0]->integer > 0 ? r->element[0]->integer : 0;
}

const redisReply *state__ratelimit_reply_lease(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_ARRAY && r->elements == 4 &&
                   r->element[3]->type == REDIS_REPLY_ARRAY
               ? r->element[3]
               : NULL;
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

int64_t state__ratelimit_shared_apply(const struct redis_url *url, const char *node,
                                      const char *key, uint32_t limit, int64_t window_ms,
                                      int64_t now, int record, uint32_t *used, int64_t *reset_ms,
                                      char member[RATELIMIT_MEMBER_MAX])
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
    struct ratelimit_keys keys;
    state__ratelimit_keys(&keys, key);
    const char *argv[] = {"3",     keys.window, keys.lease, keys.taker, now_s, window_s,
                          limit_s, record_s,    node,       "0",        "0"};
    redisReply *r = redis_script(c, script_sha, STATE__RATELIMIT_SCRIPT,
                                 sizeof argv / sizeof argv[0], argv, NULL);
    int64_t wait = state__ratelimit_reply(r, used, reset_ms);
    if (wait == -1)
        log_error("limits: Redis answered %s", r ? (r->str ? r->str : "?") : c->errstr);
    if (!r) /* the connection broke or Redis was too slow: open another next time */
        redis_thread_broken();
    else
        done_with(c);
    freeReplyObject(r);
    return wait;
}

/* This thread's: the flush script's digest once loaded on its connection. */
static _Thread_local char flush_sha[48];
#define FLUSH_CHUNK 1000 /* uses per call: redis_script's most arguments, with room */

int state__ratelimit_shared_flush(const struct redis_url *url, const char *node,
                                  const struct ratelimit_flush *f)
{
    redisContext *c = connection(url);
    if (!c)
        return -1;
    struct ratelimit_keys keys;
    state__ratelimit_keys(&keys, f->key);
    char lease[16], window[24], kept[16], uses[FLUSH_CHUNK][24];
    snprintf(lease, sizeof lease, "%d", RATELIMIT_LEASE_MS);
    snprintf(window, sizeof window, "%lld", (long long)f->window_ms);
    snprintf(kept, sizeof kept, "%u", f->kept);
    const char *argv[9 + FLUSH_CHUNK] = {"3",  keys.window, keys.lease, keys.taker,
                                         node, lease,       window,     kept};
    int answer = -1;
    size_t at = 0;
    do { /* the last chunk is the flush's own last */
        size_t n = f->n - at < FLUSH_CHUNK ? f->n - at : FLUSH_CHUNK;
        argv[8] = f->last && at + n == f->n ? "1" : "0";
        for (size_t i = 0; i < n; i++) {
            snprintf(uses[i], sizeof uses[i], "%lld", (long long)f->uses[at + i]);
            argv[9 + i] = uses[i];
        }
        redisReply *r =
            redis_script(c, flush_sha, STATE__RATELIMIT_FLUSH_SCRIPT, (int)(9 + n), argv, NULL);
        answer = r && r->type == REDIS_REPLY_INTEGER ? (int)r->integer : -1;
        if (!r) {
            redis_thread_broken();
            return -1;
        }
        freeReplyObject(r);
        at += n;
    } while (at < f->n && answer >= 0);
    done_with(c);
    return answer;
}

void state__ratelimit_shared_forget(const struct redis_url *url, const char *key,
                                    const char *member)
{
    redisContext *c = connection(url);
    if (!c)
        return;
    struct ratelimit_keys keys;
    state__ratelimit_keys(&keys, key);
    redisReply *r = redisCommand(c, "LREM %s -1 %s", keys.window, member);
    if (r)
        done_with(c);
    freeReplyObject(redis_thread_reply(WHO, c, r));
}
