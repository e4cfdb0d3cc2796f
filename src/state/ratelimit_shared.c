/* Shared request-limit windows: see ratelimit_shared.h. */
#include "state/ratelimit_shared.h"

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"

#define RETRY_MS 1000 /* a thread that could not reach Redis tries again after this */

/* KEYS[1] the window; ARGV now, window, limit, record, a unique member. Times at or before
 * now - window have left it; the wait is until the oldest kept time leaves. */
static const char SCRIPT[] =
    "local now, win, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]) "
    "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win) "
    "if redis.call('ZCARD', KEYS[1]) < limit then "
    "  if ARGV[4] == '1' then "
    "    redis.call('ZADD', KEYS[1], now, ARGV[5]) "
    "    redis.call('PEXPIRE', KEYS[1], win) "
    "  end "
    "  return 0 "
    "end "
    "local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES') "
    "return tonumber(oldest[2]) + win - now";

/* Each thread's connection, closed when the thread ends. */
struct thread_conn {
    redisContext *c;
    char sha[48]; /* the script's, once loaded on this connection */
    int64_t retry_at;
    unsigned long seq;
};
static pthread_key_t conn_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void thread_conn_free(void *p)
{
    struct thread_conn *t = p;
    redisFree(t->c);
    free(t);
}

static void make_key(void)
{
    pthread_key_create(&conn_key, thread_conn_free);
}

static struct thread_conn *mine(void)
{
    pthread_once(&key_once, make_key);
    struct thread_conn *t = pthread_getspecific(conn_key);
    if (!t && (t = calloc(1, sizeof *t)) && pthread_setspecific(conn_key, t)) {
        free(t);
        t = NULL;
    }
    return t;
}

static redisContext *connection(struct thread_conn *t, const struct redis_url *u)
{
    if (t->c)
        return t->c;
    int64_t now = clock_now_ms();
    if (now < t->retry_at)
        return NULL;
    t->retry_at = now + RETRY_MS;
    t->c = redis_open(u, 1, "limits", "this node counts alone meanwhile");
    return t->c;
}

int64_t ratelimit_shared_apply(const struct redis_url *url, const char *key, uint32_t limit,
                               int64_t window_ms, int64_t now, int record)
{
    struct thread_conn *t = mine();
    redisContext *c = t ? connection(t, url) : NULL;
    if (!c)
        return -1;
    char member[64];
    char node[17];
    crypto_random_hex(node, 8);
    snprintf(member, sizeof member, "%lld-%s-%lu", (long long)now, node, ++t->seq);
    /* The script by its digest once loaded (EVAL would send its text every time). */
    redisReply *r = NULL;
    if (!t->sha[0] && (r = redisCommand(c, "SCRIPT LOAD %s", SCRIPT)) &&
        r->type == REDIS_REPLY_STRING)
        slice_copy(slice_from(r->str), t->sha, sizeof t->sha);
    freeReplyObject(r);
    r = t->sha[0] ? redisCommand(c, "EVALSHA %s 1 praca:limit:%s %lld %lld %u %d %s", t->sha, key,
                                 (long long)now, (long long)window_ms, limit, record, member)
                  : NULL;
    if (!r || (r->type == REDIS_REPLY_ERROR && !strncmp(r->str, "NOSCRIPT", 8))) {
        t->sha[0] = '\0'; /* Redis restarted without it: the text, and load it next time */
        freeReplyObject(r);
        r = redisCommand(c, "EVAL %s 1 praca:limit:%s %lld %lld %u %d %s", SCRIPT, key,
                         (long long)now, (long long)window_ms, limit, record, member);
    }
    int64_t wait = -1;
    if (r && r->type == REDIS_REPLY_INTEGER)
        wait = r->integer > 0 ? r->integer : 0;
    else
        log_error("limits: Redis answered %s", r ? (r->str ? r->str : "?") : c->errstr);
    if (!r) { /* the connection broke: open another next time */
        redisFree(t->c);
        t->c = NULL;
    }
    freeReplyObject(r);
    return wait;
}
