/* Reaching Redis: see redis.h. */
#include "core/redis.h"

#include <string.h>

#include "core/buf.h"
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

redisContext *redis_open(const struct redis_url *u, int timeout_s, const char *who,
                         const char *meanwhile)
{
    struct timeval limit = {timeout_s, 0};
    redisContext *c = redisConnectWithTimeout(u->host, u->port, limit);
    redisReply *r = NULL;
    if (c && !c->err) {
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
    log_error("%s: Redis at %s:%d cannot be used (%s); %s", who, u->host, u->port,
              r   ? r->str
              : c ? c->errstr
                  : "no memory",
              meanwhile);
    freeReplyObject(r);
    redisFree(c);
    return NULL;
}
