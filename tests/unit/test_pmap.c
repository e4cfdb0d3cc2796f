/*
 * Persistent maps against a plain array: random puts and deletes, with every earlier version
 * kept and checked unchanged afterwards, values released exactly once, and no node left behind
 * (ASan's leak check).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pmap.h"

#define KEYS     3000
#define VERSIONS 40

struct item {
    struct pmap_value v;
    char key[16];
    int value;
};

static int live; /* items not yet released */

static const char *item_key(const struct pmap_value *v)
{
    return ((const struct item *)v)->key;
}

static void item_free(struct pmap_value *v)
{
    live--;
    free(v);
}

static struct item *item_new(int k, int value)
{
    struct item *it = calloc(1, sizeof *it);
    cr_assert_not_null(it);
    atomic_init(&it->v.refs, 1);
    it->v.release = item_free;
    snprintf(it->key, sizeof it->key, "k%d", k);
    it->value = value;
    live++;
    return it;
}

static int get(const struct pmap *m, int k)
{
    char key[16];
    snprintf(key, sizeof key, "k%d", k);
    const struct item *it = (const struct item *)pmap_get(m, key);
    return it ? it->value : -1;
}

static unsigned rng = 12345;
static unsigned rnd(unsigned n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

struct tally {
    size_t n;
    long sum;
};
static void add(struct pmap_value *v, void *arg)
{
    struct tally *t = arg;
    t->n++;
    t->sum += ((struct item *)v)->value;
}

/* VERSIONS versions of one map and, in model, what each holds (-1: absent): the first built in
 * place, each later one a copy changed by `changes(v)` random puts and deletes. Values are
 * unique, so two versions hold the same value under a key only when they share it. */
static void make_versions(int model[VERSIONS][KEYS], struct pmap versions[VERSIONS], int first,
                          int (*changes)(int v))
{
    struct pmap m;
    pmap_init(&m, item_key);
    for (int k = 0; k < KEYS; k++)
        model[0][k] = -1;
    for (int v = 0; v < VERSIONS; v++) {
        if (v)
            memcpy(model[v], model[v - 1], sizeof model[v]);
        for (int step = 0; step < (v ? changes(v) : first); step++) {
            int k = (int)rnd(KEYS);
            if (v && rnd(3) == 0) {
                char key[16];
                snprintf(key, sizeof key, "k%d", k);
                cr_assert_eq(pmap_del(&m, key), model[v][k] >= 0);
                model[v][k] = -1;
            } else {
                struct item *it = item_new(k, v * 1000000 + step);
                cr_assert_eq(pmap_put(&m, &it->v), 0);
                model[v][k] = it->value;
                pmap_value_unref(&it->v);
            }
        }
        versions[v] = m;
        m = pmap_copy(&versions[v]);
    }
    pmap_cleanup(&m);
}

static int two_hundred(int v)
{
    (void)v;
    return 200;
}

Test(pmap, versions_stay_as_they_were)
{
    static int model[VERSIONS][KEYS];
    struct pmap versions[VERSIONS];
    make_versions(model, versions, KEYS, two_hundred);
    for (int v = 0; v < VERSIONS; v++) {
        struct tally want = {0, 0}, got = {0, 0};
        for (int k = 0; k < KEYS; k++) {
            cr_assert_eq(get(&versions[v], k), model[v][k], "version %d key %d", v, k);
            if (model[v][k] >= 0) {
                want.n++;
                want.sum += model[v][k];
            }
        }
        pmap_each(&versions[v], add, &got);
        cr_assert_eq(got.n, want.n, "version %d: every value once", v);
        cr_assert_eq(got.sum, want.sum);
        cr_assert_eq(versions[v].count, want.n);
    }
    for (int v = 0; v < VERSIONS; v++)
        pmap_cleanup(&versions[v]);
    cr_assert_eq(live, 0, "every value released once");
}

Test(pmap, empties_and_replaces)
{
    struct pmap m;
    pmap_init(&m, item_key);
    cr_assert_null(pmap_get(&m, "k1"));
    cr_assert_eq(pmap_del(&m, "k1"), 0);
    struct item *a = item_new(1, 10), *b = item_new(1, 20);
    cr_assert_eq(pmap_put(&m, &a->v), 0);
    struct pmap old = pmap_copy(&m);
    cr_assert_eq(pmap_put(&m, &b->v), 0, "the same key again replaces");
    cr_assert_eq(m.count, 1);
    cr_assert_eq(get(&m, 1), 20);
    cr_assert_eq(get(&old, 1), 10, "the copy kept the first");
    pmap_value_unref(&a->v);
    pmap_value_unref(&b->v);
    cr_assert_eq(pmap_del(&m, "k1"), 1);
    cr_assert_eq(m.count, 0);
    cr_assert_null(m.root, "an empty map holds no node");
    pmap_cleanup(&old);
    cr_assert_eq(live, 0);
}

/* ---- diff ---- */

struct seen {
    const int *from, *to;
    unsigned char called[KEYS];
    size_t calls;
};

static void on_diff(struct pmap_value *old, struct pmap_value *now, void *arg)
{
    struct seen *s = arg;
    const struct item *a = (const struct item *)old, *b = (const struct item *)now;
    cr_assert(a || b);
    int k = atoi((a ? a : b)->key + 1);
    cr_assert(!a || !b || !strcmp(a->key, b->key), "one key");
    cr_assert(!s->called[k]++, "key %d reported once", k);
    cr_assert_eq(a ? a->value : -1, s->from[k], "old value of key %d", k);
    cr_assert_eq(b ? b->value : -1, s->to[k], "new value of key %d", k);
    s->calls++;
}

/* The difference between any two versions names every key that differs, each once, with both
 * values; a version against itself names none. */
static int growing(int v)
{
    return 1 + (int)rnd((unsigned)v * 20);
}

Test(pmap, diff_names_what_differs)
{
    static int model[VERSIONS][KEYS];
    struct pmap versions[VERSIONS];
    make_versions(model, versions, KEYS / 2, growing);
    for (int i = 0; i < 200; i++) {
        int a = (int)rnd(VERSIONS), b = i < VERSIONS ? a : (int)rnd(VERSIONS);
        static struct seen s;
        memset(&s, 0, sizeof s);
        s.from = model[a];
        s.to = model[b];
        cr_assert_eq(pmap_diff(&versions[a], &versions[b], on_diff, &s), 0);
        size_t want = 0;
        for (int k = 0; k < KEYS; k++) {
            want += model[a][k] != model[b][k];
            cr_assert_eq(s.called[k], model[a][k] != model[b][k], "%d→%d key %d", a, b, k);
        }
        cr_assert_eq(s.calls, want);
    }
    struct pmap empty;
    pmap_init(&empty, item_key);
    struct seen s = {.from = model[0], .to = model[0]};
    static int none[KEYS];
    for (int k = 0; k < KEYS; k++)
        none[k] = -1;
    s.to = none;
    cr_assert_eq(pmap_diff(&versions[0], &empty, on_diff, &s), 0);
    cr_assert_eq(s.calls, versions[0].count, "everything removed");
    for (int v = 0; v < VERSIONS; v++)
        pmap_cleanup(&versions[v]);
    cr_assert_eq(live, 0);
}
