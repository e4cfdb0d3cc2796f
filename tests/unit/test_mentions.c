#include <criterion/criterion.h>
#include <string.h>

#include "domain/automod.h"
#include "domain/mentions.h"

static const struct mention_user USERS[] = {
    {"u-ana", "ana"}, {"u-bia", "bia.s"}, {"u-anab", "ana_b"}};
static const struct mention_role ROLES[] = {
    {"r-mod", "Mod"}, {"r-modteam", "Mod Team"}, {"r-ana", "ana"}};

static struct mention_result resolve(const char *text, int allow)
{
    struct mention_result r;
    rule_mentions_resolve(text, strlen(text), USERS, 3, ROLES, 3, allow, &r);
    return r;
}

Test(mentions, candidates_are_distinct_lowercase_names)
{
    char out[8][33];
    const char *t = "oi @Ana e @bia.s. e @ana de novo, mail x@ana.com @a @";
    size_t n = rule_mentions_candidates(t, strlen(t), out, 8);
    cr_assert_eq(n, 2);
    cr_assert_str_eq(out[0], "ana");
    cr_assert_str_eq(out[1], "bia.s");
}

Test(mentions, users_roles_longest_wins)
{
    struct mention_result r = resolve("@ana @Mod Team olhem @MOD e @bia.s.", 0);
    cr_assert_eq(r.nusers, 2);
    cr_assert_str_eq(r.user_ids[0], "u-ana"); /* a user beats a role of the same length */
    cr_assert_str_eq(r.user_ids[1], "u-bia");
    cr_assert_eq(r.nroles, 2);
    cr_assert_str_eq(r.role_ids[0], "r-modteam");
    cr_assert_str_eq(r.role_ids[1], "r-mod");
    cr_assert_eq(r.total, 4);
    struct mention_result none = resolve("@Moderators @anab x@ana", 0);
    cr_assert_eq(none.total, 0);
    struct mention_result longer = resolve("@ana_b!", 0);
    cr_assert_eq(longer.nusers, 1);
    cr_assert_str_eq(longer.user_ids[0], "u-anab");
}

Test(mentions, everyone_and_here_need_permission)
{
    struct mention_result denied = resolve("@everyone @here", 0);
    cr_assert_eq(denied.everyone, 0);
    cr_assert_eq(denied.total, 0);
    struct mention_result allowed = resolve("atenção @here!", 1);
    cr_assert_eq(allowed.everyone, 1);
    cr_assert_eq(allowed.total, 1);
    struct mention_result twice = resolve("@ana @ana @everyone @everyone", 1);
    cr_assert_eq(twice.nusers, 1);
    cr_assert_eq(twice.total, 2);
}

Test(automod, whole_words_case_insensitive)
{
    cr_assert(rule__automod_has_word("isso é FEIO demais", 19, "feio", 4));
    cr_assert(!rule__automod_has_word("feiosa", 6, "feio", 4));
    cr_assert(!rule__automod_has_word("afeio", 5, "feio", 4));
    cr_assert(rule__automod_has_word("feio.", 5, "feio", 4));
    const char *t = "que ÓTIMO";
    cr_assert(rule__automod_has_word(t, strlen(t), "ótimo", strlen("ótimo")));
    cr_assert(rule__automod_has_word("palavra Feia aqui", 17, "palavra feia", 12));
    cr_assert(!rule__automod_has_word("", 0, "x", 1));
    json_t *words = json_pack("[ss]", "spam", "golpe");
    cr_assert(rule_automod_blocks("é um GOLPE", 11, words, -1, 0));
    cr_assert(!rule_automod_blocks("golpes", 6, words, -1, 0));
    cr_assert(rule_automod_blocks("oi", 2, words, 2, 3));
    cr_assert(!rule_automod_blocks("oi", 2, words, 3, 3));
    cr_assert(!rule_automod_blocks("oi", 2, words, -1, 99));
    json_decref(words);
}
