/* The sliding window, driven by a fake clock. */
#include <criterion/criterion.h>

#include "domain/ratewindow.h"

Test(ratewindow, allows_limit_then_waits_for_the_oldest)
{
    struct ratewindow w;
    cr_assert_eq(rule_ratewindow_init(&w, 10, 10000), 0);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(rule_ratewindow_hit(&w, 1000 + i * 100), 0);
    /* 11th at t=2000: the oldest (t=1000) leaves at 11000 → wait 9000. */
    cr_assert_eq(rule_ratewindow_hit(&w, 2000), 9000);
    cr_assert_eq(rule_ratewindow_hit(&w, 10999), 1);
    cr_assert_eq(rule_ratewindow_hit(&w, 11000), 0);   /* slides: one slot freed */
    cr_assert_eq(rule_ratewindow_hit(&w, 11000), 100); /* next oldest was 1100 */
    rule_ratewindow_cleanup(&w);
}

Test(ratewindow, refused_events_are_not_counted)
{
    struct ratewindow w;
    rule_ratewindow_init(&w, 2, 1000);
    cr_assert_eq(rule_ratewindow_hit(&w, 0), 0);
    cr_assert_eq(rule_ratewindow_hit(&w, 0), 0);
    for (int i = 0; i < 50; i++)
        cr_assert_gt(rule_ratewindow_hit(&w, 500), 0);
    cr_assert_eq(rule_ratewindow_hit(&w, 1000), 0);
    rule_ratewindow_cleanup(&w);
}

Test(ratewindow, check_records_nothing_and_idle)
{
    struct ratewindow w;
    rule_ratewindow_init(&w, 1, 60000);
    cr_assert(rule_ratewindow_idle(&w, 0));
    cr_assert_eq(rule_ratewindow_check(&w, 0), 0);
    cr_assert_eq(rule_ratewindow_check(&w, 0), 0);
    cr_assert_eq(rule_ratewindow_hit(&w, 0), 0);
    cr_assert_eq(rule_ratewindow_check(&w, 1), 59999);
    cr_assert(!rule_ratewindow_idle(&w, 59999));
    cr_assert(rule_ratewindow_idle(&w, 60000));
    rule_ratewindow_cleanup(&w);
}

Test(ratewindow, used_and_reset)
{
    struct ratewindow w;
    int64_t reset;
    rule_ratewindow_init(&w, 3, 1000);
    cr_assert_eq(rule_ratewindow_used(&w, 0, &reset), 0);
    cr_assert_eq(reset, 0, "nothing used: nothing to wait for");
    rule_ratewindow_hit(&w, 100);
    rule_ratewindow_hit(&w, 300);
    cr_assert_eq(rule_ratewindow_used(&w, 400, &reset), 2);
    cr_assert_eq(reset, 700, "the oldest (at 100) leaves at 1100");
    cr_assert_eq(rule_ratewindow_used(&w, 1100, &reset), 1, "it left");
    cr_assert_eq(reset, 200);
    cr_assert_eq(rule_ratewindow_used(&w, 5000, &reset), 0);
    rule_ratewindow_cleanup(&w);
}
