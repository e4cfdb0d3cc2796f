/* In-process bus: see bus.h. */
#include "bus/bus.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/jsonout.h"
#include "core/log.h"

struct bus {
    struct inbox *inbox; /* to the I/O thread; shut by bus_close, freed by bus_free */
    bus_deliver_fn fn;
    void *user;
    atomic_ulong published;
    int closing; /* the I/O thread's: delivers no more */
    bus_relay_fn relay;
    void *relay_user;
    bus_relay_fn observe;
    void *observe_user;
};

static void event_free(struct bus_event *ev)
{
    json_decref(ev->control.activity);
    free(ev->payload);
    idset_unref(ev->to);
    free(ev);
}

/* On the I/O thread: one event to the subscriber, then freed. */
static void deliver(struct job *item, void *ctx)
{
    (void)ctx;
    struct bus_event *ev = JOB_OF(item, struct bus_event, item);
    struct bus *b = ev->bus;
    if (b->fn && !b->closing)
        b->fn(b->user, ev);
    event_free(ev);
}

struct bus *bus_new(uv_loop_t *loop)
{
    struct bus *b = calloc(1, sizeof *b);
    /* After the I/O callbacks: an answer that reaches the loop with its events is written before
     * they go out to every connected recipient (tens of milliseconds in a large server). */
    if (!b || !(b->inbox = inbox_new_after_io(loop))) {
        free(b);
        return NULL;
    }
    return b;
}

void bus_subscribe(struct bus *b, bus_deliver_fn fn, void *user)
{
    b->fn = fn;
    b->user = user;
}

static void where_id(char out[UUID_LEN + 1], const char *id, size_t len)
{
    out[0] = '\0';
    if (id && len == UUID_LEN && uuid_valid(id, len)) {
        memcpy(out, id, UUID_LEN);
        out[UUID_LEN] = '\0';
    }
}

struct bus_where bus_where_of(const char *server, const char *channel, const char *room,
                              const char *message, const char *user)
{
    struct bus_where w;
    const char *ids[] = {server, channel, room, message, user};
    char *outs[] = {w.server, w.channel, w.room, w.message, w.user};
    for (int i = 0; i < 5; i++)
        where_id(outs[i], ids[i], ids[i] ? strlen(ids[i]) : 0);
    return w;
}

void bus_where_text(const struct bus_where *w, char out[BUS_WHERE_TEXT])
{
    snprintf(out, BUS_WHERE_TEXT, "%s,%s,%s,%s,%s", w->server, w->channel, w->room, w->message,
             w->user);
}

struct bus_where bus_where_parse(const char *text, size_t len)
{
    struct bus_where w;
    char *outs[] = {w.server, w.channel, w.room, w.message, w.user};
    const char *end = text + len;
    for (int i = 0; i < 5; i++) {
        const char *comma = text < end ? memchr(text, ',', (size_t)(end - text)) : NULL;
        const char *stop = comma ? comma : end;
        where_id(outs[i], text < end ? text : NULL, text < end ? (size_t)(stop - text) : 0);
        text = comma ? comma + 1 : end;
    }
    return w;
}

static enum bus_kind kind_of(const char *name)
{
    static const struct {
        const char *name;
        enum bus_kind kind;
    } CONTROL[] = {{BUS_DISCONNECT, BUS_KIND_DISCONNECT},
                   {BUS_SWEEP, BUS_KIND_SWEEP},
                   {BUS_VOICE_REVIEW, BUS_KIND_VOICE_REVIEW},
                   {BUS_PRESENCE, BUS_KIND_PRESENCE}};
    if (strncmp(name, "__", 2))
        return BUS_KIND_CLIENT;
    for (size_t i = 0; i < sizeof CONTROL / sizeof *CONTROL; i++)
        if (!strcmp(name, CONTROL[i].name))
            return CONTROL[i].kind;
    return BUS_KIND_CLIENT;
}

static struct bus_event *event_new(const char *name, char *payload, size_t len, struct idset *to)
{
    struct bus_event *ev = calloc(1, sizeof *ev);
    if (!ev) {
        free(payload);
        idset_unref(to);
        return NULL;
    }
    ev->payload = payload;
    ev->payload_len = len;
    ev->to = to;
    slice_copy(slice_from(name), ev->name, sizeof ev->name);
    ev->kind = kind_of(name);
    /* A control that came as text (from another node): read once, here. */
    if (ev->kind != BUS_KIND_CLIENT && bus_control_read(ev->kind, payload, len, &ev->control))
        log_warn("bus: a %s that says nothing readable", name);
    return ev;
}

static void enqueue(struct bus *b, struct bus_event *first, struct bus_event *last,
                    unsigned long n);

static const char *control_name(enum bus_kind kind)
{
    switch (kind) {
    case BUS_KIND_DISCONNECT:
        return BUS_DISCONNECT;
    case BUS_KIND_SWEEP:
        return BUS_SWEEP;
    case BUS_KIND_VOICE_REVIEW:
        return BUS_VOICE_REVIEW;
    case BUS_KIND_PRESENCE:
        return BUS_PRESENCE;
    case BUS_KIND_CLIENT:
        break;
    }
    return "";
}

/* A control event made here: its fields as given (taken), and its text for the relay. */
static struct bus_event *control_new(enum bus_kind kind, struct bus_control *c, struct idset *to)
{
    size_t len = 0;
    char *text = bus_control_text(kind, c, &len);
    struct bus_event *ev = text ? calloc(1, sizeof *ev) : NULL;
    if (!ev) {
        free(text);
        json_decref(c->activity);
        idset_unref(to);
        return NULL;
    }
    ev->payload = text;
    ev->payload_len = len;
    ev->to = to;
    ev->kind = kind;
    ev->control = *c;
    snprintf(ev->name, sizeof ev->name, "%s", control_name(kind));
    return ev;
}

int bus_publish_control(struct bus *b, enum bus_kind kind, struct bus_control *c, struct idset *to,
                        int here_only)
{
    struct bus_event *ev = control_new(kind, c, to);
    if (!ev)
        return -1;
    ev->from_peer = here_only;
    enqueue(b, ev, ev, 1);
    return 0;
}

static void held_append(struct bus_held *h, struct bus_event *ev)
{
    if (h->tail)
        h->tail->next = ev;
    else
        h->head = ev;
    h->tail = ev;
}

int bus_hold_control(struct bus_held *h, enum bus_kind kind, struct bus_control *c,
                     struct idset *to)
{
    struct bus_event *ev = control_new(kind, c, to);
    if (!ev)
        return -1;
    held_append(h, ev);
    return 0;
}

void bus_set_relay(struct bus *b, bus_relay_fn fn, void *user)
{
    b->relay = fn;
    b->relay_user = user;
}

void bus_set_observer(struct bus *b, bus_relay_fn fn, void *user)
{
    b->observe = fn;
    b->observe_user = user;
}

/* Appends the list first..last (n events) and wakes the loop once. */
static void enqueue(struct bus *b, struct bus_event *first, struct bus_event *last, unsigned long n)
{
    for (struct bus_event *ev = first; ev; ev = ev->next) {
        /* Every node must hear of a disconnect, a voice review or a presence change; a sweep
         * is each node's own (every node hears of the other process's commit). */
        if (b->relay && !ev->from_peer &&
            (ev->to || (ev->kind != BUS_KIND_CLIENT && ev->kind != BUS_KIND_SWEEP)))
            b->relay(b->relay_user, ev);
        if (b->observe && !ev->from_peer && ev->kind == BUS_KIND_CLIENT)
            b->observe(b->observe_user, ev);
        ev->bus = b;
        ev->item.run = deliver;
        ev->item.next = ev->next ? &ev->next->item : NULL;
    }
    atomic_fetch_add(&b->published, n); /* before: delivery may start at once */
    if (inbox_post_list(b->inbox, &first->item, &last->item)) {
        /* shutting down: the loop no longer delivers (the writer may still log) */
        atomic_fetch_sub(&b->published, n);
        for (struct bus_event *ev = first, *next; ev; ev = next) {
            next = ev->next;
            event_free(ev);
        }
    }
}

uint32_t bus_route(const char *id)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *p = id; p && *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return id ? h : 0;
}

/* Its header, and the stream shard that carries it: its user's when it is addressed to one (it
 * is in that user's stream, wherever it happened), else its server's. */
static void place(struct bus_event *ev, const struct bus_where *where)
{
    if (!where)
        return;
    ev->where = *where;
    const char *by = where->user[0] ? where->user : where->server[0] ? where->server : NULL;
    ev->route = bus_route(by);
}

static int publish(struct bus *b, const char *name, char *payload, size_t len, struct idset *to,
                   uint64_t position, const struct bus_where *where, int from_peer)
{
    struct bus_event *ev = event_new(name, payload, len, to);
    if (!ev)
        return -1;
    ev->position = position;
    ev->from_peer = from_peer;
    place(ev, where);
    enqueue(b, ev, ev, 1);
    return 0;
}

int bus_publish_at(struct bus *b, const char *name, char *payload, size_t len, struct idset *to,
                   uint64_t position, const struct bus_where *where)
{
    return publish(b, name, payload, len, to, position, where, 0);
}

int bus__publish_peer(struct bus *b, const char *name, char *payload, size_t len, struct idset *to,
                      uint64_t position, const struct bus_where *where)
{
    return publish(b, name, payload, len, to, position, where, 1);
}

int bus__publish_local(struct bus *b, const char *name, char *payload, size_t len, struct idset *to)
{
    return publish(b, name, payload, len, to, 0, NULL, 1);
}

int bus_publish(struct bus *b, const char *name, char *payload, size_t len, struct idset *to)
{
    return publish(b, name, payload, len, to, 0, NULL, 0);
}

int bus_publish_json(struct bus *b, const char *name, json_t *payload, struct idset *to,
                     int here_only)
{
    size_t len = 0;
    char *text = jsonout_dump(payload, &len);
    json_decref(payload);
    if (!text) {
        idset_unref(to);
        return -1;
    }
    return publish(b, name, text, len, to, 0, NULL, here_only);
}

uint64_t *bus_hold(struct bus_held *h, const char *name, char *payload, size_t len,
                   struct idset *to, uint64_t position, const struct bus_where *where)
{
    struct bus_event *ev = event_new(name, payload, len, to);
    if (!ev)
        return NULL;
    ev->position = position;
    place(ev, where);
    held_append(h, ev);
    return &ev->position;
}

void bus_held_drop_last(struct bus_held *h)
{
    struct bus_event *before = NULL;
    for (struct bus_event *ev = h->head; ev && ev != h->tail; ev = ev->next)
        before = ev;
    if (!h->tail)
        return;
    event_free(h->tail);
    h->tail = before;
    if (before)
        before->next = NULL;
    else
        h->head = NULL;
}

void bus_publish_held(struct bus *b, struct bus_held *h)
{
    unsigned long n = 0;
    for (struct bus_event *ev = h->head; ev; ev = ev->next)
        n++;
    if (n)
        enqueue(b, h->head, h->tail, n);
    h->head = h->tail = NULL;
}

void bus_held_drop(struct bus_held *h)
{
    for (struct bus_event *ev = h->head, *next; ev; ev = next) {
        next = ev->next;
        event_free(ev);
    }
    h->head = h->tail = NULL;
}

unsigned long bus_published(struct bus *b)
{
    return atomic_load(&b->published);
}

void bus_close(struct bus *b)
{
    if (!b)
        return;
    b->closing = 1;
    inbox_shut(b->inbox);
}

void bus_free(struct bus *b)
{
    if (!b)
        return;
    inbox_free(b->inbox);
    free(b);
}
