/* Voice sessions across nodes, the following side (relay.h): each node keeps its own sessions
 * in praca:LOG_NAME:voice:NODE; a node loads the others' when it starts following and drops
 * those of a node that stopped. */
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <hiredis/async.h>
#pragma GCC diagnostic pop

#include "bus/relay_private.h"
#include "core/clock.h"
#include "core/log.h"

#define FORGET_MS                                                                                  \
    30000 /* a node gone this long: its hash is deleted (before the settle script forgets it) */

/* HGETALL's answer: [key, session, …] of one node. */
static void on_hash(redisAsyncContext *ac, void *reply_, void *arg)
{
    struct relay_shard *r = arg;
    redisReply *reply = reply_;
    (void)ac;
    if (!reply || r->stopping)
        return;
    for (size_t i = 1; reply->type == REDIS_REPLY_ARRAY && i < reply->elements; i += 2)
        if (reply->element[i]->type == REDIS_REPLY_STRING)
            r->voice.apply(r->voice.user, reply->element[i]->str, reply->element[i]->len, 0);
    if (!--r->loading)
        bus__shard_in_ready(r);
}

/* The nodes following now: every other node's sessions are replaced by what their hashes say. */
static void on_live(redisAsyncContext *ac, void *reply_, void *arg)
{
    struct relay_shard *r = arg;
    redisReply *reply = reply_;
    (void)ac;
    if (!reply || r->stopping)
        return;
    r->voice.drop(r->voice.user, NULL);
    for (size_t i = 0; reply->type == REDIS_REPLY_ARRAY && i < reply->elements; i++) {
        const redisReply *node = reply->element[i];
        if (node->type != REDIS_REPLY_STRING || !strcmp(node->str, r->node))
            continue;
        r->loading++;
        redisAsyncCommand(r->in, on_hash, r, "HGETALL %s%s", r->voice_prefix, node->str);
    }
    if (!--r->loading)
        bus__shard_in_ready(r);
}

void bus__voice_load(struct relay_shard *r)
{
    r->loading = 0;
    if (!r->voice.apply)
        return;
    r->loading = 1;
    redisAsyncCommand(r->in, on_live, r, "ZRANGEBYSCORE %s %lld +inf", r->following,
                      (long long)(clock_wall_ms() - RELAY_GONE_MS));
}

/* Nodes that have not said they follow for RELAY_GONE_MS: their sessions go (their sockets went
 * with them, or they will load everyone's afresh when they follow again); a minute on, their
 * hashes go too. */
static void on_gone(redisAsyncContext *ac, void *reply_, void *arg)
{
    struct relay_shard *r = arg;
    redisReply *reply = reply_;
    int64_t forget = clock_wall_ms() - FORGET_MS;
    (void)ac;
    if (!reply || r->stopping || reply->type != REDIS_REPLY_ARRAY)
        return;
    for (size_t i = 0; i + 1 < reply->elements; i += 2) {
        const redisReply *node = reply->element[i], *at = reply->element[i + 1];
        if (node->type != REDIS_REPLY_STRING || !strcmp(node->str, r->node))
            continue;
        r->voice.drop(r->voice.user, node->str);
        if (at->type == REDIS_REPLY_STRING && strtoll(at->str, NULL, 10) < forget)
            redisAsyncCommand(r->in, NULL, NULL, "DEL %s%s", r->voice_prefix, node->str);
    }
}

void bus__voice_check_gone(struct relay_shard *r)
{
    if (r->voice.apply && r->in && (r->in->c.flags & REDIS_CONNECTED))
        redisAsyncCommand(r->in, on_gone, r, "ZRANGEBYSCORE %s -inf (%lld WITHSCORES", r->following,
                          (long long)(clock_wall_ms() - RELAY_GONE_MS));
}
