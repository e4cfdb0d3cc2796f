#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <string.h>
#include <sys/socket.h>

#include "domain/intents.h"
#include "domain/urls.h"

#define REDIRECT(u)        rule_url_check_redirect((u), strlen(u))
#define ENDPOINT(u, allow) rule_url_check_endpoint((u), strlen(u), (allow))

Test(urls, redirect_uris)
{
    cr_assert_null(REDIRECT("https://bot.example/callback"));
    cr_assert_null(REDIRECT("http://localhost:3000/cb?x=1"));
    cr_assert_null(REDIRECT("https://[2001:db8::1]:8443/cb"));
    cr_assert_not_null(REDIRECT("https://bot.example/cb#frag"));
    cr_assert_not_null(REDIRECT("/relative"));
    cr_assert_not_null(REDIRECT("ftp://x/y"));
    cr_assert_not_null(REDIRECT("javascript:alert(1)"));
    cr_assert_not_null(REDIRECT("https://"));
    cr_assert_not_null(REDIRECT("https://a b/c"));
    cr_assert_not_null(REDIRECT("https://user:pw@host/"));
    cr_assert_not_null(REDIRECT("https://host:abc/"));
    cr_assert_not_null(REDIRECT("https://host:/"));
}

Test(urls, endpoints_refuse_private_hosts_unless_allowed)
{
    const char *private_ones[] = {
        "http://127.0.0.1/x",
        "http://localhost:8080/i",
        "http://10.1.2.3/",
        "http://192.168.0.10/",
        "http://172.16.0.1/",
        "http://172.31.255.255/",
        "http://169.254.169.254/latest",
        "http://0.0.0.0/",
        "http://[::1]/",
        "http://[::]/",
        "http://[fd00::1]/",
        "http://[fe80::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://api.localhost/",
        "http://printer.local/",
        "http://LOCALHOST./",
        "http://100.64.0.1/",
        "http://2130706433/",
        "http://127.1/",
        "http://0x7f.0.0.1/",
        "http://017700000001/",
        "http://[::ffff:7f00:1]/",
        "http://[0:0:0:0:0:0:0:1]/",
        "http://[::7f00:1]/",
        "http://[64:ff9b::7f00:1]/",
        "http://[fec0::1]/",
        "http://[ff02::1]/",
        "http://[fe80::1%25eth0]/",
    };
    for (size_t i = 0; i < sizeof private_ones / sizeof private_ones[0]; i++) {
        cr_assert_not_null(ENDPOINT(private_ones[i], 0), "%s", private_ones[i]);
        cr_assert_null(ENDPOINT(private_ones[i], 1), "%s", private_ones[i]);
    }
    cr_assert_null(ENDPOINT("https://bot.example/interactions", 0));
    cr_assert_null(ENDPOINT("http://8.8.8.8/", 0));
    cr_assert_null(ENDPOINT("http://172.32.0.1/", 0));
    cr_assert_null(ENDPOINT("http://[2001:db8::1]/", 0));
    cr_assert_null(ENDPOINT("http://134744072/", 0), "8.8.8.8 spelled as one number");
    cr_assert_not_null(ENDPOINT("gopher://bot.example/", 1));
}

Test(intents, names_and_bits)
{
    cr_assert_eq(rule_intent_bit("messages.read", 13), INTENT_MESSAGES_READ);
    cr_assert_eq(rule_intent_bit("voice.connect", 13), INTENT_VOICE_CONNECT);
    cr_assert_eq(rule_intent_bit("messages.rea", 12), 0);
    cr_assert_eq(rule_intent_bit("MESSAGES.READ", 13), 0);
    cr_assert_str_eq(rule_intent_name(3), "interactions.receive");
    cr_assert_null(rule_intent_name(5));
}

Test(urls, resolved_addresses_private_or_not)
{
    struct sockaddr_in v4 = {.sin_family = AF_INET};
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6};
    static const char *const PRIVATE4[] = {"127.0.0.1", "10.1.2.3", "192.168.0.9", "169.254.1.1",
                                           "0.0.0.0"};
    for (size_t i = 0; i < sizeof PRIVATE4 / sizeof *PRIVATE4; i++) {
        inet_pton(AF_INET, PRIVATE4[i], &v4.sin_addr);
        cr_assert(rule_url_address_is_private((struct sockaddr *)&v4), "%s", PRIVATE4[i]);
    }
    inet_pton(AF_INET, "93.184.216.34", &v4.sin_addr);
    cr_assert_not(rule_url_address_is_private((struct sockaddr *)&v4));
    inet_pton(AF_INET6, "::1", &v6.sin6_addr);
    cr_assert(rule_url_address_is_private((struct sockaddr *)&v6));
    inet_pton(AF_INET6, "2606:2800:220:1::1", &v6.sin6_addr);
    cr_assert_not(rule_url_address_is_private((struct sockaddr *)&v6));
    struct sockaddr other = {.sa_family = AF_UNIX};
    cr_assert(rule_url_address_is_private(&other), "any other family counts as private");
}
