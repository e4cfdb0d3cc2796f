#include <criterion/criterion.h>

#include "core/pace.h"

Test(pace, a_second_worth_at_once_then_the_rate)
{
    struct pace p = {.per_s = 10};
    int took = 0;
    for (int i = 0; i < 15; i++)
        took += pace_take(&p, 1000);
    cr_assert_eq(took, 10, "a second's worth at once, then nothing more in the same instant");
    cr_assert_eq(pace_take(&p, 1050), 0, "half a token after 50 ms");
    cr_assert_eq(pace_take(&p, 1100), 1, "one token after 100 ms");
    cr_assert_eq(pace_take(&p, 1100), 0);
}

Test(pace, what_is_saved_is_at_most_a_second)
{
    struct pace p = {.per_s = 4};
    cr_assert(pace_take(&p, 1000));
    int took = 0;
    for (int i = 0; i < 10; i++)
        took += pace_take(&p, 60000); /* a minute idle saves no more than a second's worth */
    cr_assert_eq(took, 4);
}

Test(pace, no_limit_and_a_clock_that_steps_back)
{
    struct pace off = {.per_s = 0};
    for (int i = 0; i < 1000; i++)
        cr_assert(pace_take(&off, 5));
    struct pace p = {.per_s = 2};
    cr_assert(pace_take(&p, 10000));
    cr_assert(pace_take(&p, 10000));
    cr_assert_not(pace_take(&p, 10000));
    cr_assert_not(pace_take(&p, 9000), "a clock that stepped back gives nothing");
    cr_assert(pace_take(&p, 10500), "time after the step counts from the last reading");
}
