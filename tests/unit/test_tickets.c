/* Gateway tickets in one node's memory: good once, lapsing, and bounded. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "state/tickets.h"

static const char HASH[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

Test(tickets, good_once_and_not_after_they_lapse)
{
    struct tickets *t = state__tickets_new();
    char ticket[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1000, ticket), 0);
    cr_assert_eq(state_tickets_redeem(t, ticket, 1001, hash), 1);
    cr_assert_str_eq(hash, HASH);
    cr_assert_eq(state_tickets_redeem(t, ticket, 1002, hash), 0, "used");
    cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1000, ticket), 0);
    cr_assert_eq(state_tickets_redeem(t, ticket, 1000 + TICKET_TTL_MS, hash), 0, "lapsed");
    cr_assert_eq(state_tickets_shared(t), 0);
    state__tickets_free(t);
}

Test(tickets, at_most_TICKETS_MAX_outstanding_until_some_lapse)
{
    struct tickets *t = state__tickets_new();
    char ticket[CRYPTO_TOKEN_LEN + 1], user[16];
    /* One each for many accounts; the first ten early. */
    for (int i = 0; i < TICKETS_MAX; i++) {
        snprintf(user, sizeof user, "u%d", i);
        cr_assert_eq(state_tickets_issue(t, HASH, user, i < 10 ? 1000 : 2000, ticket), 0);
    }
    cr_assert_eq(state_tickets_issue(t, HASH, "outra", 2000, ticket), -1, "full");
    /* The first ten have lapsed: they make room, the others still count. */
    int64_t later = 1000 + TICKET_TTL_MS;
    for (int i = 0; i < 10; i++) {
        snprintf(user, sizeof user, "v%d", i);
        cr_assert_eq(state_tickets_issue(t, HASH, user, later, ticket), 0);
    }
    cr_assert_eq(state_tickets_issue(t, HASH, "outra", later, ticket), -1, "full again");
    state__tickets_free(t);
}

Test(tickets, one_account_holds_at_most_TICKETS_PER_ACCOUNT)
{
    struct tickets *t = state__tickets_new();
    char ticket[CRYPTO_TOKEN_LEN + 1], first[CRYPTO_TOKEN_LEN + 1], hash[CRYPTO_SHA256_HEX + 1];
    cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1000, first), 0);
    for (int i = 1; i < TICKETS_PER_ACCOUNT; i++)
        cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1000, ticket), 0);
    cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1000, ticket), -2, "the account's are out");
    cr_assert_eq(state_tickets_issue(t, HASH, "bia", 1000, ticket), 0, "another account's are not");
    cr_assert_eq(state_tickets_redeem(t, first, 1001, hash), 1);
    cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1001, ticket), 0, "a used one makes room");
    cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1001, ticket), -2);
    cr_assert_eq(state_tickets_issue(t, HASH, "ana", 1000 + TICKET_TTL_MS, ticket), 0,
                 "lapsed ones make room");
    state__tickets_free(t);
}
