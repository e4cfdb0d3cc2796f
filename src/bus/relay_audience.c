/*
 * Large audiences through the stream by reference. An event names its recipients so that another
 * node needs no state to know whom it is for, at 37 bytes each: a message in a channel that
 * 100,000 people can see would be an entry of 3.7 MB, parsed by every node, and Redis would keep
 * 10,000 such entries. The sets are shared and never change (core/idset.h): while one is held
 * here its address names it, so the writing side puts a logged event's audience of
 * audience_ref_min users or more under a key once (SET … PX, queued ahead of the entry that
 * names it, so Redis has it before anyone reads that entry) and names it "#N" in that event and
 * the next ones to the same set, for SENT_FOR_MS; then it is put under a new key. The following
 * side reads a key the first time one of its events comes, keeps up to RELAY_AUDIENCES until one
 * has not been named for KEPT_FOR_MS, and publishes the events in their order once it has the set.
 * An event whose audience cannot be read (its key expired, an entry not appended, Redis lost) is
 * dropped here: it is logged, so the gateway's sequence reads it from the event log after its short
 * wait and delivers it to whoever here may receive it then, as it does for any entry that never
 * came. Nodes of an older build do the same with every event named by reference.
 */
#include <hiredis/async.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus.h"
#include "bus/relay_entry.h"
#include "bus/relay_private.h"
#include "core/clock.h"
#include "core/log.h"

#define SENT_FOR_MS 5000  /* a key is named for this long after it was put (it lives twice that) */
#define KEPT_FOR_MS 10000 /* a set read here and not named since is let go */

/* ---- the writing side ---- */

/* A new key for `to`, in an empty place or the oldest key's. */
static struct relay_audience_sent *place_for(struct relay_shard *r, struct idset *to, int64_t now,
                                             int *define)
{
    struct relay_audience_sent *slot = NULL;
    for (size_t i = 0; i < RELAY_AUDIENCES; i++) {
        struct relay_audience_sent *s = &r->sent[i];
        if (!slot || (slot->to && (!s->to || s->at_ms < slot->at_ms)))
            slot = s;
    }
    idset_unref(slot->to);
    slot->to = idset_ref(to);
    slot->ref = ++r->audience_refs;
    slot->at_ms = now;
    *define = 1;
    return slot;
}

uint64_t bus__audience_out(struct relay_shard *r, const struct bus_event *ev, int *define)
{
    *define = 0;
    if (!ev->position || !ev->to || idset_count(ev->to) < r->audience_ref_min)
        return 0; /* most events: no lock taken */
    int64_t now = clock_mono_ms();
    pthread_mutex_lock(&r->lock);
    struct relay_audience_sent *slot = NULL;
    for (size_t i = 0; i < RELAY_AUDIENCES; i++) {
        struct relay_audience_sent *s = &r->sent[i];
        /* One no longer named is let go (an old version of a channel's audience is megabytes
         * in a large server), and so is each after a lost entry: its key may not be there. */
        if (s->to && (r->audiences_lost || now - s->at_ms >= SENT_FOR_MS)) {
            idset_unref(s->to);
            s->to = NULL;
        }
        if (s->to == ev->to)
            slot = s;
    }
    r->audiences_lost = 0;
    if (!slot)
        slot = place_for(r, ev->to, now, define);
    uint64_t ref = slot->ref;
    pthread_mutex_unlock(&r->lock);
    return ref;
}

/* ---- the following side ---- */

/* An event waiting for its audience to be read. */
struct relay_audience_wait {
    struct relay_audience_wait *next;
    char name[48];
    char *payload;
    size_t len;
    uint64_t position;
    struct bus_where where;
};

static void publish(struct relay_shard *r, struct relay_audience_wait *w, struct idset *to)
{
    bus__publish_peer(r->bus, w->name, w->payload, w->len, idset_ref(to), w->position, &w->where);
    w->payload = NULL; /* the bus owns it */
}

/* Publishes the events waiting in k with its set, or drops them without one. */
static void settle(struct relay_shard *r, struct relay_audience_kept *k)
{
    for (struct relay_audience_wait *w = k->waiting, *next; w; w = next) {
        next = w->next;
        if (k->to)
            publish(r, w, k->to);
        free(w->payload);
        free(w);
    }
    k->waiting = NULL;
    k->waiting_end = &k->waiting;
}

static void forget(struct relay_audience_kept *k)
{
    idset_unref(k->to);
    memset(k, 0, sizeof *k);
}

static void on_read_key(redisAsyncContext *ac, void *reply_, void *arg)
{
    struct relay_audience_kept *k = arg;
    struct relay_shard *r = ac->data;
    redisReply *reply = reply_;
    if (reply && reply->type == REDIS_REPLY_STRING && !r->stopping)
        k->to = bus__audience_parse(reply->str, reply->len);
    if (!k->to && !r->stopping)
        log_warn("relay: audience %llu of node %s could not be read; its events come from the "
                 "event log",
                 (unsigned long long)k->ref, k->node);
    settle(r, k);
    if (!k->to)
        forget(k);
}

/* The place of node's audience ref: kept, being read, or taken for it (NULL: every place is
 * being read). */
static struct relay_audience_kept *kept_for(struct relay_shard *r, const char *node, uint64_t ref)
{
    int64_t now = clock_mono_ms();
    struct relay_audience_kept *free_place = NULL;
    for (size_t i = 0; i < RELAY_AUDIENCES; i++) {
        struct relay_audience_kept *k = &r->kept[i];
        if (k->to && now - k->used_ms >= KEPT_FOR_MS)
            forget(k); /* its node names a newer one by now */
        if (k->ref == ref && !strcmp(k->node, node))
            return k;
        if (k->ref && !k->to)
            continue; /* being read */
        if (!free_place || (free_place->ref && (!k->ref || k->used < free_place->used)))
            free_place = k;
    }
    if (free_place)
        forget(free_place);
    return free_place;
}

struct idset *bus__audience_in(struct relay_shard *r, const char *node, uint64_t ref,
                               const char *name, const char *payload, size_t len, uint64_t position,
                               const struct bus_where *where)
{
    struct relay_audience_kept *k = position && r->in ? kept_for(r, node, ref) : NULL;
    if (k && k->to) {
        k->used = ++r->kept_tick;
        k->used_ms = clock_mono_ms();
        return idset_ref(k->to);
    }
    struct relay_audience_wait *w = k ? calloc(1, sizeof *w) : NULL;
    if (w && !(w->payload = malloc(len + 1))) {
        free(w);
        w = NULL;
    }
    if (!w) {
        log_error("relay: %s from node %s dropped: no place for its audience", name, node);
        return NULL;
    }
    snprintf(w->name, sizeof w->name, "%s", name);
    memcpy(w->payload, payload, len);
    w->payload[len] = '\0';
    w->len = len;
    w->position = position;
    w->where = *where;
    k->used = ++r->kept_tick;
    k->used_ms = clock_mono_ms();
    int first = !k->ref;
    if (first) {
        snprintf(k->node, sizeof k->node, "%s", node);
        k->ref = ref;
        k->waiting_end = &k->waiting;
    }
    *k->waiting_end = w;
    k->waiting_end = &w->next;
    if (first) {
        char key[RELAY_AUDIENCE_KEY_MAX];
        bus__audience_key(key, r->stream, node, ref);
        if (redisAsyncCommand(r->in, on_read_key, k, "GET %s", key) != REDIS_OK) {
            settle(r, k); /* a connection going away: never answered, so dropped now */
            forget(k);
        }
    }
    return NULL;
}

void bus__audiences_free(struct relay_shard *r)
{
    for (size_t i = 0; i < RELAY_AUDIENCES; i++) {
        struct relay_audience_kept *k = &r->kept[i];
        idset_unref(r->sent[i].to);
        idset_unref(k->to);
        k->to = NULL; /* nothing is published now: what waits is dropped */
        settle(r, k);
        memset(k, 0, sizeof *k);
    }
}
