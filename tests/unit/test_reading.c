#include <criterion/criterion.h>

#include "state/reading.h"

#define ANA   "01a1fe3b-0000-7000-8000-00000000000a"
#define GERAL "01a1fe3b-0000-7000-8000-0000000000c1"
#define OUTRO "01a1fe3b-0000-7000-8000-0000000000c2"

Test(reading, a_page_reads_one_room_until_it_looks_away_or_closes)
{
    struct reading *r = state__reading_new();
    int page1, page2;
    cr_assert_not(state_reading_has(r, ANA, GERAL));
    state_reading_set(r, ANA, &page1, GERAL);
    state_reading_set(r, ANA, &page2, OUTRO);
    cr_assert(state_reading_has(r, ANA, GERAL));
    cr_assert(state_reading_has(r, ANA, OUTRO));
    state_reading_set(r, ANA, &page1, OUTRO); /* it moved */
    cr_assert_not(state_reading_has(r, ANA, GERAL));
    state_reading_set(r, ANA, &page2, NULL); /* hidden */
    cr_assert(state_reading_has(r, ANA, OUTRO), "the other page still shows it");
    state_reading_set(r, ANA, &page1, "");
    cr_assert_not(state_reading_has(r, ANA, OUTRO));
    state_reading_set(r, ANA, &page1, "not-an-id");
    cr_assert_not(state_reading_has(r, ANA, "not-an-id"));
    state_reading_set(r, ANA, &page2, GERAL);
    state__reading_free(r); /* with a page still reading: freed whole */
}
