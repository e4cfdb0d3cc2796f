/* The stream shard of a server: FNV-1a, the same on every node (and in the tests' JavaScript). */
#include <criterion/criterion.h>
#include <stdio.h>

#include "bus/bus.h"

Test(bus_route, is_fnv1a_of_the_id)
{
    cr_assert_eq(bus_route(""), 0x811c9dc5u);
    cr_assert_eq(bus_route("a"), 0xe40c292cu);
    cr_assert_eq(bus_route("foobar"), 0xbf9cf968u);
}

Test(bus_route, nothing_goes_to_the_first_shard)
{
    cr_assert_eq(bus_route(NULL), 0);
}

Test(bus_route, spreads_server_ids_over_shards)
{
    int count[4] = {0};
    char id[UUID_LEN + 1];
    for (int i = 0; i < 4000; i++) {
        snprintf(id, sizeof id, "01a21435-%04x-7000-8000-%012x", i & 0xffff, i * 7919);
        count[bus_route(id) % 4]++;
    }
    for (int s = 0; s < 4; s++)
        cr_assert(count[s] > 800 && count[s] < 1200, "shard %d holds %d of 4000", s, count[s]);
}
