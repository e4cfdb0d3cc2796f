/* The shared window's script against a real Redis (PRACA_TEST_REDIS, set by
 * scripts/with-redis.sh; skipped without it): the same answers as the node's own window. */
#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "state/ratelimit_lease.h"
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
    return state__ratelimit_shared_apply(&url, "node-a", key, LIMIT, WINDOW, now, record, used,
                                         reset, member);
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
    cr_assert_eq(state__ratelimit_shared_apply(&nowhere, "node-a", "send|x", LIMIT, WINDOW, 1000, 1,
                                               &used, &reset, member),
                 -1);
}

/* ---- leases: the script's side (ratelimit_lease.h) ---- */

static redisContext *conn;

/* The take script for node at now, asking for a lease; the reply is the caller's. */
static redisReply *take_for(const char *node, int64_t now)
{
    static char sha[48];
    struct ratelimit_keys k;
    state__ratelimit_keys(&k, key);
    char now_s[24], win_s[24], limit_s[16], lease_s[16];
    snprintf(lease_s, sizeof lease_s, "%d", RATELIMIT_LEASE_MS);
    snprintf(now_s, sizeof now_s, "%lld", (long long)now);
    snprintf(win_s, sizeof win_s, "%d", WINDOW);
    snprintf(limit_s, sizeof limit_s, "%d", LIMIT);
    const char *argv[] = {"3",     k.window, k.lease, k.taker, now_s, win_s,
                          limit_s, "1",      node,    lease_s, "4096"};
    if (!conn)
        conn = redis_open(&url, 1, "test", "");
    cr_assert_not_null(conn);
    return redis_script(conn, sha, STATE__RATELIMIT_SCRIPT, sizeof argv / sizeof *argv, argv, NULL);
}

/* The flush script for node: the uses to add, how many to keep, the last or not. */
static long long flush_for(const char *node, const char *uses[], int n, int kept, int last)
{
    static char sha[48];
    struct ratelimit_keys k;
    state__ratelimit_keys(&k, key);
    char kept_s[16], win_s[24], lease_s[16];
    snprintf(lease_s, sizeof lease_s, "%d", RATELIMIT_LEASE_MS);
    snprintf(kept_s, sizeof kept_s, "%d", kept);
    snprintf(win_s, sizeof win_s, "%d", WINDOW);
    const char *argv[16] = {"3",     k.window, k.lease, k.taker,         node,
                            lease_s, win_s,    kept_s,  last ? "1" : "0"};
    for (int i = 0; i < n; i++)
        argv[9 + i] = uses[i];
    redisReply *r = redis_script(conn, sha, STATE__RATELIMIT_FLUSH_SCRIPT, 9 + n, argv, NULL);
    cr_assert(r && r->type == REDIS_REPLY_INTEGER, "%s", r && r->str ? r->str : "no answer");
    long long v = r->integer;
    freeReplyObject(r);
    return v;
}

static int64_t answer_of(redisReply *r, uint32_t *used, int64_t *reset, size_t *leased)
{
    int64_t wait = state__ratelimit_reply(r, used, reset);
    const redisReply *times = state__ratelimit_reply_lease(r);
    *leased = times ? times->elements : 0;
    cr_assert(wait == RATELIMIT_LEASED_HERE || wait == RATELIMIT_LEASED_ELSEWHERE || !times ||
              times->elements > 0);
    freeReplyObject(r);
    return wait;
}

Test(ratelimit_shared, a_window_taken_twice_by_one_node_is_lent_to_it_and_others_wait,
     .init = setup)
{
    uint32_t used;
    int64_t reset;
    size_t leased;
    cr_assert_eq(answer_of(take_for("node-a", 1000), &used, &reset, &leased), 0);
    cr_assert_eq(leased, 0, "the first take: no lease yet");
    cr_assert_eq(answer_of(take_for("node-a", 1001), &used, &reset, &leased), 0);
    cr_assert_eq(used, 2);
    cr_assert_eq(leased, 2, "the second in a row from the same node: lent, with both uses");
    cr_assert_eq(answer_of(take_for("node-a", 1002), &used, &reset, &leased), RATELIMIT_LEASED_HERE,
                 "the holder counts on its lease");
    cr_assert_eq(answer_of(take_for("node-b", 1002), &used, &reset, &leased),
                 RATELIMIT_LEASED_ELSEWHERE);
    cr_assert(reset > 0 && reset <= RATELIMIT_LEASE_MS, "told the lease's time left: %lld",
              (long long)reset);
    /* The holder hands its use of 1002 over; the lease is not renewed, as node-b asked. */
    const char *uses[] = {"1002"};
    cr_assert_eq(flush_for("node-a", uses, 1, 3, 0), 0);
    cr_assert_eq(flush_for("node-a", NULL, 0, 3, 1), 0, "the last flush gives the lease up");
    cr_assert_eq(answer_of(take_for("node-b", 1003), &used, &reset, &leased), 97,
                 "full with the holder's three uses: wait until 1000 leaves");
    cr_assert_eq(used, LIMIT);
    cr_assert_eq(leased, 0, "taken from two nodes: no lease again");
    cr_assert_eq(answer_of(take_for("node-a", 1100), &used, &reset, &leased), 0);
    cr_assert_eq(answer_of(take_for("node-a", 1101), &used, &reset, &leased), 0);
    cr_assert_eq(leased, 0, "nor to a node alone again, for a while");
}

Test(ratelimit_shared, a_flush_renews_the_lease_of_the_only_taker_and_keeps_its_count,
     .init = setup)
{
    uint32_t used;
    int64_t reset;
    size_t leased;
    answer_of(take_for("node-a", 1000), &used, &reset, &leased);
    answer_of(take_for("node-a", 1001), &used, &reset, &leased);
    cr_assert_eq(leased, 2);
    /* The holder's window at its flush: 1000 gone by its clock, 1001 and its new 1090. */
    const char *uses[] = {"1090"};
    cr_assert_eq(flush_for("node-a", uses, 1, 2, 0), 1, "nobody else asked: renewed");
    cr_assert_eq(flush_for("node-b", NULL, 0, 0, 0), 0, "only the holder renews");
    cr_assert_eq(flush_for("node-a", NULL, 0, 0, 1), 0);
    cr_assert_eq(answer_of(take_for("node-a", 1095), &used, &reset, &leased), 0,
                 "the window kept the holder's count of it: 1001 and 1090, not 1000");
    cr_assert_eq(used, LIMIT);
    cr_assert_eq(reset, 6, "1001 is the oldest");
}

Test(ratelimit_shared, nodes_taking_a_window_in_turns_are_never_lent_it_and_a_new_node_is,
     .init = setup)
{
    uint32_t used;
    int64_t reset;
    size_t leased;
    const char *turns[] = {"node-a", "node-b", "node-a", "node-b"};
    for (int i = 0; i < 4; i++) {
        cr_assert_geq(answer_of(take_for(turns[i], 1000 + i), &used, &reset, &leased), 0);
        cr_assert_eq(leased, 0, "take %d", i);
    }
    /* node-a restarted under a new name: the old name's turn is no reason to wait */
    cr_assert_eq(answer_of(take_for("node-c", 1200), &used, &reset, &leased), 0);
    cr_assert_eq(answer_of(take_for("node-c", 1201), &used, &reset, &leased), 0);
    cr_assert_eq(leased, 2);
}
