/* The limiter's table on one node, and the answers counted ahead that the writer takes. */
#include <criterion/criterion.h>

#include "state/ratelimit.h"

Test(ratelimit, here_counts_on_the_node_and_take_needs_shared_windows)
{
    struct ratelimit *rl = state_ratelimit_new(1);
    const struct ratelimit_ask u1 = {"send", "u1", 3, 10000}, u2 = {"send", "u2", 3, 10000};
    struct ratelimit_taken t;
    for (int i = 0; i < 3; i++)
        cr_assert_eq(state_ratelimit_take(rl, &u1, RATELIMIT_RECORD | RATELIMIT_HERE, &t), 0);
    cr_assert_eq(t.st.used, 3);
    cr_assert_eq(t.st.limit, 3);
    cr_assert_str_empty(t.key, "counted here: nothing to give back");
    cr_assert_gt(state_ratelimit_take(rl, &u1, RATELIMIT_CHECK, NULL), 0);
    cr_assert_gt(state_ratelimit_take(rl, &u1, RATELIMIT_RECORD, &t), 0, "the fourth waits");
    cr_assert_eq(t.wait, state_ratelimit_take(rl, &u1, RATELIMIT_CHECK, NULL));
    cr_assert_eq(state_ratelimit_take(rl, &u2, RATELIMIT_CHECK, &t), 0);
    cr_assert_eq(t.st.used, 0, "a look records nothing");
    cr_assert_eq(state_ratelimit_shared(rl), 0);
    cr_assert_eq(state_ratelimit_take(rl, &u1, RATELIMIT_AHEAD, &t), -1);
    cr_assert_str_empty(t.key);
    state_ratelimit_give_back(rl, &t); /* nothing to give: does nothing */
    state_ratelimit_free(rl);
}

Test(ratelimit, an_answer_counted_ahead_is_for_its_action_and_account_only)
{
    struct ratelimit_taken t = {.key = "bot-send|0190abcd"};
    cr_assert(state_ratelimit_taken_for(&t, "bot-send", "0190abcd"));
    cr_assert_not(state_ratelimit_taken_for(&t, "bot-send", "0190abc"));
    cr_assert_not(state_ratelimit_taken_for(&t, "bot-send", "0190abcde"));
    cr_assert_not(state_ratelimit_taken_for(&t, "bot", "send|0190abcd"));
    cr_assert_not(state_ratelimit_taken_for(&t, "send", "0190abcd"));
    struct ratelimit_taken none = {.key = ""};
    cr_assert_not(state_ratelimit_taken_for(&none, "", ""));
}

Test(ratelimit, a_shared_limiter_wants_a_redis_url)
{
    struct ratelimit *rl = state_ratelimit_new(1);
    cr_assert_eq(state_ratelimit_share(rl, "http://example"), -1);
    cr_assert_eq(state_ratelimit_shared(rl), 0);
    cr_assert_eq(state_ratelimit_share(rl, "redis://127.0.0.1:1"), 0);
    cr_assert_eq(state_ratelimit_shared(rl), 1);
    state_ratelimit_free(rl);
}
