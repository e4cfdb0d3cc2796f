/* The interactions endpoint's signature: HMAC-SHA256 of "<timestamp>.<body>", as receivers
 * compute it (the expected value comes from Node's crypto). */
#include <criterion/criterion.h>
#include <string.h>

#include "api/endpoint.h"

Test(endpoint, signature_matches_receivers)
{
    static const char body[] = "{\"type\":\"ping\"}";
    char sig[72];
    api__endpoint_signature("segredo", 1700000000, body, strlen(body), sig);
    cr_assert_str_eq(sig,
                     "sha256=3482114168eedb578caba09f8e2cb0731a8c85b58a29bc40a1eb85c67dee1049");
}

Test(endpoint, signature_depends_on_time_secret_and_body)
{
    char a[72], b[72], c[72], d[72];
    api__endpoint_signature("segredo", 1700000000, "{}", 2, a);
    api__endpoint_signature("segredo", 1700000001, "{}", 2, b);
    api__endpoint_signature("outro", 1700000000, "{}", 2, c);
    api__endpoint_signature("segredo", 1700000000, "{} ", 3, d);
    cr_assert_str_neq(a, b);
    cr_assert_str_neq(a, c);
    cr_assert_str_neq(a, d);
    cr_assert_eq(strlen(a), 71);
}
