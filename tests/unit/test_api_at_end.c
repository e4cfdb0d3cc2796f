/* What a request holds until its handler is done: released in the reverse order, and a request
 * that would hold too much is answered 500 without taking more. */
#include <criterion/criterion.h>

#include "api/api.h"
#include "http/request.h"

static char order[16];
static size_t n_order;

static void note(void *arg)
{
    order[n_order++] = *(const char *)arg;
}

Test(api_at_end, released_in_reverse_order_once_the_handler_is_done)
{
    struct http_response res;
    http_response_init(&res);
    struct api_call c = {.res = &res};
    static const char names[] = "abcdefghijklmnop";
    n_order = 0;
    for (int i = 0; i < API_AT_END_MAX; i++)
        cr_assert_eq(api__at_end(&c, note, (void *)&names[i]), 0);
    cr_assert_eq(n_order, 0, "nothing released while the handler runs");
    cr_assert_not(c.answered);
    cr_assert_eq(api__at_end(&c, note, (void *)&names[API_AT_END_MAX]), -1, "one too many");
    cr_assert(c.answered, "answered 500");
    cr_assert_eq(res.status, 500);
    api__call_end(&c);
    cr_assert_eq(n_order, API_AT_END_MAX, "the refused one was not taken");
    for (int i = 0; i < API_AT_END_MAX; i++)
        cr_assert_eq(order[i], names[API_AT_END_MAX - 1 - i], "the last taken goes first");
    api__call_end(&c);
    cr_assert_eq(n_order, API_AT_END_MAX, "released once");
    http_response_cleanup(&res);
}
