/* A node's leased windows (state/ratelimit_lease.h): the same answers as Redis's window, and
 * the uses handed over in flushes that renew or end the lease. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "state/ratelimit_lease.h"

#define KEY    "bot-send|u1"
#define WINDOW 100
#define LIMIT  3
#define ASKED  5000 /* the monotonic time the lease was asked for */

static struct ratelimit_leases *t;

static void setup(void)
{
    t = state__leases_new();
    cr_assert_not_null(t);
    const int64_t times[] = {1000, 1001};
    cr_assert_eq(state__leases_grant(t, KEY, WINDOW, times, 2, ASKED), 0);
}

static void teardown(void)
{
    state__leases_free(t);
}

/* A use at now (recorded), at monotonic mono: 1 when decided on the lease. */
static int take(int64_t now, int64_t mono, struct ratelimit_taken *out)
{
    memset(out, 0, sizeof *out);
    return state__leases_take(t, KEY, LIMIT, WINDOW, now, mono, 1, out);
}

/* The flushes due at mono, kept for the test to look at and answer. */
struct sent {
    struct ratelimit_flush *f[4];
    int n, refuse;
};

static int keep_flush(struct ratelimit_flush *f, void *arg)
{
    struct sent *s = arg;
    if (s->refuse)
        return -1;
    cr_assert_lt(s->n, 4);
    s->f[s->n++] = f;
    return 0;
}

static struct sent due(int64_t now, int64_t mono)
{
    struct sent s = {0};
    state__leases_due(t, now, mono, keep_flush, &s);
    return s;
}

Test(ratelimit_lease, a_lent_window_answers_as_redis_would, .init = setup, .fini = teardown)
{
    struct ratelimit_taken out;
    cr_assert_eq(state__leases_take(t, "bot-send|u2", LIMIT, WINDOW, 1002, ASKED, 1, &out), 0,
                 "no lease on another window");
    cr_assert_eq(take(1002, ASKED + 1, &out), 1);
    cr_assert_eq(out.wait, 0);
    cr_assert_eq(out.st.used, 3);
    cr_assert_eq(out.st.reset_ms, 98, "1000 leaves at 1100");
    cr_assert_str_eq(out.member, "1002");
    cr_assert_str_eq(out.key, KEY);
    cr_assert_eq(take(1003, ASKED + 2, &out), 1);
    cr_assert_eq(out.wait, 97, "full: until 1000 leaves");
    cr_assert_str_eq(out.member, "", "a refused use is not recorded");
    memset(&out, 0, sizeof out);
    cr_assert_eq(state__leases_take(t, KEY, LIMIT, WINDOW, 1100, ASKED + 3, 0, &out), 1);
    cr_assert_eq(out.wait, 0, "1000 left");
    cr_assert_eq(out.st.used, 2, "only asked: nothing recorded");
    cr_assert_eq(state__leases_take(t, KEY, LIMIT, 50, 1100, ASKED + 3, 1, &out), 0,
                 "a lease is for its window's length only");
}

Test(ratelimit_lease, a_lease_is_used_only_until_shortly_before_redis_ends_it, .init = setup,
     .fini = teardown)
{
    struct ratelimit_taken out;
    int64_t last = ASKED + RATELIMIT_LEASE_MS - RATELIMIT_LEASE_SAFE_MS;
    cr_assert_eq(take(1002, last - 1, &out), 1);
    cr_assert_eq(take(1003, last, &out), 0, "used up: Redis decides again");
}

Test(ratelimit_lease, flushes_hand_the_uses_over_and_renew_the_lease, .init = setup,
     .fini = teardown)
{
    struct ratelimit_taken out;
    cr_assert_eq(due(1001, ASKED + RATELIMIT_FLUSH_MS).n, 0, "nothing new: nothing to flush");
    cr_assert_eq(take(1002, ASKED + 1, &out), 1);
    cr_assert_eq(due(1002, ASKED + RATELIMIT_FLUSH_MS - 1).n, 0, "not yet");
    struct sent s = due(1002, ASKED + RATELIMIT_FLUSH_MS);
    cr_assert_eq(s.n, 1);
    cr_assert_eq(s.f[0]->n, 1);
    cr_assert_eq(s.f[0]->uses[0], 1002);
    cr_assert_eq(s.f[0]->kept, 3, "the window: 1000, 1001 and 1002");
    cr_assert_eq(s.f[0]->last, 0);
    cr_assert_eq(take(1003, ASKED + 45, &out), 1, "still decided here while the flush is away");
    cr_assert_eq(due(1003, ASKED + 100).n, 0, "one flush at a time");
    state__leases_flushed(t, s.f[0], 1);
    int64_t renewed = ASKED + RATELIMIT_FLUSH_MS + RATELIMIT_LEASE_MS - RATELIMIT_LEASE_SAFE_MS;
    cr_assert_eq(take(1004, renewed - 1, &out), 1, "renewed from the flush's sending");
    cr_assert_eq(take(1005, renewed, &out), 0);
    cr_assert_eq(state__leases_count(t), 1);
}

Test(ratelimit_lease, a_lease_not_renewed_ends_with_a_last_flush_of_what_is_left, .init = setup,
     .fini = teardown)
{
    struct ratelimit_taken out;
    take(1002, ASKED + 1, &out);
    struct sent s = due(1002, ASKED + RATELIMIT_FLUSH_MS);
    take(1050, ASKED + 45, &out); /* decided after the flush left */
    cr_assert_eq(out.wait, 50);
    state__leases_flushed(t, s.f[0], 0); /* another node asked for the window */
    cr_assert_eq(take(1051, ASKED + 46, &out), 0, "ended: nothing decided here any more");
    s = due(1051, ASKED + 50);
    cr_assert_eq(s.n, 1);
    cr_assert_eq(s.f[0]->last, 1, "gives the lease up");
    cr_assert_eq(s.f[0]->n, 0, "the refused use was not recorded");
    state__leases_flushed(t, s.f[0], 0);
    cr_assert_eq(state__leases_count(t), 0);
}

Test(ratelimit_lease, uses_decided_until_the_lease_ran_out_leave_in_a_last_flush, .init = setup,
     .fini = teardown)
{
    struct ratelimit_taken out;
    int64_t last = ASKED + RATELIMIT_LEASE_MS - RATELIMIT_LEASE_SAFE_MS;
    struct sent s = due(1002, ASKED + 10);
    cr_assert_eq(s.n, 0);
    take(1002, last - 1, &out);
    s = due(1002, last);
    cr_assert_eq(s.n, 1);
    cr_assert_eq(s.f[0]->last, 1);
    cr_assert_eq(s.f[0]->n, 1);
    state__leases_flushed(t, s.f[0], -1);
    cr_assert_eq(state__leases_count(t), 0);
}

Test(ratelimit_lease, an_idle_lease_is_given_up_when_used_up, .init = setup, .fini = teardown)
{
    int64_t last = ASKED + RATELIMIT_LEASE_MS - RATELIMIT_LEASE_SAFE_MS;
    cr_assert_eq(due(1001, last - 1).n, 0, "nothing to hand over yet");
    struct sent s = due(1001, last);
    cr_assert_eq(s.n, 1, "used up: given up at once, not left for Redis to end");
    cr_assert_eq(s.f[0]->last, 1);
    cr_assert_eq(s.f[0]->n, 0);
    state__leases_flushed(t, s.f[0], 0);
    cr_assert_eq(state__leases_count(t), 0);
}

Test(ratelimit_lease, a_lease_that_ran_out_unseen_or_cannot_flush_is_dropped, .init = setup,
     .fini = teardown)
{
    cr_assert_eq(due(1001, ASKED + RATELIMIT_LEASE_MS).n, 0, "Redis has ended it already");
    cr_assert_eq(state__leases_count(t), 0, "forgotten");
    const int64_t times[] = {1000};
    cr_assert_eq(state__leases_grant(t, KEY, WINDOW, times, 1, ASKED), 0);
    struct ratelimit_taken out;
    take(1002, ASKED + 1, &out);
    struct sent s = {.refuse = 1};
    state__leases_due(t, 1002, ASKED + RATELIMIT_FLUSH_MS, keep_flush, &s);
    cr_assert_eq(state__leases_count(t), 0);
}

Test(ratelimit_lease, a_use_given_back_leaves_the_window_and_redis_hears_of_it_if_flushed,
     .init = setup, .fini = teardown)
{
    struct ratelimit_taken out;
    take(1002, ASKED + 1, &out);
    cr_assert_eq(state__leases_give_back(t, KEY, 1002), 1, "not flushed yet: only here");
    take(1003, ASKED + 2, &out);
    cr_assert_eq(out.wait, 0, "room again");
    struct sent s = due(1003, ASKED + RATELIMIT_FLUSH_MS);
    cr_assert_eq(s.f[0]->n, 1);
    cr_assert_eq(s.f[0]->uses[0], 1003);
    state__leases_flushed(t, s.f[0], 1);
    cr_assert_eq(state__leases_give_back(t, KEY, 1003), 0, "flushed: Redis must forget it too");
    take(1004, ASKED + 50, &out);
    cr_assert_eq(out.wait, 0, "but this window forgot it already");
    cr_assert_eq(out.st.used, 3);
    cr_assert_eq(state__leases_give_back(t, "bot-send|u2", 1004), 0, "no lease: Redis's");
}

Test(ratelimit_lease, a_window_too_large_is_not_lent)
{
    struct ratelimit_leases *l = state__leases_new();
    int64_t *times = calloc(RATELIMIT_LEASE_USES + 1, sizeof *times);
    cr_assert_eq(state__leases_grant(l, KEY, WINDOW, times, RATELIMIT_LEASE_USES + 1, ASKED), -1);
    cr_assert_eq(state__leases_count(l), 0);
    free(times);
    state__leases_free(l);
}
