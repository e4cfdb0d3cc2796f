/* Shared ID sets: membership, repeats, capacity and bad IDs. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/idset.h"

static const char A[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000000a";
static const char B[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000000b";
static const char C[UUID_LEN + 1] = "01a1fe3b-0000-7000-8000-00000000000c";

Test(idset, holds_what_was_added_once_in_order)
{
    struct idset *s = idset_new(2);
    cr_assert_eq(idset_add(s, B), 0);
    cr_assert_eq(idset_add(s, A), 0);
    cr_assert_eq(idset_add(s, B), 0, "a repeat is not an error");
    cr_assert_eq(idset_count(s), 2);
    cr_assert_str_eq(idset_at(s, 0), B);
    cr_assert_str_eq(idset_at(s, 1), A);
    cr_assert(idset_has(s, A) && idset_has(s, B));
    cr_assert(!idset_has(s, C));
    cr_assert_eq(idset_add(s, C), -1, "full");
    cr_assert_eq(idset_add(s, "short"), -1);
    cr_assert(!idset_has(s, "01a1fe3b"));
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
    cr_assert_str_eq(idset_at(u, 0), B);
    cr_assert_str_eq(idset_at(u, 1), C);
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
