/* Gateway tickets in one node's memory: good once, lapsing, and bounded. */
#include <criterion/criterion.h>
#include <string.h>

#include "state/tickets.h"

static const char HASH[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

Test(tickets, good_once_and_not_after_they_lapse)
{
    struct tickets *t = state__tickets_new();
    char ticket[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    cr_assert_eq(state_tickets_issue(t, HASH, 1000, ticket), 0);
    cr_assert_eq(state_tickets_redeem(t, ticket, 1001, hash), 1);
    cr_assert_str_eq(hash, HASH);
    cr_assert_eq(state_tickets_redeem(t, ticket, 1002, hash), 0, "used");
    cr_assert_eq(state_tickets_issue(t, HASH, 1000, ticket), 0);
    cr_assert_eq(state_tickets_redeem(t, ticket, 1000 + TICKET_TTL_MS, hash), 0, "lapsed");
    cr_assert_eq(state_tickets_shared(t), 0);
    state__tickets_free(t);
}

Test(tickets, at_most_TICKETS_MAX_outstanding_until_some_lapse)
{
    struct tickets *t = state__tickets_new();
    char ticket[CRYPTO_TOKEN_LEN + 1];
    for (int i = 0; i < TICKETS_MAX; i++)
        cr_assert_eq(state_tickets_issue(t, HASH, 1000 + i, ticket), 0);
    cr_assert_eq(state_tickets_issue(t, HASH, 1000 + TICKETS_MAX, ticket), -1, "full");
    /* The first ten have lapsed: they make room, the others still count. */
    int64_t later = 1000 + 10 + TICKET_TTL_MS - 1;
    for (int i = 0; i < 10; i++)
        cr_assert_eq(state_tickets_issue(t, HASH, later, ticket), 0);
    cr_assert_eq(state_tickets_issue(t, HASH, later, ticket), -1, "full again");
    state__tickets_free(t);
}
