/*
 * Kept reach: see reach.h. A few audiences are kept (a busy node's few busy channels), each
 * holding a reference to its set, so a set's address names one audience for as long as it is
 * kept. Every connect and leave makes them stale; a stale one is made again on its next use,
 * at the cost every event paid before.
 */
#include "gateway/reach.h"

#include <stdlib.h>
#include <string.h>

#define REACH_KEPT 4
#define REACH_MIN  64 /* smaller audiences cost less to walk than to keep */

struct reach_list {
    struct idset *to; /* one reference; NULL: an empty place */
    uint64_t made_at; /* gw->reach->changes when made */
    uint64_t used;    /* the last walk's tick: the least recently used goes first */
    char (*ids)[UUID_LEN + 1];
    struct conn **first; /* valid while no one has connected or left since made_at */
    size_t n;
    int walking; /* a walk is under way: not made again or dropped meanwhile */
};

struct reach {
    struct reach_list lists[REACH_KEPT];
    uint64_t changes, tick;
};

static void list_clear(struct reach_list *l)
{
    idset_unref(l->to);
    free(l->ids);
    free(l->first);
    memset(l, 0, sizeof *l);
}

struct making {
    struct gateway *gw;
    const struct idset *to;
    struct reach_list *l;
};

static void keep_user(struct making *m, const char *id, struct conn *first)
{
    memcpy(m->l->ids[m->l->n], id, UUID_LEN + 1);
    m->l->first[m->l->n++] = first;
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
static int list_make(struct gateway *gw, struct idset *to, struct reach_list *l)
{
    size_t cap = gw->users.count < idset_count(to) ? gw->users.count : idset_count(to);
    l->ids = malloc((cap ? cap : 1) * sizeof *l->ids);
    l->first = malloc((cap ? cap : 1) * sizeof *l->first);
    if (!l->ids || !l->first) {
        list_clear(l);
        return -1;
    }
    struct making m = {gw, to, l};
    if (idset_count(to) <= gw->users.count)
        idset_each(to, keep_if_connected, &m);
    else
        map_each(&gw->users, keep_if_in_audience, &m);
    l->to = idset_ref(to);
    l->made_at = gw->reach ? gw->reach->changes : 0;
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
    if (list_make(gw, to, &l))
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
    if (!l->to && list_make(gw, to, l))
        return;
    l->used = ++gw->reach->tick;
    list_walk(gw, l, fn, arg);
}

void gateway__reach_changed(struct gateway *gw)
{
    if (gw->reach)
        gw->reach->changes++;
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
