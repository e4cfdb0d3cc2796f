/* Shared ID sets: membership, repeats, capacity and bad IDs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/idset.h"

static const char A[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000000a";
static const char B[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000000b";
static const char C[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000000c";

/* The IDs in the order idset_each gives them, joined by spaces. */
static char order[256];
static void note(const char *id, void *arg)
{
    (void)arg;
    strcat(order, order[0] ? " " : "");
    strcat(order, id + UUID_LEN - 1);
}
static const char *order_of(const struct idset *s)
{
    order[0] = '\0';
    idset_each(s, note, NULL);
    return order;
}

Test(idset, holds_what_was_added_once_in_order)
{
    struct idset *s = idset_new(2);
    cr_assert_eq(idset_add(s, B), 0);
    cr_assert_eq(idset_add(s, A), 0);
    cr_assert_eq(idset_add(s, B), 0, "a repeat is not an error");
    cr_assert_eq(idset_count(s), 2);
    cr_assert_str_eq(order_of(s), "b a");
    cr_assert(idset_has(s, A) && idset_has(s, B));
    cr_assert(!idset_has(s, C));
    cr_assert_eq(idset_add(s, C), -1, "full");
    cr_assert_eq(idset_add(s, "short"), -1);
    cr_assert(!idset_has(s, "01a1fe3b"));
    idset_unref(s);
}

Test(idset, takes_ids_out_of_a_list_by_their_length)
{
    char list[3 * (UUID_LEN + 1)];
    snprintf(list, sizeof list, "%s,%s,%s", A, B, A);
    struct idset *s = idset_new(3);
    cr_assert_eq(idset_add_n(s, list, UUID_LEN), 0);
    cr_assert_eq(idset_add_n(s, list + UUID_LEN + 1, UUID_LEN), 0);
    cr_assert_eq(idset_add_n(s, list + 2 * (UUID_LEN + 1), UUID_LEN), 0, "a repeat");
    cr_assert_eq(idset_count(s), 2);
    cr_assert(idset_has(s, A) && idset_has(s, B), "kept as whole, terminated IDs");
    cr_assert_str_eq(order_of(s), "a b");
    cr_assert_eq(idset_add_n(s, list, UUID_LEN + 1), -1, "the comma is not part of an ID");
    cr_assert_eq(idset_add_n(s, list, UUID_LEN - 1), -1);
    cr_assert_eq(idset_add_n(s, list, 0), -1);
    idset_unref(s);
}

Test(idset, of_an_array_and_shared_references)
{
    const char ids[3][UUID_LEN + 1] = {"", "", ""};
    char(*copy)[UUID_LEN + 1] = (char(*)[UUID_LEN + 1]) ids;
    memcpy(copy[0], A, sizeof A);
    memcpy(copy[1], C, sizeof C);
    memcpy(copy[2], A, sizeof A);
    struct idset *s = idset_of(ids, 3);
    cr_assert_eq(idset_count(s), 2);
    struct idset *again = idset_ref(s);
    idset_unref(s);
    cr_assert(idset_has(again, C), "still alive through the second reference");
    idset_unref(again);
    idset_unref(NULL);
    cr_assert_eq(idset_count(NULL), 0);
    struct idset *empty = idset_of(NULL, 0);
    cr_assert_eq(idset_count(empty), 0);
    cr_assert(!idset_has(empty, A));
    idset_unref(empty);
}

Test(idset, union_of_the_small_sets_but_one_id)
{
    static const char D[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000000d";
    struct idset *ab = idset_new(2), *bc = idset_new(2), *big = idset_new(3);
    idset_add(ab, A);
    idset_add(ab, B);
    idset_add(bc, B);
    idset_add(bc, C);
    idset_add(big, D);
    idset_add(big, A);
    idset_add(big, C);
    struct idset *sets[] = {ab, NULL, bc, big};
    struct idset *u = idset_union(sets, 4, 2, A);
    cr_assert_eq(idset_count(u), 2, "A skipped, B once, the set of 3 left out");
    cr_assert_str_eq(order_of(u), "b c");
    cr_assert(!idset_has(u, D));
    idset_unref(u);
    u = idset_union(sets, 4, 0, NULL);
    cr_assert_eq(idset_count(u), 4, "any size, nothing skipped");
    idset_unref(u);
    u = idset_union(sets, 0, 0, NULL);
    cr_assert_eq(idset_count(u), 0);
    idset_unref(u);
    idset_unref(ab);
    idset_unref(bc);
    idset_unref(big);
}

/* A persistent map's keys as a set: membership, count, every key once, and no adding. */
struct item {
    struct pmap_value v;
    char id[UUID_LEN + 1];
};
static const char *item_id(const struct pmap_value *v)
{
    return ((const struct item *)v)->id;
}
static void item_free(struct pmap_value *v)
{
    free(v);
}

Test(idset, of_a_persistent_map)
{
    struct pmap m;
    pmap_init(&m, item_id);
    const char *ids[] = {A, C};
    for (int i = 0; i < 2; i++) {
        struct item *it = calloc(1, sizeof *it);
        atomic_init(&it->v.refs, 1);
        it->v.release = item_free;
        memcpy(it->id, ids[i], UUID_LEN + 1);
        cr_assert_eq(pmap_put(&m, &it->v), 0);
        pmap_value_unref(&it->v);
    }
    struct idset *s = idset_of_pmap(&m);
    cr_assert_eq(m.count, 0, "the handle moved into the set");
    cr_assert_eq(idset_count(s), 2);
    cr_assert(idset_has(s, A) && idset_has(s, C) && !idset_has(s, B));
    cr_assert_not_null(idset_pmap(s));
    cr_assert_eq(idset_add(s, B), -1, "a map's keys are not added to");
    const char *o = order_of(s);
    cr_assert(!strcmp(o, "a c") || !strcmp(o, "c a"), "%s", o);
    struct idset *sets[] = {s};
    struct idset *u = idset_union(sets, 1, 0, A);
    cr_assert_str_eq(order_of(u), "c");
    cr_assert_null(idset_pmap(u));
    idset_unref(u);
    idset_unref(s);
}
