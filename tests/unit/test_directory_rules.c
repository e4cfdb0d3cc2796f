#include <criterion/criterion.h>
#include <string.h>

#include "domain/directory_rules.h"

static const char *fold(const char *s)
{
    static char out[256];
    rule_directory_fold(s, strlen(s), out, sizeof out);
    return out;
}

Test(directory_rules, folds_case_and_latin_accents_only)
{
    cr_assert_str_eq(fold("Música"), "musica");
    cr_assert_str_eq(fold("AÇÃO Pública ÉÈÊË ñ ÿ"), "acao publica eeee n y");
    cr_assert_str_eq(fold("São Paulo × 2 ß"), "sao paulo × 2 ß"); /* no base letter: kept */
    cr_assert_str_eq(fold("日本 Ωmega"), "日本 Ωmega");
    char small[6];
    cr_assert_eq(rule_directory_fold("ab日本", 8, small, sizeof small), 5);
    cr_assert_str_eq(small, "ab日"); /* cut at a character, never inside one */
    cr_assert_eq(rule_directory_fold("\xc3", 1, small, sizeof small), 1); /* a cut sequence */
    cr_assert_eq(rule_directory_fold("\xc3\x41", 2, small, sizeof small), 2);
}

Test(directory_rules, tags_are_folded_words_of_letters_digits_and_hyphens)
{
    char out[DIRECTORY_TAG_MAX + 1];
    cr_assert(rule_directory_tag("Música", 7, out, sizeof out));
    cr_assert_str_eq(out, "musica");
    cr_assert(rule_directory_tag("jogos-2d", 8, out, sizeof out));
    cr_assert_str_eq(out, "jogos-2d");
    static const char *const bad[] = {"a",          "-jogos", "jogos-",
                                      "dois nomes", "emoji😀", "abcdefghijklmnopqrstuvwxy",
                                      "sub_linha",  ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert_not(rule_directory_tag(bad[i], strlen(bad[i]), out, sizeof out), "%s", bad[i]);
    cr_assert(rule_directory_tag("abcdefghijklmnopqrstuvwx", 24, out, sizeof out));
    cr_assert_not(rule_directory_tag("jogos", 5, out, 10)); /* too small a buffer */
}

Test(directory_rules, every_word_must_match_after_folding)
{
    struct directory_words w;
    cr_assert_eq(rule_directory_words("  Musica   ROCK ", 16, &w), 2);
    cr_assert_str_eq(w.word[0], "musica");
    cr_assert_str_eq(w.word[1], "rock");
    cr_assert(rule_directory_match("clube da música rock nacional", &w) == 0); /* not folded */
    cr_assert(rule_directory_match("clube da musica rock nacional", &w));
    cr_assert_not(rule_directory_match("clube da musica", &w));
    cr_assert_eq(rule_directory_words("   ", 3, &w), 0);
    cr_assert(rule_directory_match("anything", &w)); /* no words: everything */
    cr_assert_eq(rule_directory_words("a b c d e f g h i j", 19, &w), DIRECTORY_WORDS_MAX);
    char long_word[100];
    memset(long_word, 'x', sizeof long_word);
    cr_assert_eq(rule_directory_words(long_word, sizeof long_word, &w), 1);
    cr_assert_eq(strlen(w.word[0]), DIRECTORY_WORD_MAX);
}

Test(directory_rules, order_is_online_then_members_then_age_then_id)
{
    struct directory_rank a = {10, 50, 100, "b"}, b = {9, 500, 50, "a"};
    cr_assert_lt(rule_directory_cmp(&a, &b), 0);
    b.online = 10;
    cr_assert_gt(rule_directory_cmp(&a, &b), 0); /* more members */
    b.members = 50;
    cr_assert_gt(rule_directory_cmp(&a, &b), 0); /* older */
    b.created_at = 100;
    cr_assert_gt(rule_directory_cmp(&a, &b), 0); /* then the ID */
    cr_assert_eq(rule_directory_cmp(&a, &a), 0);
}
