/* The writer's side of the relay (relay.h): a blocking connection that appends to the stream. */
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus/relay.h"
#include "bus/relay_private.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"

#define RETRY_MS 500 /* between attempts to reach Redis after a failure */

struct relay *relay_new(const char *url, const char *log_name, struct bus *bus,
                        relay_change_fn on_change, void *change_user)
{
    struct relay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->stream, sizeof r->stream, "praca:%s:events", log_name);
    if (redis_url_parse(url, &r->url)) {
        log_error("relay: %s is not redis://[:PASSWORD@]HOST[:PORT][/DB]", url);
        free(r);
        return NULL;
    }
    crypto_random_hex(r->node, (sizeof r->node - 1) / 2);
    r->bus = bus;
    r->exit_before = getenv("PRACA_FAULT_EXIT_BEFORE_RELAY");
    r->on_change = on_change;
    r->change_user = change_user;
    pthread_mutex_init(&r->lock, NULL);
    if (!(r->out = redis_open(&r->url, 2, "relay", "praca does not start"))) {
        relay_free(r);
        return NULL;
    }
    log_info("relay: node %s on Redis %s:%d, stream %s", r->node, r->url.host, r->url.port,
             r->stream);
    return r;
}

/* One of an entry's fields; a value without a length is a C string. */
struct field {
    const char *name, *value;
    size_t len;
};

#define ENTRY_HEAD 10 /* XADD stream MAXLEN ~ keep * n node k kind */

/* Appends an entry of this node: its kind, then the fields given (at most 4). */
static void append(struct relay *r, const char *kind, const struct field *f, size_t n)
{
    const char *argv[ENTRY_HEAD + 8] = {"XADD", r->stream, "MAXLEN", "~", RELAY_STREAM_KEEP,
                                        "*",    "n",       r->node,  "k", kind};
    size_t lens[ENTRY_HEAD + 8];
    for (size_t i = 0; i < ENTRY_HEAD; i++)
        lens[i] = strlen(argv[i]);
    for (size_t i = 0; i < n && i < 4; i++) {
        argv[ENTRY_HEAD + 2 * i] = f[i].name;
        lens[ENTRY_HEAD + 2 * i] = strlen(f[i].name);
        argv[ENTRY_HEAD + 2 * i + 1] = f[i].value;
        lens[ENTRY_HEAD + 2 * i + 1] = f[i].len ? f[i].len : strlen(f[i].value);
    }
    int argc = ENTRY_HEAD + 2 * (int)(n < 4 ? n : 4);
    pthread_mutex_lock(&r->lock);
    int64_t now = clock_now_ms();
    if (!r->out && now >= r->retry_at_ms) {
        r->retry_at_ms = now + RETRY_MS;
        r->out =
            redis_open(&r->url, 2, "relay", "this node's events reach the others when they resume");
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
    if (r->exit_before && strstr(ev->payload, r->exit_before))
        _exit(137); /* as a kill -9 between the commit and the relay would */
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
    const struct field f[] = {{"t", ev->name, 0},
                              {"o", position, 0},
                              {"p", ev->payload, ev->payload_len},
                              {"r", to.data ? to.data : "", 0}};
    append(r, "e", f, sizeof f / sizeof f[0]);
    buf_cleanup(&to);
}

void relay_change(struct relay *r, const char *what)
{
    const struct field f[] = {{"s", what ? what : "*", 0}};
    append(r, "c", f, 1);
}

void relay_free(struct relay *r)
{
    if (!r)
        return;
    redisFree(r->out);
    pthread_mutex_destroy(&r->lock);
    free(r);
}
