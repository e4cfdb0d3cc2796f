/* An audience's connected users, kept between events: the same users as matching the audience
 * against who is connected, after connects, leaves, second connections, drops during a walk,
 * walks within walks and more audiences than are kept; and the lists follow connects and
 * leaves in place instead of being made again. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/reach.h"

#define USERS 200

static struct gateway *gw;
static struct conn *conns[USERS]; /* each user's first connection (the others follow next) */

static void id_of(int i, char out[UUID_LEN + 1])
{
    snprintf(out, UUID_LEN + 1, "01a1fe3b-0000-7000-8000-%012d", i);
}

static int user_of(const struct conn *c)
{
    return atoi(c->user_id + 24);
}

/* A connection for user i, first in its list as the gateway puts it. */
static void connect_user(int i)
{
    struct conn *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    id_of(i, c->user_id);
    c->next = map_get(&gw->users, c->user_id);
    map_set(&gw->users, c->user_id, c);
    conns[i] = c;
    gateway__reach_moved(gw, c->user_id, c->next, c);
}

/* User i's first connection goes; the next one, if any, becomes the first. */
static void drop_first(int i)
{
    struct conn *was = conns[i];
    conns[i] = was->next;
    if (conns[i])
        map_set(&gw->users, was->user_id, conns[i]);
    else
        map_remove(&gw->users, was->user_id);
    gateway__reach_moved(gw, was->user_id, was, conns[i]);
    free(was);
}

/* User i's last connection goes, which is not the first unless it is the only one. */
static void drop_last(int i)
{
    struct conn **pp = &conns[i];
    while ((*pp)->next)
        pp = &(*pp)->next;
    if (pp == &conns[i]) {
        drop_first(i);
        return;
    }
    struct conn *last = *pp;
    *pp = NULL;
    gateway__reach_moved(gw, last->user_id, conns[i], conns[i]);
    free(last);
}

static void leave_user(int i)
{
    while (conns[i])
        drop_first(i);
}

static int connections_of(int i)
{
    int n = 0;
    for (const struct conn *c = conns[i]; c; c = c->next)
        n++;
    return n;
}

/* The users in [from, to) as an audience. */
static struct idset *audience(int from, int to)
{
    struct idset *s = idset_new((size_t)(to - from));
    char id[UUID_LEN + 1];
    for (int i = from; i < to; i++) {
        id_of(i, id);
        cr_assert_eq(idset_add(s, id), 0);
    }
    return s;
}

struct walk {
    int seen[USERS];
    int drop;             /* this user's connection is dropped when the walk meets `at` */
    int at;               /* -1: none */
    struct idset *nested; /* walked again from within, after a leave, when `at` is met */
    struct walk *inner;
};

static void note(struct gateway *g, struct conn *first, void *arg);

static void walk_init(struct walk *w)
{
    memset(w, 0, sizeof *w);
    w->at = -1;
    w->drop = -1;
}

static void note(struct gateway *g, struct conn *first, void *arg)
{
    struct walk *w = arg;
    for (struct conn *c = first; c; c = c->next)
        w->seen[user_of(c)]++;
    if (user_of(first) != w->at)
        return;
    if (w->drop >= 0)
        leave_user(w->drop);
    if (w->nested) {
        leave_user(w->at + 1);
        gateway__reach_each(g, w->nested, note, w->inner);
    }
}

/* Each connection of the users of [from, to) seen once, no one else's. */
static void assert_reached(const struct walk *w, int from, int to, int skip)
{
    for (int i = 0; i < USERS; i++) {
        int want = i >= from && i < to && i != skip ? connections_of(i) : 0;
        cr_assert_eq(w->seen[i], want, "user %d seen %d times, not %d", i, w->seen[i], want);
    }
}

static void setup(void)
{
    gw = calloc(1, sizeof *gw);
    map_init(&gw->users);
    memset(conns, 0, sizeof conns);
}

static void teardown(void)
{
    for (int i = 0; i < USERS; i++)
        if (conns[i])
            leave_user(i);
    gateway__reach_free(gw);
    map_cleanup(&gw->users);
    free(gw);
}

TestSuite(reach, .init = setup, .fini = teardown);

Test(reach, the_connected_part_of_an_audience_walked_twice)
{
    for (int i = 0; i < USERS; i += 2)
        connect_user(i);
    struct idset *to = audience(0, 150);
    for (int round = 0; round < 2; round++) {
        struct walk w;
        walk_init(&w);
        gateway__reach_each(gw, to, note, &w);
        assert_reached(&w, 0, 150, -1);
    }
    idset_unref(to);
}

Test(reach, follows_who_connects_and_leaves)
{
    for (int i = 0; i < 100; i++)
        connect_user(i);
    struct idset *to = audience(0, 150);
    struct walk w;
    walk_init(&w);
    gateway__reach_each(gw, to, note, &w);
    assert_reached(&w, 0, 150, -1);
    connect_user(120);
    leave_user(3);
    connect_user(199); /* outside the audience */
    walk_init(&w);
    gateway__reach_each(gw, to, note, &w);
    assert_reached(&w, 0, 150, -1);
    cr_assert_eq(w.seen[120], 1);
    cr_assert_eq(w.seen[3], 0);
    /* A second connection of the same user: both are reached through the first. */
    connect_user(7);
    walk_init(&w);
    gateway__reach_each(gw, to, note, &w);
    cr_assert_eq(w.seen[7], 2);
    drop_first(7);
    walk_init(&w);
    gateway__reach_each(gw, to, note, &w);
    assert_reached(&w, 0, 150, -1);
    cr_assert_eq(gateway__reach_made(gw), 1, "made again %d times",
                 (int)gateway__reach_made(gw) - 1);
    idset_unref(to);
}

/* A connected user of [from, to) other than but, from a random place; -1: none. */
static int some_connected(int from, int to, int but)
{
    int start = from + rand() % (to - from);
    for (int k = 0; k < to - from; k++) {
        int i = from + (start - from + k) % (to - from);
        if (conns[i] && i != but)
            return i;
    }
    return -1;
}

/* Random connects, second connections and leaves between walks of three kept audiences, and
 * now and then a user dropped in the middle of a walk: every walk reaches exactly the
 * audience's connections. A list is made again only after a walk of it saw a drop (its
 * remaining users are then looked up by id, which the in-place changes must have kept). */
Test(reach, kept_lists_follow_many_changes_in_place)
{
    srand(7);
    struct idset *sets[3] = {audience(0, 120), audience(60, 200), audience(0, USERS)};
    int from[3] = {0, 60, 0}, to[3] = {120, 200, USERS}, drops = 0;
    for (int i = 0; i < USERS; i += 2)
        connect_user(i);
    for (int step = 0; step < 3000; step++) {
        int i = rand() % USERS, op = rand() % 4;
        if (op == 0 || !conns[i])
            connect_user(i); /* the first, or a further one put first */
        else if (op == 1)
            drop_first(i);
        else if (op == 2)
            drop_last(i);
        else
            leave_user(i);
        if (step % 7 == 0) {
            int k = rand() % 3;
            struct walk w;
            walk_init(&w);
            if (step % 49 == 0 && (w.at = some_connected(from[k], to[k], -1)) >= 0 &&
                (w.drop = some_connected(from[k], to[k], w.at)) >= 0)
                drops++;
            else
                w.at = w.drop = -1;
            gateway__reach_each(gw, sets[k], note, &w);
            if (w.drop >= 0)
                w.seen[w.drop] = 0; /* reached or not, depending on where the walk met it */
            assert_reached(&w, from[k], to[k], w.drop);
        }
    }
    for (int k = 0; k < 3; k++) { /* a list left stale by a drop is made again here */
        struct walk w;
        walk_init(&w);
        gateway__reach_each(gw, sets[k], note, &w);
        assert_reached(&w, from[k], to[k], -1);
    }
    cr_assert_gt(drops, 10);
    cr_assert_eq(gateway__reach_made(gw), 3 + (uint64_t)drops, "lists made %d times, %d drops",
                 (int)gateway__reach_made(gw), drops);
    for (int k = 0; k < 3; k++)
        idset_unref(sets[k]);
}

Test(reach, a_user_dropped_during_the_walk_is_not_touched)
{
    for (int i = 0; i < 100; i++)
        connect_user(i);
    struct idset *to = audience(0, 100);
    struct walk w;
    walk_init(&w);
    gateway__reach_each(gw, to, note, &w); /* kept, in the audience's order */
    walk_init(&w);
    w.at = 0;
    w.drop = 99; /* met after 0: freed by then (ASan sees a use) */
    gateway__reach_each(gw, to, note, &w);
    cr_assert_null(conns[99]);
    assert_reached(&w, 0, 100, -1);
    /* The list being walked went stale when 99 left: made again once, then kept. */
    for (int round = 0; round < 2; round++) {
        walk_init(&w);
        gateway__reach_each(gw, to, note, &w);
        assert_reached(&w, 0, 100, -1);
    }
    cr_assert_eq(gateway__reach_made(gw), 2);
    idset_unref(to);
}

Test(reach, a_walk_within_a_walk_after_a_leave)
{
    for (int i = 0; i < 100; i++)
        connect_user(i);
    struct idset *to = audience(0, 100);
    struct walk outer, inner;
    walk_init(&outer);
    walk_init(&inner);
    gateway__reach_each(gw, to, note, &outer);
    walk_init(&outer);
    outer.at = 10;
    outer.nested = to; /* 11 leaves, then the same audience is walked again inside */
    outer.inner = &inner;
    gateway__reach_each(gw, to, note, &outer);
    assert_reached(&inner, 0, 100, 11);
    assert_reached(&outer, 0, 100, -1); /* 11 left before the outer walk met it */
    /* Afterwards the kept list is made again without 11. */
    struct walk after;
    walk_init(&after);
    gateway__reach_each(gw, to, note, &after);
    assert_reached(&after, 0, 100, 11);
    idset_unref(to);
}

Test(reach, more_audiences_than_are_kept_and_small_ones)
{
    for (int i = 0; i < USERS; i += 3)
        connect_user(i);
    struct idset *sets[7];
    for (int k = 0; k < 7; k++)
        sets[k] = k == 6 ? audience(10, 20) : audience(k * 10, k * 10 + 100);
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < 7; k++) {
            struct walk w;
            walk_init(&w);
            gateway__reach_each(gw, sets[k], note, &w);
            if (k == 6)
                assert_reached(&w, 10, 20, -1);
            else
                assert_reached(&w, k * 10, k * 10 + 100, -1);
        }
        connect_user(round * 3 + 1);
    }
    for (int k = 0; k < 7; k++)
        idset_unref(sets[k]);
}

Test(reach, an_audience_larger_than_who_is_connected)
{
    for (int i = 0; i < 70; i++)
        connect_user(i * 2);
    struct idset *to = audience(0, USERS);
    struct walk w;
    walk_init(&w);
    gateway__reach_each(gw, to, note, &w);
    assert_reached(&w, 0, USERS, -1);
    gateway__reach_each(gw, NULL, note, &w); /* nobody */
    idset_unref(to);
}

Test(reach, a_small_audience_on_a_fresh_gateway_with_a_drop)
{
    for (int i = 0; i < 20; i++)
        connect_user(i);
    struct idset *to = audience(0, 20);
    struct walk w;
    walk_init(&w);
    w.at = 0;
    w.drop = 19;
    gateway__reach_each(gw, to, note, &w);
    assert_reached(&w, 0, 20, -1);
    idset_unref(to);
}

Test(reach, a_large_audience_on_a_fresh_gateway_with_a_drop)
{
    for (int i = 0; i < 100; i++)
        connect_user(i);
    struct idset *to = audience(0, 100);
    struct walk w;
    walk_init(&w);
    w.at = 0;
    w.drop = 99;
    gateway__reach_each(gw, to, note, &w); /* made and walked at once */
    assert_reached(&w, 0, 100, -1);
    idset_unref(to);
}
