/* Reaching Redis: see redis.h. */
#include "core/redis.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/log.h"

static int number(struct slice s, long long max, int *out)
{
    long long v;
    if (slice_to_i64(s, 0, max, &v))
        return -1;
    *out = (int)v;
    return 0;
}

int redis_url_parse(const char *url, struct redis_url *out)
{
    static const char SCHEME[] = "redis://";
    memset(out, 0, sizeof *out);
    out->port = 6379;
    if (strncmp(url, SCHEME, sizeof SCHEME - 1))
        return -1;
    const char *p = url + sizeof SCHEME - 1;
    const char *at = strrchr(p, '@');
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        /* redis://:secret@host (no user) or redis://user:secret@host: the password counts. */
        struct slice pw = colon ? (struct slice){colon + 1, (size_t)(at - colon - 1)}
                                : (struct slice){p, (size_t)(at - p)};
        if (slice_copy(pw, out->password, sizeof out->password))
            return -1;
        p = at + 1;
    }
    const char *slash = strchr(p, '/');
    const char *end = slash ? slash : p + strlen(p);
    const char *colon = memchr(p, ':', (size_t)(end - p));
    const char *host_end = colon ? colon : end;
    if (host_end == p ||
        slice_copy((struct slice){p, (size_t)(host_end - p)}, out->host, sizeof out->host))
        return -1;
    if (colon && number((struct slice){colon + 1, (size_t)(end - colon - 1)}, 65535, &out->port))
        return -1;
    if (slash && slash[1] && number(slice_from(slash + 1), 1 << 20, &out->db))
        return -1;
    return 0;
}

#define SELF "connected to itself: nobody listens there"

int redis_connected_to_itself(int fd)
{
    struct sockaddr_storage mine, peer;
    socklen_t mine_len = sizeof mine, peer_len = sizeof peer;
    return !getsockname(fd, (struct sockaddr *)&mine, &mine_len) &&
           !getpeername(fd, (struct sockaddr *)&peer, &peer_len) && mine_len == peer_len &&
           !memcmp(&mine, &peer, mine_len);
}

redisContext *redis_open_quiet(const struct redis_url *u, int timeout_s, char *why, size_t cap)
{
    struct timeval limit = {timeout_s, 0};
    redisContext *c = redisConnectWithTimeout(u->host, u->port, limit);
    redisReply *r = NULL;
    const char *self = c && !c->err && redis_connected_to_itself(c->fd) ? SELF : NULL;
    if (c && !c->err && !self) {
        redisSetTimeout(c, limit);
        if (u->password[0])
            r = redisCommand(c, "AUTH %s", u->password);
        if (!u->password[0] || (r && r->type != REDIS_REPLY_ERROR)) {
            freeReplyObject(r);
            r = u->db ? redisCommand(c, "SELECT %d", u->db) : NULL;
            if (!u->db || (r && r->type != REDIS_REPLY_ERROR)) {
                freeReplyObject(r);
                return c;
            }
        }
    }
    snprintf(why, cap, "%s", self ? self : r ? r->str : c ? c->errstr : "no memory");
    freeReplyObject(r);
    redisFree(c);
    return NULL;
}

redisContext *redis_open(const struct redis_url *u, int timeout_s, const char *who,
                         const char *meanwhile)
{
    char why[256];
    redisContext *c = redis_open_quiet(u, timeout_s, why, sizeof why);
    if (!c)
        log_error("%s: Redis at %s:%d cannot be used (%s); %s", who, u->host, u->port, why,
                  meanwhile);
    return c;
}

#define SCRIPT_ARGS_MAX 1024

redisReply *redis_script(redisContext *c, char sha[48], const char *script, int argc,
                         const char **argv, const size_t *lens)
{
    if (argc < 0 || argc > SCRIPT_ARGS_MAX - 2)
        return NULL;
    const char *all[SCRIPT_ARGS_MAX];
    size_t all_lens[SCRIPT_ARGS_MAX];
    for (int i = 0; i < argc; i++) {
        all[i + 2] = argv[i];
        all_lens[i + 2] = lens ? lens[i] : strlen(argv[i]);
    }
    redisReply *r = NULL;
    if (!sha[0] && (r = redisCommand(c, "SCRIPT LOAD %s", script)) && r->type == REDIS_REPLY_STRING)
        slice_copy(slice_from(r->str), sha, 48);
    freeReplyObject(r);
    r = NULL;
    if (sha[0]) {
        all[0] = "EVALSHA";
        all[1] = sha;
        for (int i = 0; i < 2; i++)
            all_lens[i] = strlen(all[i]);
        r = redisCommandArgv(c, argc + 2, all, all_lens);
    }
    if (!r || (r->type == REDIS_REPLY_ERROR && !strncmp(r->str, "NOSCRIPT", 8))) {
        sha[0] = '\0'; /* loaded again next time */
        freeReplyObject(r);
        all[0] = "EVAL";
        all[1] = script;
        for (int i = 0; i < 2; i++)
            all_lens[i] = strlen(all[i]);
        r = c->err ? NULL : redisCommandArgv(c, argc + 2, all, all_lens);
    }
    return r;
}

#define THREAD_RETRY_MS 1000

/* Each thread's connection, closed when the thread ends. */
struct thread_conn {
    redisContext *c;
    int64_t retry_at;
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

redisContext *redis_thread(const struct redis_url *u, const char *who, const char *meanwhile)
{
    struct thread_conn *t = mine();
    if (!t)
        return NULL;
    if (t->c)
        return t->c;
    int64_t now = clock_mono_ms();
    if (now < t->retry_at)
        return NULL;
    t->retry_at = now + THREAD_RETRY_MS;
    t->c = redis_open(u, REDIS_THREAD_TIMEOUT_S, who, meanwhile);
    return t->c;
}

void redis_thread_broken(void)
{
    struct thread_conn *t = mine();
    if (t && t->c) {
        redisFree(t->c);
        t->c = NULL;
    }
}

redisReply *redis_thread_reply(const char *who, redisContext *c, redisReply *r)
{
    if (!r || r->type == REDIS_REPLY_ERROR) {
        log_error("%s: Redis answered %s", who, r ? r->str : c->errstr);
        if (!r)
            redis_thread_broken();
        freeReplyObject(r);
        return NULL;
    }
    return r;
}
