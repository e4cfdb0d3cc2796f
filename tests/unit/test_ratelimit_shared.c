/* The shared window's script against a real Redis (PRACA_TEST_REDIS, set by
 * scripts/with-redis.sh; skipped without it): the same answers as the node's own window. */
#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "state/ratelimit_shared.h"

#define WINDOW 100
#define LIMIT  3

static struct redis_url url;
static char key[64];

static void setup(void)
{
    const char *u = getenv("PRACA_TEST_REDIS");
    if (!u)
        cr_skip_test("no Redis (scripts/with-redis.sh sets PRACA_TEST_REDIS)");
    cr_assert_eq(redis_url_parse(u, &url), 0);
    snprintf(key, sizeof key, "send|test-%d-%ld", getpid(), random());
}

/* The wait for a use at now (recorded when record), with used and reset. */
static int64_t ask(int64_t now, int record, uint32_t *used, int64_t *reset,
                   char member[RATELIMIT_MEMBER_MAX])
{
    return state__ratelimit_shared_apply(&url, key, LIMIT, WINDOW, now, record, used, reset,
                                         member);
}

Test(ratelimit_shared, a_window_fills_refuses_until_its_oldest_leaves_and_takes_a_use_back,
     .init = setup)
{
    uint32_t used;
    int64_t reset;
    char member[RATELIMIT_MEMBER_MAX];
    for (int i = 0; i < LIMIT; i++) {
        cr_assert_eq(ask(1000 + i, 1, &used, &reset, member), 0);
        cr_assert_eq(used, (uint32_t)i + 1);
        cr_assert_eq(reset, WINDOW - i, "the oldest, 1000, leaves at 1100");
    }
    cr_assert_eq(ask(1050, 1, &used, &reset, member), 50, "full: wait until 1000 leaves");
    cr_assert_eq(used, LIMIT, "a refused use is not recorded");
    cr_assert_eq(ask(1099, 0, &used, &reset, member), 1, "not recording: the wait is only told");
    cr_assert_eq(used, LIMIT);
    cr_assert_eq(ask(1100, 1, &used, &reset, member), 0, "1000 left at 1100");
    cr_assert_eq(used, LIMIT);
    cr_assert_eq(reset, 1, "1001 is the oldest now");
    cr_assert_str_eq(member, "1100");
    state__ratelimit_shared_forget(&url, key, member);
    cr_assert_eq(ask(1100, 0, &used, &reset, member), 0);
    cr_assert_eq(used, LIMIT - 1, "the use given back left the window");
    cr_assert_eq(ask(1202, 0, &used, &reset, member), 0);
    cr_assert_eq(used, 0, "all left");
    cr_assert_eq(reset, 0);
}

Test(ratelimit_shared, a_time_from_a_clock_behind_leaves_no_earlier_than_it_should, .init = setup)
{
    uint32_t used;
    int64_t reset;
    char member[RATELIMIT_MEMBER_MAX];
    cr_assert_eq(ask(2050, 1, &used, &reset, member), 0);
    cr_assert_eq(ask(2040, 1, &used, &reset, member), 0, "another node's clock, 10 ms behind");
    cr_assert_eq(used, 2);
    cr_assert_eq(ask(2145, 0, &used, &reset, member), 0);
    cr_assert_eq(used, 2, "2040 is past its window, but kept until 2050 leaves");
    cr_assert_eq(ask(2150, 0, &used, &reset, member), 0);
    cr_assert_eq(used, 0);
}

Test(ratelimit_shared, no_redis_is_no_answer)
{
    struct redis_url nowhere;
    cr_assert_eq(redis_url_parse("redis://127.0.0.1:1", &nowhere), 0);
    uint32_t used;
    int64_t reset;
    char member[RATELIMIT_MEMBER_MAX];
    cr_assert_eq(state__ratelimit_shared_apply(&nowhere, "send|x", LIMIT, WINDOW, 1000, 1, &used,
                                               &reset, member),
                 -1);
}
