#include <criterion/criterion.h>
#include <string.h>

#include "core/clock.h"

Test(clock, formats_iso_with_millis)
{
    char out[CLOCK_ISO_LEN + 1];
    clock_format_iso(0, out);
    cr_assert_str_eq(out, "1970-01-01T00:00:00.000Z");
    clock_format_iso(1795262400123LL, out);
    cr_assert_str_eq(out, "2026-11-21T12:00:00.123Z");
}

Test(clock, parses_both_forms)
{
    int64_t ms;
    cr_assert_eq(clock_parse("2026-11-21T12:00:00.123Z", 24, &ms), 0);
    cr_assert_eq(ms, 1795262400123LL);
    const char *plain = "2026-11-21 12:00:00";
    cr_assert_eq(clock_parse(plain, strlen(plain), &ms), 0);
    cr_assert_eq(ms, 1795262400000LL);
    const char *offset = "2026-11-21T09:00:00-03:00";
    cr_assert_eq(clock_parse(offset, strlen(offset), &ms), 0);
    cr_assert_eq(ms, 1795262400000LL);
}

Test(clock, refuses_bad_dates)
{
    int64_t ms;
    const char *bad[] = {"2026-02-30T00:00:00Z",     "2025-02-29 00:00:00",
                         "2026-13-01 00:00:00",      "2026-11-21T12:00:00",
                         "2026-11-21T24:00:00Z",     "yesterday",
                         "2026-11-21T12:00:00Zjunk", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_neq(clock_parse(bad[i], strlen(bad[i]), &ms), 0, "%s", bad[i]);
    cr_assert_eq(clock_parse("2024-02-29 00:00:00", 19, &ms), 0);
}

Test(clock, a_deadline_is_that_far_on_and_normalised)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct timespec at = clock_deadline(1500);
    cr_assert(at.tv_nsec >= 0 && at.tv_nsec < 1000000000L);
    int64_t ms = (int64_t)(at.tv_sec - now.tv_sec) * 1000 + (at.tv_nsec - now.tv_nsec) / 1000000;
    cr_assert(ms >= 1500 && ms < 1600, "%lld ms", (long long)ms);
    struct timespec past = clock_deadline(-5);
    cr_assert(past.tv_sec >= now.tv_sec, "a past moment is now");
}
