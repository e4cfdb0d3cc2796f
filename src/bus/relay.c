/* The relay over its shards (relay.h): what happens in one server always travels on the same
 * stream, chosen by bus_route, so its events and change marks keep their order; every node
 * follows every shard. */
#include <stdlib.h>
#include <string.h>

#include "bus/relay_private.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/crypto.h"
#include "core/log.h"
#include "store/snapshot.h"

struct relay {
    char node[17]; /* this node's name in every stream: random at each start */
    int n;
    struct relay_shard *shard[RELAY_SHARDS_MAX];
};

/* The shard that carries what happens at `where` (a server, a user, a token's hash). */
static struct relay_shard *shard_of(const struct relay *r, uint32_t route)
{
    return r->shard[route % (uint32_t)r->n];
}

struct relay *bus_relay_new(const char *urls, const char *log_name, struct bus *bus,
                            relay_change_fn on_change, void *change_user)
{
    struct relay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    crypto_random_hex(r->node, (sizeof r->node - 1) / 2);
    int commas = 0;
    for (const char *p = urls; *p; p++)
        commas += *p == ',';
    for (const char *p = urls; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char url[1024];
        if (commas >= RELAY_SHARDS_MAX || slice_copy((struct slice){p, len}, url, sizeof url)) {
            log_error("relay: at most %d streams of at most 1023 bytes each", RELAY_SHARDS_MAX);
            bus_relay_free(r);
            return NULL;
        }
        if (!(r->shard[r->n] =
                  bus__shard_new(url, r->n, log_name, r->node, bus, on_change, change_user))) {
            bus_relay_free(r);
            return NULL;
        }
        r->n++;
        p += len + (end != NULL);
    }
    if (!r->n) {
        log_error("relay: no Redis to relay through");
        bus_relay_free(r);
        return NULL;
    }
    return r;
}

void bus_relay_event(void *relay, const struct bus_event *ev)
{
    struct relay *r = relay;
    bus__shard_event(shard_of(r, ev->route), ev);
}

void bus_relay_change(struct relay *r, const char *what)
{
    /* A member's or an install's change travels with its server's events, in their order. */
    char sid[UUID_LEN + 1], who[UUID_LEN + 1];
    const char *where = what && !store_change_parse(what, sid, who) ? sid : what;
    bus__shard_change(shard_of(r, bus_route(where)), what);
}

void bus_relay_settle(struct relay *r)
{
    struct timespec until = clock_deadline(RELAY_SETTLE_MS);
    for (int i = 0; i < r->n; i++)
        bus__shard_settle(r->shard[i], &until);
}

size_t bus_relay_queued_bytes(struct relay *r)
{
    size_t n = 0;
    for (int i = 0; i < r->n; i++)
        n += bus__shard_queued_bytes(r->shard[i]);
    return n;
}

void bus_relay_on_voice(struct relay *r, const struct bus_relay_voice *voice)
{
    r->shard[0]->voice = *voice;
}

void bus_relay_voice(struct relay *r, const char *owner, const char *key, const char *text,
                     int removed)
{
    bus__shard_voice(r->shard[0], owner, key, text, removed);
}

const char *bus_relay_node(const struct relay *r)
{
    return r->node;
}

int bus_relay_follow(struct relay *r, uv_loop_t *loop)
{
    for (int i = 0; i < r->n; i++)
        if (bus__shard_follow(r->shard[i], loop))
            return -1;
    return 0;
}

void bus_relay_stop(struct relay *r)
{
    for (int i = 0; r && i < r->n; i++)
        bus__shard_stop(r->shard[i]);
}

void bus_relay_free(struct relay *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n; i++)
        bus__shard_free(r->shard[i]);
    free(r);
}
