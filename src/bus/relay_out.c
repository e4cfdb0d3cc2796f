/* The writer's side of the relay (relay.h): a blocking connection that appends to the stream. */
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/relay.h"
#include "bus/relay_private.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"

#define RETRY_MS    500 /* between attempts to reach Redis after a failure */
#define STREAM_KEEP "100000"

static redisContext *connect_to(const struct redis_url *u)
{
    struct timeval two = {2, 0};
    redisContext *c = redisConnectWithTimeout(u->host, u->port, two);
    if (!c || c->err) {
        log_error("relay: cannot reach Redis at %s:%d: %s", u->host, u->port,
                  c ? c->errstr : "no memory");
        redisFree(c);
        return NULL;
    }
    redisSetTimeout(c, two);
    if (relay_login(c, u)) {
        redisFree(c);
        return NULL;
    }
    return c;
}

struct relay *relay_new(const char *url, struct bus *bus, relay_change_fn on_change,
                        void *change_user)
{
    struct relay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (redis_url_parse(url, &r->url)) {
        log_error("relay: %s is not redis://[:PASSWORD@]HOST[:PORT][/DB]", url);
        free(r);
        return NULL;
    }
    crypto_random_hex(r->node, (sizeof r->node - 1) / 2);
    r->bus = bus;
    r->on_change = on_change;
    r->change_user = change_user;
    pthread_mutex_init(&r->lock, NULL);
    if (!(r->out = connect_to(&r->url))) {
        relay_free(r);
        return NULL;
    }
    log_info("relay: node %s on Redis %s:%d", r->node, r->url.host, r->url.port);
    return r;
}

/* XADD with the fields given; under r->lock. */
static void append(struct relay *r, int argc, const char **argv, const size_t *lens)
{
    pthread_mutex_lock(&r->lock);
    int64_t now = clock_now_ms();
    if (!r->out && now >= r->retry_at_ms) {
        r->retry_at_ms = now + RETRY_MS;
        r->out = connect_to(&r->url);
    }
    redisReply *reply = r->out ? redisCommandArgv(r->out, argc, argv, lens) : NULL;
    if (!reply || reply->type == REDIS_REPLY_ERROR) {
        log_error("relay: an entry was not appended: %s", reply    ? reply->str
                                                          : r->out ? r->out->errstr
                                                                   : "Redis unreachable");
        if (!reply && r->out) {
            redisFree(r->out);
            r->out = NULL;
        }
    }
    freeReplyObject(reply);
    pthread_mutex_unlock(&r->lock);
}

void relay_event(void *relay, const struct bus_event *ev)
{
    struct relay *r = relay;
    struct buf to;
    buf_init(&to, (size_t)16 << 20);
    size_t n = ev->to ? idset_count(ev->to) : 0;
    for (size_t i = 0; i < n; i++)
        if (buf_append_str(&to, i ? "," : "") || buf_append_str(&to, idset_at(ev->to, i))) {
            log_error("relay: %s's audience is too large to relay", ev->name);
            buf_cleanup(&to);
            return;
        }
    char position[24];
    snprintf(position, sizeof position, "%llu", (unsigned long long)ev->position);
    const char *argv[] = {
        "XADD", RELAY_STREAM, "MAXLEN", "~",         STREAM_KEEP, "*",
        "n",    r->node,      "k",      "e",         "t",         ev->name,
        "o",    position,     "p",      ev->payload, "r",         to.data ? to.data : ""};
    size_t lens[sizeof argv / sizeof argv[0]];
    for (size_t i = 0; i < sizeof argv / sizeof argv[0]; i++)
        lens[i] = strlen(argv[i]);
    lens[15] = ev->payload_len;
    append(r, (int)(sizeof argv / sizeof argv[0]), argv, lens);
    buf_cleanup(&to);
}

void relay_change(struct relay *r, const char *what)
{
    const char *argv[] = {"XADD", RELAY_STREAM, "MAXLEN", "~", STREAM_KEEP, "*",
                          "n",    r->node,      "k",      "c", "s",         what ? what : "*"};
    size_t lens[sizeof argv / sizeof argv[0]];
    for (size_t i = 0; i < sizeof argv / sizeof argv[0]; i++)
        lens[i] = strlen(argv[i]);
    append(r, (int)(sizeof argv / sizeof argv[0]), argv, lens);
}

void relay_free(struct relay *r)
{
    if (!r)
        return;
    redisFree(r->out);
    pthread_mutex_destroy(&r->lock);
    free(r);
}
