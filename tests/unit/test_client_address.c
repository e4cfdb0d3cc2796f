/* The client's address behind a reverse proxy: only a trusted peer names it, only by the entry it
 * added itself, and only with an address. */
#include <criterion/criterion.h>
#include <string.h>

#include "http/client_address.h"

static const char *from(const char *peer, const char *trusted, const char *xff)
{
    static char out[48];
    struct slice h = xff ? slice_from(xff) : (struct slice){NULL, 0};
    http__client_address(peer, trusted, h, out, sizeof out);
    return out;
}

Test(client_address, the_peer_without_a_trusted_proxy)
{
    cr_assert_str_eq(from("203.0.113.7", "", "198.51.100.1"), "203.0.113.7");
    cr_assert_str_eq(from("203.0.113.7", NULL, "198.51.100.1"), "203.0.113.7");
}

Test(client_address, a_peer_that_is_not_the_proxy_names_nobody)
{
    cr_assert_str_eq(from("203.0.113.7", "127.0.0.1", "198.51.100.1"), "203.0.113.7");
}

Test(client_address, the_proxy_names_the_client_by_its_last_entry)
{
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", "198.51.100.1"), "198.51.100.1");
    /* Entries before the proxy's came from the client: a forged one is passed over. */
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", "10.0.0.1, 198.51.100.1"), "198.51.100.1");
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", "10.0.0.1,2001:db8::5 "), "2001:db8::5");
}

Test(client_address, anything_but_an_address_leaves_the_peer)
{
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", NULL), "127.0.0.1");
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", ""), "127.0.0.1");
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", "198.51.100.1, "), "127.0.0.1");
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", "unknown"), "127.0.0.1");
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", "198.51.100.1:4711"), "127.0.0.1");
    char long_entry[200];
    memset(long_entry, '1', sizeof long_entry - 1);
    long_entry[sizeof long_entry - 1] = '\0';
    cr_assert_str_eq(from("127.0.0.1", "127.0.0.1", long_entry), "127.0.0.1");
}
