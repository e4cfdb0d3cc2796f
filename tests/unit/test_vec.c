/* Growing arrays: room appears exactly when needed, doubling, and the contents move with it. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/vec.h"

Test(vec, grows_by_doubling_and_keeps_what_was_there)
{
    int *a = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < 100; i++) {
        cr_assert_eq(VEC_RESERVE(a, n, cap, 4), 0);
        cr_assert_gt(cap, n);
        a[n++] = i;
    }
    cr_assert_eq(cap, 128, "4, 8, … 128");
    for (int i = 0; i < 100; i++)
        cr_assert_eq(a[i], i);
    cr_assert_eq(VEC_RESERVE(a, 50, cap, 4), 0, "room already there");
    cr_assert_eq(cap, 128);
    free(a);
}

Test(vec, refuses_a_size_past_memory)
{
    char *a = NULL;
    size_t cap = SIZE_MAX / 2 + 1;
    cr_assert_eq(vec_reserve((void **)&a, &cap, cap, 4, 1), -1);
    cr_assert_null(a, "unchanged");
}
