#include <criterion/criterion.h>
#include <string.h>

#include "domain/text.h"

Test(text, counts_code_points_not_bytes)
{
    cr_assert_eq(rule_text_chars("abc", 3), 3);
    cr_assert_eq(rule_text_chars("Praça", strlen("Praça")), 5);
    cr_assert_eq(rule_text_chars("😀", strlen("😀")), 1);
}

Test(text, username_rule_and_folding)
{
    char ok[] = "Ana.Silva_9";
    cr_assert(rule_text_username_fold(ok, strlen(ok)));
    cr_assert_str_eq(ok, "ana.silva_9");
    char short_one[] = "a", bad[] = "ana silva", dash[] = "ana-x";
    cr_assert(!rule_text_username_fold(short_one, 1));
    cr_assert(!rule_text_username_fold(bad, strlen(bad)));
    cr_assert(!rule_text_username_fold(dash, strlen(dash)));
    char max[] = "abcdefghijabcdefghijabcdefghij12", over[] = "abcdefghijabcdefghijabcdefghij123";
    cr_assert(rule_text_username_fold(max, 32));
    cr_assert(!rule_text_username_fold(over, 33));
}

Test(text, trim_and_control)
{
    size_t len = 7;
    const char *t = rule_text_trim("  ola  ", &len);
    cr_assert_eq(len, 3);
    cr_assert_eq(strncmp(t, "ola", 3), 0);
    cr_assert(rule_text_has_control("a\x01", 2, 0));
    cr_assert(!rule_text_has_control("a\nb", 3, 1));
    cr_assert(rule_text_has_control("a\nb", 3, 0));
}

Test(text, bot_usernames_are_valid_usernames)
{
    char out[33], copy[33];
    rule_text_bot_username("Meu Bot Legal!", 0, out);
    cr_assert_str_eq(out, "meu_bot_legal_bot");
    rule_text_bot_username("Meu Bot Legal!", 4242, out);
    cr_assert_str_eq(out, "meu_bot_legal_4242");
    rule_text_bot_username("Meu primeiro bot", 0, out);
    cr_assert_str_eq(out, "meu_primeiro_bot", "no bot_bot");
    rule_text_bot_username("Relógio", 0, out);
    cr_assert_str_eq(out, "relogio_bot", "accents become their letter, not a separator");
    rule_text_bot_username("Ação Œuvre Straße Łódź Ærø", 0, out);
    cr_assert_str_eq(out, "acao_ouvre_strasse_lodz_bot", "24 letters at most");
    rule_text_bot_username("Çà×ñ", 0, out);
    cr_assert_str_eq(out, "ca_n_bot", "× is no letter");
    rule_text_bot_username("😀😀", 0, out);
    cr_assert_str_eq(out, "app_bot");
    rule_text_bot_username("abcdefghijklmnopqrstuvwxyzabcdefghij", 0, out);
    cr_assert_eq(strlen(out), 28);
    const char *names[] = {"x",   "  ",    "Ação",
                           "a.b", "__x__", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        for (int attempt = 0; attempt < 2; attempt++) {
            rule_text_bot_username(names[i], attempt * 9999, out);
            memcpy(copy, out, sizeof out);
            cr_assert(rule_text_username_fold(copy, strlen(copy)), "%s", out);
        }
    }
}

Test(text, display_names_refuse_control_and_format_characters)
{
    cr_assert(rule_text_name_ok("Ana", 3));
    cr_assert(rule_text_name_ok("João Conceição", strlen("João Conceição")));
    cr_assert(rule_text_name_ok("محمد", strlen("محمد")), "any script");
    cr_assert(rule_text_name_ok("李小龙 🐉", strlen("李小龙 🐉")));
    cr_assert(!rule_text_name_ok("a\x01", 2), "C0");
    cr_assert(!rule_text_name_ok("a\x7f", 2), "DEL");
    cr_assert(!rule_text_name_ok("a\xc2\x85", 3), "C1 (NEL)");
    cr_assert(!rule_text_name_ok("admin\xe2\x80\xae", 8), "a right-to-left override");
    cr_assert(!rule_text_name_ok("an\xe2\x80\x8ba", 6), "a zero-width space");
    cr_assert(!rule_text_name_ok("x\xe2\x81\xa6y", 5), "a left-to-right isolate");
    cr_assert(!rule_text_name_ok("\xef\xbb\xbfAna", 6), "a byte order mark");
    cr_assert(!rule_text_name_ok("a\xc2\xad", 3), "a soft hyphen");
    cr_assert(!rule_text_name_ok("x\xf3\xa0\x80\xa1", 5), "a tag character");
    cr_assert(!rule_text_name_ok("a\xe2\x80", 3), "cut short");
}

Test(text, email_addresses_as_people_write_them)
{
    char out[255];
    cr_assert_eq(rule_email_ok("Ana.Souza+praca@Exemplo.COM.br", out, sizeof out), 1);
    cr_assert_str_eq(out, "ana.souza+praca@exemplo.com.br");
    cr_assert_eq(rule_email_ok("a@b.co", out, sizeof out), 1);
    static const char *const BAD[] = {
        "",           "ana",         "@exemplo.com",     "ana@",        "ana@exemplo",
        "ana@@x.com", "a b@x.com",   "ana@x..com",       "ana@-x.com",  "ana@x-.com",
        "ana@x.com.", "\"a\"@x.com", "ana@x_y.com",      "ana@x.com\n", "ana<x>@x.com",
        "ana@.x.com", "ana;b@x.com", "ana@exem plo.com",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++)
        cr_assert_eq(rule_email_ok(BAD[i], out, sizeof out), 0, "%s", BAD[i]);
    char local[80], long_domain[300];
    memset(local, 'a', 65);
    strcpy(local + 65, "@x.com");
    cr_assert_eq(rule_email_ok(local, out, sizeof out), 0, "a local part past 64");
    memset(long_domain, 'b', sizeof long_domain);
    long_domain[0] = 'a';
    long_domain[1] = '@';
    for (int i = 2; i < 250; i += 50)
        long_domain[i + 49] = '.';
    long_domain[255] = '\0';
    cr_assert_eq(rule_email_ok(long_domain, out, sizeof out), 0, "past 254 bytes");
    cr_assert_eq(rule_email_ok("a@b.co", out, 6), 0, "no room for it");
}
