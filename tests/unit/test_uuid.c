#include <criterion/criterion.h>
#include <string.h>

#include "core/uuid.h"

Test(uuid, v7_shape_and_order)
{
    char prev[UUID_LEN + 1] = "";
    for (int i = 0; i < 5000; i++) {
        char id[UUID_LEN + 1];
        uuid_v7(id);
        cr_assert(uuid_valid(id, strlen(id)));
        cr_assert_eq(id[14], '7');
        cr_assert(strchr("89ab", id[19]) != NULL);
        cr_assert_gt(strcmp(id, prev), 0, "%s !> %s", id, prev);
        memcpy(prev, id, sizeof id);
    }
}

Test(uuid, validation)
{
    cr_assert(uuid_valid("01a1fe3b-ac1e-7001-a3e9-762bc1b126a2", 36));
    cr_assert(!uuid_valid("01a1fe3b-ac1e-7001-a3e9-762bc1b126a", 35));
    cr_assert(!uuid_valid("01a1fe3b_ac1e-7001-a3e9-762bc1b126a2", 36));
    cr_assert(!uuid_valid("01a1fe3b-ac1e-7001-a3e9-762bc1b126g2", 36));
    cr_assert(!uuid_valid("' OR 1=1 --", 11));
}

Test(uuid, floor_sorts_below_every_later_id)
{
    char id[UUID_LEN + 1], floor[UUID_LEN + 1], next[UUID_LEN + 1];
    uuid_v7(id);
    /* the id's own millisecond: its floor sorts at or below it, the next ms's floor above */
    long long ms = 0;
    for (int i = 0; i < 13; i++)
        if (id[i] != '-')
            ms = ms * 16 + (id[i] <= '9' ? id[i] - '0' : id[i] - 'a' + 10);
    uuid_v7_floor(ms, floor);
    uuid_v7_floor(ms + 1, next);
    cr_assert_eq(strlen(floor), 36);
    cr_assert_leq(strcmp(floor, id), 0, "%s vs %s", floor, id);
    cr_assert_gt(strcmp(next, id), 0, "%s vs %s", next, id);
    uuid_v7_floor(0, floor);
    cr_assert_str_eq(floor, "00000000-0000-0000-0000-000000000000");
}
