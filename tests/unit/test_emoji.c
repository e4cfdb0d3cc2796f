/* The reaction rules: which strings are one emoji, and which are custom emoji IDs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "domain/emoji.h"

static int valid(const char *s)
{
    return rule_emoji_valid(s, strlen(s));
}

Test(emoji, accepts_what_people_react_with)
{
    const char *ok[] = {
        "👍",
        "❤️",
        "❤",
        "😂",
        "👍🏽",
        "👩‍💻",
        "👩🏽‍💻",
        "🏳️‍🌈",
        "👨‍👩‍👧‍👦",
        "🇧🇷",
        "1️⃣",
        "#⃣",
        "✅",
        "©️",
        "🫠",
        "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", /* Scotland */
        "☕",
        "⭐",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        cr_expect(valid(ok[i]), "%s", ok[i]);
}

Test(emoji, refuses_text_and_malformed_sequences)
{
    const char *bad[] = {
        "",
        "a",
        "ok",
        "1",
        "👍 ",
        " 👍",
        "👍a",
        "👍👍x",
        "\xe2\x80\x8d",
        "👍‍",
        "‍👍",
        "🇧",
        "🇧🇷🇵",
        "1\xe2\x83",
        "️",
        "🏽",
        "\xf0\x9f\x91",
        "é",
        "<b>",
        "x\xcc\x81",
        "*",
        "#",
        "1\xef\xb8\x8f",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect(!valid(bad[i]), "%s", bad[i]);
    char longest[200] = "";
    for (int i = 0; i < 20; i++)
        strcat(longest, "👍\xe2\x80\x8d"); /* joined, past 64 bytes */
    strcat(longest, "👍");
    cr_expect(!valid(longest));
}

Test(emoji, pictographs_joined_without_a_joiner_are_two_emoji)
{
    cr_expect(!valid("👍👎"));
    cr_expect(valid("👍\xe2\x80\x8d👎"));
}

Test(emoji, custom_ids_are_words)
{
    cr_expect(rule_emoji_custom_id_valid("festa_123", 9));
    cr_expect(rule_emoji_custom_id_valid("01a1fe3b-0000-7000-8000-000000000000", 36));
    cr_expect(!rule_emoji_custom_id_valid("", 0));
    cr_expect(!rule_emoji_custom_id_valid("a b", 3));
    cr_expect(!rule_emoji_custom_id_valid("<script>", 8));
    cr_expect(!rule_emoji_custom_id_valid("👍", strlen("👍")));
    char long_id[66];
    memset(long_id, 'a', 65);
    long_id[65] = '\0';
    cr_expect(!rule_emoji_custom_id_valid(long_id, 65));
}

Test(emoji, names_are_folded_words_of_2_to_32)
{
    char ok[] = "Festa_Junina2";
    cr_expect(rule_emoji_name_fold(ok, strlen(ok)));
    cr_expect_str_eq(ok, "festa_junina2");
    static const char *const bad[] = {
        "a", "com espaço", "ação", "traço-não", ":festa:", "abcdefghijklmnopqrstuvwxyz0123456"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char copy[64];
        snprintf(copy, sizeof copy, "%s", bad[i]);
        cr_expect(!rule_emoji_name_fold(copy, strlen(copy)), "%s", bad[i]);
    }
    char longest[] = "abcdefghijklmnopqrstuvwxyz012345";
    cr_expect(rule_emoji_name_fold(longest, 32));
}
