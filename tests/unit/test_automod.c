/* Auto-moderation's rules: whole words, case folded (Latin-1 letters too), phrases, the
 * mention cap. */
#include <criterion/criterion.h>
#include <string.h>

#include "domain/automod.h"

static int has(const char *text, const char *word)
{
    return rule__automod_has_word(text, strlen(text), word, strlen(word));
}

Test(automod, a_word_counts_whole_and_in_any_case)
{
    cr_assert(has("que coisa feia", "feia"));
    cr_assert(has("feia!", "feia"), "punctuation ends a word");
    cr_assert(has("FEIA demais", "feia"));
    cr_assert(has("Feia", "FEIA"));
    cr_assert(!has("feiaço", "feia"), "a longer word is another word");
    cr_assert(!has("afeia", "feia"));
    cr_assert(!has("feia_mente", "feia"), "underscore joins words");
    cr_assert(!has("feia2", "feia"), "so do digits");
    cr_assert(!has("", "feia"));
    cr_assert(!has("qualquer coisa", ""), "an empty word blocks nothing");
}

Test(automod, latin1_letters_fold_too)
{
    cr_assert(has("ÓTIMO trabalho", "ótimo"));
    cr_assert(has("ótimo", "ÓTIMO"));
    cr_assert(has("AÇÃO!", "ação"));
    cr_assert(!has("×", "÷"), "× is not a capital letter");
    cr_assert(!has("ação", "acao"), "accents are not dropped");
}

Test(automod, phrases_and_words_that_start_with_punctuation)
{
    cr_assert(has("isso é muito feio.", "muito feio"));
    cr_assert(!has("muito  feio", "muito feio"), "the spaces as written");
    cr_assert(has("x@todos", "@todos"), "a word that starts with punctuation may follow anything");
    cr_assert(!has("@todoss", "@todos"));
}

Test(automod, blocked_looks_at_each_string_of_the_list)
{
    json_t *words = json_pack("[sis]", "feio", 3, "chato");
    cr_assert(rule__automod_blocked("muito chato", 11, words));
    cr_assert(!rule__automod_blocked("3 coisas", 8, words), "only strings count");
    cr_assert(!rule__automod_blocked("bonito", 6, words));
    cr_assert(!rule__automod_blocked("feio", 4, NULL), "no list, nothing blocked");
    json_decref(words);
}

Test(automod, the_mention_cap)
{
    json_t *none = json_array();
    cr_assert(!rule_automod_blocks("oi", 2, none, 3, 3), "as many as allowed");
    cr_assert(rule_automod_blocks("oi", 2, none, 3, 4));
    cr_assert(rule_automod_blocks("oi", 2, none, 0, 1));
    cr_assert(!rule_automod_blocks("oi", 2, none, -1, 1000), "no cap");
    json_t *words = json_pack("[s]", "oi");
    cr_assert(rule_automod_blocks("oi", 2, words, -1, 0), "a word blocks with no cap too");
    json_decref(words);
    json_decref(none);
}
