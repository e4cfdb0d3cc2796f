/* Presence across nodes: see presence_shared.h. */
#include "state/presence_shared.h"
#include "core/thread_name.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/vec.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"
#include "core/map.h"
#include "core/redis.h"
#include "core/uuid.h"

#define WHO       "presence"
#define MEANWHILE "this node shows only its own connections meanwhile"
#define CHUNK     500 /* users per command or script run */

/* KEYS[1] the nodes, KEYS[2] the statuses; ARGV[1] the online sets' prefix, ARGV[2] the oldest
 * live beat, ARGV[3] this node (its own connections are known here), ARGV[4…] the users. For
 * each user: 1 or 0 (connected to another live node), then the saved status or "". */
static const char READ_SCRIPT[] =
    "local nodes = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[2], '+inf') "
    "local out = {} "
    "for i = 4, #ARGV do "
    "  local on = 0 "
    "  for _, n in ipairs(nodes) do "
    "    if n ~= ARGV[3] and redis.call('SISMEMBER', ARGV[1] .. n, ARGV[i]) == 1 then "
    "      on = 1 break "
    "    end "
    "  end "
    "  out[#out + 1] = on "
    "  out[#out + 1] = redis.call('HGET', KEYS[2], ARGV[i]) or '' "
    "end "
    "return out";

static _Thread_local char read_sha[48];

/* KEYS[1] the nodes; ARGV[1] the reading hashes' prefix, ARGV[2] the oldest live beat, ARGV[3]
 * this node, ARGV[4] the user, ARGV[5] the room: 1 when a page of theirs on another live node
 * shows it. */
static const char READING_SCRIPT[] =
    "local nodes = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[2], '+inf') "
    "for _, n in ipairs(nodes) do "
    "  if n ~= ARGV[3] then "
    "    local v = redis.call('HGET', ARGV[1] .. n, ARGV[4]) "
    "    if v and string.find(',' .. v .. ',', ',' .. ARGV[5] .. ',', 1, true) then return 1 end "
    "  end "
    "end "
    "return 0";

static _Thread_local char reading_sha[48];

struct presence_shared {
    struct redis_url url;
    char node[17];
    char nodes_key[96], statuses_key[96], prefix[96], mine[128];
    char reading_prefix[96], reading_mine[128]; /* the rooms this node's pages show, by user */
    presence_each_fn each;
    void *each_user;
    /* The writing thread's. */
    pthread_t thread;
    redisContext *c;
    int64_t retry_at; /* no new connection before: Redis was not there */
    int stale; /* this node's set may disagree with what it holds: written whole at the beat */
    /* Shared with the callers, under lock. */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct map changes; /* user ID → (void *)1 online, (void *)2 offline: the latest of each */
    struct map reading; /* user ID → their rooms here now, comma-separated (malloc'd; "" none) */
    int stopping;
};

/* ---- the writing thread ---- */

static redisContext *conn(struct presence_shared *s)
{
    int64_t now = clock_mono_ms();
    if (s->c || now < s->retry_at)
        return s->c;
    if (!(s->c = redis_open(&s->url, 1, WHO, MEANWHILE)))
        s->retry_at = now + PRESENCE_BEAT_MS;
    s->stale = 1;
    return s->c;
}

/* The reply of a command on the thread's connection; NULL (and the connection dropped) when it
 * broke or Redis refused. */
static redisReply *run(struct presence_shared *s, int argc, const char **argv)
{
    if (!conn(s))
        return NULL;
    redisReply *r = redisCommandArgv(s->c, argc, argv, NULL);
    if (!r || r->type == REDIS_REPLY_ERROR) {
        log_error(WHO ": Redis answered %s", r ? r->str : s->c->errstr);
        freeReplyObject(r);
        redisFree(s->c);
        s->c = NULL;
        s->stale = 1;
        return NULL;
    }
    return r;
}

static int run_ok(struct presence_shared *s, int argc, const char **argv)
{
    redisReply *r = run(s, argc, argv);
    freeReplyObject(r);
    return r ? 0 : -1;
}

/* Users given to one SADD or SREM on key. */
struct batch {
    struct presence_shared *s;
    const char *argv[CHUNK + 2];
    int argc;
    int failed;
};

static void batch_flush(struct batch *b)
{
    if (b->argc > 2 && run_ok(b->s, b->argc, b->argv))
        b->failed = 1;
    b->argc = 2;
}

static void batch_add(struct batch *b, const char *user_id)
{
    b->argv[b->argc++] = user_id;
    if (b->argc == CHUNK + 2)
        batch_flush(b);
}

struct change_batches {
    struct batch in, out;
};

static void sort_change(const char *user_id, void *value, void *arg)
{
    struct change_batches *cb = arg;
    batch_add((uintptr_t)value == 1 ? &cb->in : &cb->out, user_id);
}

static void write_changes(struct presence_shared *s, struct map *changes)
{
    struct change_batches cb = {{s, {"SADD", s->mine}, 2, 0}, {s, {"SREM", s->mine}, 2, 0}};
    map_each(changes, sort_change, &cb);
    batch_flush(&cb.in);
    batch_flush(&cb.out);
}

static void write_room(const char *user_id, void *value, void *arg)
{
    struct presence_shared *s = arg;
    const char *set[] = {"HSET", s->reading_mine, user_id, value},
               *del[] = {"HDEL", s->reading_mine, user_id};
    run_ok(s, *(char *)value ? 4 : 3, *(char *)value ? set : del);
    free(value);
}

/* This node's users, copied (the presence lock is held while each runs). */
struct users {
    char (*ids)[UUID_LEN + 1];
    size_t n, cap;
    int failed;
};

static void collect(void *arg, const char *user_id)
{
    struct users *u = arg;
    if (VEC_RESERVE(u->ids, u->n, u->cap, 64)) {
        u->failed = 1;
        return;
    }
    if (!slice_copy(slice_from(user_id), u->ids[u->n], sizeof u->ids[0]))
        u->n++;
}

/* This node's set written whole when its size disagrees (or it may): a temporary key renamed
 * over it, so readers never see it half written. */
static void rewrite_mine(struct presence_shared *s)
{
    struct users u = {0};
    s->each(s->each_user, collect, &u);
    if (u.failed) {
        free(u.ids);
        return;
    }
    if (!s->stale) {
        const char *argv[] = {"SCARD", s->mine};
        redisReply *r = run(s, 2, argv);
        int agrees = r && r->type == REDIS_REPLY_INTEGER && (size_t)r->integer == u.n;
        freeReplyObject(r);
        if (agrees || !r) {
            free(u.ids);
            return;
        }
    }
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s:new", s->mine);
    const char *del[] = {"DEL", tmp};
    int failed = run_ok(s, 2, del);
    struct batch b = {s, {"SADD", tmp}, 2, 0};
    for (size_t i = 0; i < u.n && !failed; i++)
        batch_add(&b, u.ids[i]);
    batch_flush(&b);
    free(u.ids);
    const char *rename[] = {"RENAME", tmp, s->mine}, *drop[] = {"DEL", s->mine};
    if (!failed && !b.failed && !run_ok(s, u.n ? 3 : 2, u.n ? rename : drop))
        s->stale = 0;
}

/* The beat: this node is alive; the nodes that stopped beating lose their sets. */
static void beat(struct presence_shared *s)
{
    char now[24], oldest[24];
    int64_t t = clock_wall_ms(); /* compared with the other nodes' */
    snprintf(now, sizeof now, "%lld", (long long)t);
    snprintf(oldest, sizeof oldest, "(%lld", (long long)(t - PRESENCE_NODE_DEAD_MS));
    const char *alive[] = {"ZADD", s->nodes_key, now, s->node};
    const char *dead[] = {"ZRANGEBYSCORE", s->nodes_key, "-inf", oldest};
    if (run_ok(s, 4, alive))
        return;
    redisReply *r = run(s, 4, dead);
    for (size_t i = 0; r && r->type == REDIS_REPLY_ARRAY && i < r->elements; i++) {
        char key[160], rooms[160];
        snprintf(key, sizeof key, "%s%s", s->prefix, r->element[i]->str);
        snprintf(rooms, sizeof rooms, "%s%s", s->reading_prefix, r->element[i]->str);
        const char *del[] = {"DEL", key, rooms},
                   *rem[] = {"ZREM", s->nodes_key, r->element[i]->str};
        if (run_ok(s, 3, del) || run_ok(s, 3, rem))
            break;
    }
    freeReplyObject(r);
    rewrite_mine(s);
}

static void *writer_main(void *arg)
{
    struct presence_shared *s = arg;
    thread_name("praca-presence");
    int64_t next_beat = 0;
    pthread_mutex_lock(&s->lock);
    while (!s->stopping) {
        int64_t now = clock_mono_ms();
        if (!s->changes.count && !s->reading.count && now < next_beat) {
            struct timespec until = clock_deadline(next_beat - now);
            pthread_cond_timedwait(&s->wake, &s->lock, &until);
            continue;
        }
        struct map changes = s->changes, reading = s->reading;
        map_init(&s->changes);
        map_init(&s->reading);
        pthread_mutex_unlock(&s->lock);
        write_changes(s, &changes);
        map_cleanup(&changes);
        map_each(&reading, write_room, s); /* and frees each value */
        map_cleanup(&reading);
        if (now >= next_beat) {
            beat(s);
            next_beat = now + PRESENCE_BEAT_MS;
        }
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    const char *del[] = {"DEL", s->mine, s->reading_mine}, *rem[] = {"ZREM", s->nodes_key, s->node};
    if (s->c && !run_ok(s, 3, del))
        run_ok(s, 3, rem);
    redisFree(s->c);
    return NULL;
}

/* ---- the callers' side ---- */

static void free_value(const char *key, void *value, void *arg)
{
    (void)key, (void)arg;
    free(value);
}

struct presence_shared *state__presence_shared_new(const char *url, const char *log_name,
                                                   presence_each_fn each, void *each_user)
{
    struct presence_shared *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (redis_url_parse(url, &s->url)) {
        free(s);
        return NULL;
    }
    crypto_random_hex(s->node, (sizeof s->node - 1) / 2);
    snprintf(s->nodes_key, sizeof s->nodes_key, "praca:%s:nodes", log_name);
    snprintf(s->statuses_key, sizeof s->statuses_key, "praca:%s:presence", log_name);
    snprintf(s->prefix, sizeof s->prefix, "praca:%s:online:", log_name);
    snprintf(s->mine, sizeof s->mine, "%s%s", s->prefix, s->node);
    snprintf(s->reading_prefix, sizeof s->reading_prefix, "praca:%s:reading:", log_name);
    snprintf(s->reading_mine, sizeof s->reading_mine, "%s%s", s->reading_prefix, s->node);
    s->each = each;
    s->each_user = each_user;
    s->stale = 1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    map_init(&s->changes);
    map_init(&s->reading);
    if (pthread_create(&s->thread, NULL, writer_main, s)) {
        log_error(WHO ": cannot start its thread");
        map_cleanup(&s->changes);
        map_cleanup(&s->reading);
        pthread_cond_destroy(&s->wake);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    return s;
}

void state__presence_shared_free(struct presence_shared *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    map_cleanup(&s->changes);
    map_each(&s->reading, free_value, NULL);
    map_cleanup(&s->reading);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void state__presence_shared_changed(struct presence_shared *s, const char *user_id, int online)
{
    pthread_mutex_lock(&s->lock);
    if (map_set(&s->changes, user_id, (void *)(uintptr_t)(online ? 1 : 2)))
        s->stale = 1; /* out of memory: the beat writes the set whole */
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

/* One script run for at most CHUNK users. */
static int read_chunk(struct presence_shared *s, redisContext *c, const char *const *user_ids,
                      size_t n, int *elsewhere, char (*saved)[PRESENCE_STATUS_MAX])
{
    char oldest[24];
    snprintf(oldest, sizeof oldest, "%lld", (long long)(clock_wall_ms() - PRESENCE_NODE_DEAD_MS));
    const char *argv[CHUNK + 6] = {"2", s->nodes_key, s->statuses_key, s->prefix, oldest, s->node};
    for (size_t i = 0; i < n; i++)
        argv[6 + i] = user_ids[i];
    redisReply *r = redis_thread_reply(
        WHO, c, redis_script(c, read_sha, READ_SCRIPT, (int)(6 + n), argv, NULL));
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 * n) {
        freeReplyObject(r);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const redisReply *on = r->element[2 * i], *status = r->element[2 * i + 1];
        elsewhere[i] = on->type == REDIS_REPLY_INTEGER && on->integer == 1;
        saved[i][0] = '\0';
        if (status->type == REDIS_REPLY_STRING)
            slice_copy((struct slice){status->str, status->len}, saved[i], sizeof saved[i]);
    }
    freeReplyObject(r);
    return 0;
}

int state__presence_shared_read(struct presence_shared *s, const char *const *user_ids, size_t n,
                                int *elsewhere, char (*saved)[PRESENCE_STATUS_MAX])
{
    redisContext *c = redis_thread(&s->url, WHO, MEANWHILE);
    if (!c)
        return -1;
    for (size_t at = 0; at < n; at += CHUNK)
        if (read_chunk(s, c, user_ids + at, n - at < CHUNK ? n - at : CHUNK, elsewhere + at,
                       saved + at))
            return -1;
    return 0;
}

int state__presence_shared_save(struct presence_shared *s, const char *user_id, const char *json)
{
    redisContext *c = redis_thread(&s->url, WHO, MEANWHILE);
    if (!c)
        return -1;
    redisReply *r = redis_thread_reply(
        WHO, c, redisCommand(c, "HSET %s %s %s", s->statuses_key, user_id, json));
    freeReplyObject(r);
    return r ? 0 : -1;
}

void state__presence_shared_reading(struct presence_shared *s, const char *user_id,
                                    const char *rooms)
{
    char *copy = strdup(rooms);
    if (!copy)
        return; /* out of memory: the other nodes see the rooms as they were */
    pthread_mutex_lock(&s->lock);
    free(map_get(&s->reading, user_id));
    if (map_set(&s->reading, user_id, copy))
        free(copy);
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

int state__presence_shared_reading_elsewhere(struct presence_shared *s, const char *user_id,
                                             const char *room)
{
    redisContext *c = redis_thread(&s->url, WHO, MEANWHILE);
    if (!c)
        return -1;
    char oldest[24];
    snprintf(oldest, sizeof oldest, "%lld", (long long)(clock_wall_ms() - PRESENCE_NODE_DEAD_MS));
    const char *argv[] = {"1", s->nodes_key, s->reading_prefix, oldest, s->node, user_id, room};
    redisReply *r =
        redis_thread_reply(WHO, c, redis_script(c, reading_sha, READING_SCRIPT, 7, argv, NULL));
    int found = r && r->type == REDIS_REPLY_INTEGER ? r->integer == 1 : -1;
    freeReplyObject(r);
    return found;
}
