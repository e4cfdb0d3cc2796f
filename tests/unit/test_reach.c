/* An audience's connected users, kept between events: the same users as matching the audience
 * against who is connected, after connects, leaves, drops during a walk, walks within walks and
 * more audiences than are kept. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/reach.h"

#define USERS 200

static struct gateway *gw;
static struct conn *conns[USERS]; /* one connection per user, or NULL */

static void id_of(int i, char out[UUID_LEN + 1])
{
    snprintf(out, UUID_LEN + 1, "01a1fe3b-0000-7000-8000-%012d", i);
}

static int user_of(const struct conn *c)
{
    return atoi(c->user_id + 24);
}

static void connect_user(int i)
{
    struct conn *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    id_of(i, c->user_id);
    c->next = map_get(&gw->users, c->user_id);
    map_set(&gw->users, c->user_id, c);
    conns[i] = c;
    gateway__reach_changed(gw);
}

static void leave_user(int i)
{
    map_remove(&gw->users, conns[i]->user_id);
    free(conns[i]);
    conns[i] = NULL;
    gateway__reach_changed(gw);
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

/* Each connected user of [from, to) seen once, no one else. */
static void assert_reached(const struct walk *w, int from, int to, int skip)
{
    for (int i = 0; i < USERS; i++) {
        int want = i >= from && i < to && i != skip && conns[i] ? 1 : 0;
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
    struct conn *second = calloc(1, sizeof *second);
    id_of(7, second->user_id);
    second->next = map_get(&gw->users, second->user_id);
    map_set(&gw->users, second->user_id, second);
    gateway__reach_changed(gw);
    walk_init(&w);
    gateway__reach_each(gw, to, note, &w);
    cr_assert_eq(w.seen[7], 2);
    map_set(&gw->users, second->user_id, conns[7]);
    free(second);
    gateway__reach_changed(gw);
    idset_unref(to);
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
