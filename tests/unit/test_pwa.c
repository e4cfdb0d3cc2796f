/* The service worker's version: the pages' hash, the same every time, unless a test sets one. */
#include <criterion/criterion.h>
#include <string.h>

#include "web/pwa.h"

Test(pwa, the_version_is_a_hash_of_the_pages_the_same_each_time)
{
    web_pwa_set_version(NULL);
    char first[40];
    snprintf(first, sizeof first, "%s", web__pwa_version());
    cr_assert_eq(strlen(first), 16);
    cr_assert_eq(strspn(first, "0123456789abcdef"), 16);
    cr_assert_str_eq(web__pwa_version(), first);
    web_pwa_set_version("versao-de-teste");
    cr_assert_str_eq(web__pwa_version(), "versao-de-teste");
    web_pwa_set_version(NULL);
    cr_assert_str_eq(web__pwa_version(), first, "back to the hash");
}

Test(pwa, only_the_worker_and_the_manifest_have_paths_of_their_own)
{
    cr_assert(web__pwa_own(&(struct embedded_file){"sw.js", NULL, 0}));
    cr_assert(web__pwa_own(&(struct embedded_file){"manifest.webmanifest", NULL, 0}));
    cr_assert_not(web__pwa_own(&(struct embedded_file){"chat.js", NULL, 0}));
}
