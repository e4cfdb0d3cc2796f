/* Search queries as typed: words, phrases, filters and their mistakes; FTS5's quoting. */
#include <criterion/criterion.h>
#include <string.h>

#include "domain/search_rules.h"

Test(search_rules, words_phrases_and_filters)
{
    struct search_query q;
    const char *why = NULL;
    cr_assert_eq(rule_search_parse("deploy \"quebrou o login\" from:@Ana in:#avisos mentions:bia "
                                   "has:link has:file after:2026-01-02 before:2026-02-01T10:00:00Z",
                                   &q, &why),
                 0, "%s", why);
    cr_assert_str_eq(q.text, "deploy \"quebrou o login\"");
    cr_assert_eq(q.terms, 2);
    cr_assert_str_eq(q.from, "Ana");
    cr_assert_str_eq(q.in, "avisos");
    cr_assert_str_eq(q.mentions, "bia");
    cr_assert(q.has_link && q.has_file && !q.has_embed);
    cr_assert_eq(q.after_ms, 1767312000000LL);
    cr_assert_eq(q.before_ms, 1769940000000LL);
    cr_assert_eq(rule_search_parse("", &q, &why), 0);
    cr_assert_str_eq(q.text, "");
    cr_assert_eq(rule_search_parse("  espaços   entre  ", &q, &why), 0);
    cr_assert_str_eq(q.text, "espaços entre");
}

Test(search_rules, mistakes)
{
    struct search_query q;
    const char *why = NULL;
    cr_assert_eq(rule_search_parse("has:foto", &q, &why), -1);
    cr_assert_str_eq(why, "has: deve ser link, embed ou file");
    cr_assert_eq(rule_search_parse("after:ontem", &q, &why), -1);
    cr_assert_eq(rule_search_parse("from:", &q, &why), -1);
    cr_assert_eq(rule_search_parse("a\x01", &q, &why), -1);
    char many[200] = "";
    for (int i = 0; i < 17; i++)
        strcat(many, "w ");
    cr_assert_eq(rule_search_parse(many, &q, &why), -1);
    cr_assert_str_eq(why, "no máximo 16 palavras ou frases");
    char big[700];
    memset(big, 'x', 600);
    big[600] = 0;
    cr_assert_eq(rule_search_parse(big, &q, &why), -1);
    cr_assert_eq(rule_search_parse("url:http://x", &q, &why), 0, "an unknown key is a word");
    cr_assert_str_eq(q.text, "url:http://x");
}

Test(search_rules, fts5_quoting)
{
    char out[128];
    rule_search_fts5("deploy \"quebrou o login\"", out, sizeof out);
    cr_assert_str_eq(out, "\"deploy\" \"quebrou o login\"");
    rule_search_fts5("NEAR( a OR * ^", out, sizeof out);
    cr_assert_str_eq(out, "\"NEAR(\" \"a\" \"OR\" \"*\" \"^\"");
    rule_search_fts5("say \"hi", out, sizeof out);
    cr_assert_str_eq(out, "\"say\" \"hi\"");
    rule_search_fts5("a\"b", out, sizeof out);
    cr_assert_str_eq(out, "\"a\"\"b\"");
    rule_search_fts5("", out, sizeof out);
    cr_assert_str_eq(out, "");
}
