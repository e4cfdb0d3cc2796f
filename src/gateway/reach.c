/*
 * Kept reach: see reach.h. A few audiences are kept (a busy node's few busy channels), each
 * holding a reference to its set, so a set's address names one audience for as long as it is
 * kept. A connect or leave changes each kept list in place at a constant cost: a hash lookup in
 * its set, and for a user of the audience the place its first connection holds in the list
 * (conn->reach_at, kept up to date as entries move). A list being walked when someone connects
 * or leaves is not changed under its walker: it goes stale, and is made again on its next use,
 * at the cost every event paid before.
 */
#include "gateway/reach.h"

#include <stdlib.h>
#include <string.h>

#define REACH_KEPT GATEWAY_REACH_KEPT
#define REACH_MIN  64 /* smaller audiences cost less to walk than to keep */

struct reach_list {
    struct idset *to; /* one reference; NULL: an empty place */
    uint64_t made_at; /* gw->reach->changes when made */
    uint64_t used;    /* the last walk's tick: the least recently used goes first */
    char (*ids)[UUID_LEN + 1];
    struct conn **first; /* valid while made_at is the reach's changes */
    size_t n, cap;
    int walking; /* a walk is under way: not made again or dropped meanwhile */
};

struct reach {
    struct reach_list lists[REACH_KEPT];
    uint64_t changes, tick;
    uint64_t made; /* lists made, kept or not */
};

static void list_clear(struct reach_list *l)
{
    idset_unref(l->to);
    free(l->ids);
    free(l->first);
    memset(l, 0, sizeof *l);
}

/* Entry i of the kept list in place `slot` is `first`; a list walked once has no place. */
static void put(struct reach_list *l, int slot, size_t i, struct conn *first)
{
    l->first[i] = first;
    if (slot >= 0)
        first->reach_at[slot] = (uint32_t)i;
}

struct making {
    struct gateway *gw;
    const struct idset *to;
    struct reach_list *l;
    int slot;
};

static void keep_user(struct making *m, const char *id, struct conn *first)
{
    memcpy(m->l->ids[m->l->n], id, UUID_LEN + 1);
    put(m->l, m->slot, m->l->n++, first);
}

static void keep_if_connected(const char *id, void *arg)
{
    struct making *m = arg;
    struct conn *first = map_get(&m->gw->users, id);
    if (first)
        keep_user(m, id, first);
}

static void keep_if_in_audience(const char *key, void *value, void *arg)
{
    struct making *m = arg;
    if (idset_has(m->to, key))
        keep_user(m, key, value);
}

/* The smaller of the two sides is walked: a server with many members and few connected costs
 * what the connected ones cost, and the reverse. */
static int list_make(struct gateway *gw, struct idset *to, struct reach_list *l, int slot)
{
    size_t cap = gw->users.count < idset_count(to) ? gw->users.count : idset_count(to);
    l->cap = cap ? cap : 1;
    l->ids = malloc(l->cap * sizeof *l->ids);
    l->first = malloc(l->cap * sizeof *l->first);
    if (!l->ids || !l->first) {
        list_clear(l);
        return -1;
    }
    struct making m = {gw, to, l, slot};
    if (idset_count(to) <= gw->users.count)
        idset_each(to, keep_if_connected, &m);
    else
        map_each(&gw->users, keep_if_in_audience, &m);
    l->to = idset_ref(to);
    l->made_at = gw->reach ? gw->reach->changes : 0;
    if (gw->reach)
        gw->reach->made++;
    return 0;
}

static int list_grow(struct reach_list *l)
{
    size_t cap = l->cap * 2;
    char(*ids)[UUID_LEN + 1] = realloc(l->ids, cap * sizeof *ids);
    if (!ids)
        return -1;
    l->ids = ids;
    struct conn **first = realloc(l->first, cap * sizeof *first);
    if (!first)
        return -1;
    l->first = first;
    l->cap = cap;
    return 0;
}

/* The user's first connection went from was to now (NULL: not connected). -1: the list could
 * not follow, and must be made again. */
static int list_follow(struct reach_list *l, int slot, const char *user_id, struct conn *was,
                       struct conn *now)
{
    if (!idset_has(l->to, user_id))
        return 0;
    if (!was) {
        if (l->n == l->cap && list_grow(l))
            return -1;
        memcpy(l->ids[l->n], user_id, UUID_LEN + 1);
        put(l, slot, l->n++, now);
        return 0;
    }
    size_t i = was->reach_at[slot];
    if (i >= l->n || l->first[i] != was)
        return -1; /* not where it was put: cannot happen while the list is fresh */
    if (now) {
        put(l, slot, i, now);
        return 0;
    }
    l->n--; /* the last one takes its place: a walk's order does not matter */
    put(l, slot, i, l->first[l->n]);
    memcpy(l->ids[i], l->ids[l->n], UUID_LEN + 1);
    return 0;
}

static void list_walk(struct gateway *gw, struct reach_list *l, reach_fn fn, void *arg)
{
    l->walking++;
    for (size_t i = 0; i < l->n; i++) {
        /* A write that drops a slow reader changes who is connected: from there the users are
         * looked up again, as their connections may be gone. */
        struct conn *first = gw->reach && gw->reach->changes == l->made_at
                                 ? l->first[i]
                                 : map_get(&gw->users, l->ids[i]);
        if (first)
            fn(gw, first, arg);
    }
    l->walking--;
}

/* The list kept for `to`, stale or not; else a place for it: an empty one or the least
 * recently used (NULL: every place is being walked). */
static struct reach_list *list_for(struct reach *r, const struct idset *to)
{
    struct reach_list *free_place = NULL;
    for (size_t i = 0; i < REACH_KEPT; i++) {
        struct reach_list *l = &r->lists[i];
        if (l->to == to)
            return l;
        if (!l->walking &&
            (!free_place || !l->to || (free_place->to && l->used < free_place->used)))
            free_place = l;
    }
    return free_place;
}

static void walk_once(struct gateway *gw, struct idset *to, reach_fn fn, void *arg)
{
    struct reach_list l = {0};
    if (list_make(gw, to, &l, -1))
        return;
    list_walk(gw, &l, fn, arg);
    list_clear(&l);
}

struct direct {
    struct gateway *gw;
    reach_fn fn;
    void *arg;
};

static void direct_one(const char *id, void *arg)
{
    struct direct *d = arg;
    struct conn *first = map_get(&d->gw->users, id);
    if (first)
        d->fn(d->gw, first, d->arg);
}

void gateway__reach_each(struct gateway *gw, struct idset *to, reach_fn fn, void *arg)
{
    if (!to)
        return;
    if (idset_count(to) < REACH_MIN) {
        struct direct d = {gw, fn, arg};
        idset_each(to, direct_one, &d);
        return;
    }
    if (!gw->reach)
        gw->reach = calloc(1, sizeof *gw->reach);
    struct reach_list *l = gw->reach ? list_for(gw->reach, to) : NULL;
    if (l && l->to && (l->to != to || l->made_at != gw->reach->changes)) {
        if (l->walking)
            l = NULL; /* stale, and in use by a walk further up: left to it */
        else
            list_clear(l); /* stale, or the least recently used giving way */
    }
    if (!l) {
        walk_once(gw, to, fn, arg);
        return;
    }
    if (!l->to && list_make(gw, to, l, (int)(l - gw->reach->lists)))
        return;
    l->used = ++gw->reach->tick;
    list_walk(gw, l, fn, arg);
}

void gateway__reach_moved(struct gateway *gw, const char *user_id, struct conn *was,
                          struct conn *now)
{
    struct reach *r = gw->reach;
    if (!r || was == now)
        return; /* a connection other than the first came or went: the lists still hold */
    uint64_t before = r->changes++;
    for (size_t i = 0; i < REACH_KEPT; i++) {
        struct reach_list *l = &r->lists[i];
        if (l->to && !l->walking && l->made_at == before &&
            !list_follow(l, (int)i, user_id, was, now))
            l->made_at = r->changes;
    }
}

uint64_t gateway__reach_made(const struct gateway *gw)
{
    return gw->reach ? gw->reach->made : 0;
}

void gateway__reach_free(struct gateway *gw)
{
    if (!gw->reach)
        return;
    for (size_t i = 0; i < REACH_KEPT; i++)
        list_clear(&gw->reach->lists[i]);
    free(gw->reach);
    gw->reach = NULL;
}
