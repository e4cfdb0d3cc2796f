#include <criterion/criterion.h>
#include <string.h>

#include "core/uuid.h"
#include "domain/import_discord.h"
#include "domain/import_ids.h"

static json_t *load(const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    cr_assert(v, "%s", text);
    return v;
}

#define EXPORT(channel, messages)                                                                  \
    "{\"guild\":{\"id\":\"881\",\"name\":\"Clube\"},\"channel\":" channel                          \
    ",\"messages\":[" messages "]}"
#define ALICE "{\"id\":\"100\",\"name\":\"alice\",\"nickname\":\"Alice\",\"isBot\":false}"

Test(import_discord, a_channel_reads_its_guild_category_and_topic)
{
    json_t *root = load(EXPORT("{\"id\":\"10\",\"type\":\"GuildTextChat\",\"categoryId\":\"5\","
                               "\"category\":\"Conversa\",\"name\":\"geral\",\"topic\":\"\"}",
                               ""));
    struct rule_discord_channel c;
    const char *why = NULL;
    cr_assert_eq(rule_discord_channel(root, &c, &why), 0);
    cr_assert_str_eq(c.guild_id, "881");
    cr_assert_str_eq(c.guild_name, "Clube");
    cr_assert_str_eq(c.name, "geral");
    cr_assert_str_eq(c.category, "Conversa");
    cr_assert_null(c.topic, "an empty topic is none");
    cr_assert_eq(c.is_thread, 0);
    json_decref(root);
}

Test(import_discord, what_is_not_an_export_is_refused_with_why)
{
    static const char *const BAD[] = {
        "[]",
        "{\"guild\":{\"id\":\"1\",\"name\":\"G\"},\"channel\":{\"id\":\"2\",\"name\":\"c\"}}",
        EXPORT("{\"id\":\"\",\"name\":\"c\"}", ""),
        EXPORT("{\"id\":\"2\"}", ""),
        "{\"guild\":{\"name\":\"G\"},\"channel\":{\"id\":\"2\",\"name\":\"c\"},\"messages\":[]}",
        EXPORT("{\"id\":\"2\",\"name\":\"t\",\"type\":\"GuildPublicThread\"}", ""),
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        json_t *root = load(BAD[i]);
        struct rule_discord_channel c;
        const char *why = NULL;
        cr_assert_eq(rule_discord_channel(root, &c, &why), -1, "%s", BAD[i]);
        cr_assert(why && *why);
        json_decref(root);
    }
}

Test(import_discord, a_thread_names_its_channel)
{
    json_t *root = load(EXPORT("{\"id\":\"20\",\"type\":\"GuildPublicThread\",\"categoryId\":"
                               "\"10\",\"category\":\"geral\",\"name\":\"Livro\"}",
                               ""));
    struct rule_discord_channel c;
    const char *why;
    cr_assert_eq(rule_discord_channel(root, &c, &why), 0);
    cr_assert_eq(c.is_thread, 1);
    cr_assert_str_eq(c.category_id, "10");
    json_decref(root);
}

Test(import_discord, a_message_reads_time_edit_reply_pin_and_author_nickname)
{
    json_t *root = load(
        EXPORT("{\"id\":\"10\",\"name\":\"geral\"}",
               "{\"id\":\"1107001228656640000\",\"type\":\"Reply\","
               "\"timestamp\":\"2023-05-13T19:47:40.1234567+02:00\","
               "\"timestampEdited\":\"2023-05-13T17:48:40.000+00:00\",\"isPinned\":true,"
               "\"content\":\"Oi\",\"author\":" ALICE ",\"reference\":{\"messageId\":\"99\"},"
               "\"reactions\":[{\"emoji\":{\"id\":\"\",\"name\":\"👍\"},\"users\":[" ALICE "]},"
               "{\"emoji\":{\"id\":\"77\",\"name\":\"livro\"},\"users\":[]}]},"
               "{\"id\":\"2\",\"type\":\"GuildMemberJoin\",\"timestamp\":\"2023-05-13T17:48:40Z\","
               "\"content\":\"\",\"author\":" ALICE "},"
               "{\"id\":\"3\",\"timestamp\":\"ontem\",\"author\":" ALICE "},"
               "{\"id\":\"4\",\"timestamp\":\"2023-05-13T17:48:40Z\",\"author\":{\"id\":\"5\"}},"
               "7"));
    struct rule_discord_channel c;
    const char *why;
    cr_assert_eq(rule_discord_channel(root, &c, &why), 0);
    const json_t *messages = json_object_get(root, "messages");
    struct rule_discord_message m;
    cr_assert_eq(rule_discord_message(json_array_get(messages, 0), &m, &why), 0);
    cr_assert_eq(m.at, 1684000060123LL, "the fraction cut to milliseconds, the offset applied");
    cr_assert_eq(m.edited_at, 1684000120000LL);
    cr_assert_eq(m.pinned, 1);
    cr_assert_eq(m.system, 0);
    cr_assert_str_eq(m.reply_to, "99");
    cr_assert_str_eq(m.author.name, "Alice", "the server nickname first");
    const char *emoji;
    const json_t *users;
    cr_assert_eq(rule_discord_reaction(&m, 0, &emoji, &users), 0);
    cr_assert_str_eq(emoji, "👍");
    cr_assert_eq(json_array_size(users), 1);
    cr_assert_eq(rule_discord_reaction(&m, 1, &emoji, &users), 0);
    cr_assert_null(emoji, "a server's own emoji has no Unicode form");
    cr_assert_null(users);
    cr_assert_eq(rule_discord_reaction(&m, 2, &emoji, &users), -1);
    cr_assert_eq(rule_discord_message(json_array_get(messages, 1), &m, &why), 0);
    cr_assert_eq(m.system, 1, "a join notice is Discord's, not a person's words");
    cr_assert_eq(rule_discord_message(json_array_get(messages, 2), &m, &why), -1,
                 "a time that is not one");
    cr_assert_eq(rule_discord_message(json_array_get(messages, 3), &m, &why), -1,
                 "an author without a name");
    cr_assert_eq(rule_discord_message(json_array_get(messages, 4), &m, &why), -1, "not an object");
    cr_assert_eq(rule_discord_message(json_array_get(messages, 5), &m, &why), -1, "past the end");
    json_decref(root);
}

Test(import_discord, an_authors_roles_keep_name_colour_and_rank)
{
    json_t *a = load("{\"id\":\"1\",\"name\":\"ana\",\"roles\":[{\"id\":\"7\",\"name\":\"Mod\","
                     "\"color\":\"#E67e22\",\"position\":3},{\"id\":\"8\",\"name\":\"Sem cor\","
                     "\"color\":null,\"position\":-2},{\"name\":\"sem id\"},{\"id\":\"9\","
                     "\"name\":\"x\",\"color\":\"#GG0000\"}]}");
    struct rule_discord_author au;
    const char *why;
    cr_assert_eq(rule_discord_author(a, &au, &why), 0);
    cr_assert_null(au.avatar);
    struct rule_discord_role r;
    cr_assert_eq(rule_discord_role(&au, 0, &r), 0);
    cr_assert_str_eq(r.name, "Mod");
    cr_assert_eq(r.color, 0xE67E22);
    cr_assert_eq(r.position, 3);
    cr_assert_eq(rule_discord_role(&au, 1, &r), 0);
    cr_assert_eq(r.color, 0, "no colour");
    cr_assert_eq(r.position, 1, "a rank below one is one");
    cr_assert_eq(rule_discord_role(&au, 2, &r), -1, "a role without id");
    cr_assert_eq(rule_discord_role(&au, 3, &r), 0);
    cr_assert_eq(r.color, 0, "a colour that is not one");
    cr_assert_eq(rule_discord_role(&au, 4, &r), -1, "past the last");
    json_decref(a);
}

Test(import_discord, a_snowflake_tells_its_millisecond)
{
    cr_assert_eq(rule_discord_snowflake_ms("1107001228656640000"), 1684000060000LL);
    cr_assert_eq(rule_discord_snowflake_ms("175928847299117063"), 1462015105796LL);
    cr_assert_eq(rule_discord_snowflake_ms(""), 0);
    cr_assert_eq(rule_discord_snowflake_ms("12a"), 0);
    cr_assert_eq(rule_discord_snowflake_ms("99999999999999999999"), 0, "past 64 bits");
    cr_assert_eq(rule_discord_snowflake_ms(NULL), 0);
}

Test(import_ids, the_same_source_gives_the_same_id_and_others_differ)
{
    char a[UUID_LEN + 1], b[UUID_LEN + 1], c[UUID_LEN + 1], d[UUID_LEN + 1];
    rule_import_id("k", "person", "100", a);
    rule_import_id("k", "person", "100", b);
    rule_import_id("k", "channel", "100", c);
    rule_import_id("k2", "person", "100", d);
    cr_assert_str_eq(a, b);
    cr_assert_str_neq(a, c);
    cr_assert_str_neq(a, d);
    cr_assert(uuid_valid(a, strlen(a)));
    cr_assert_eq(a[14], '8', "version 8: derived");
    cr_assert(strchr("89ab", a[19]), "RFC 9562's variant");
}

Test(import_ids, message_ids_sort_by_time_then_part)
{
    char early[UUID_LEN + 1], late[UUID_LEN + 1], part0[UUID_LEN + 1], part1[UUID_LEN + 1];
    rule_import_message_id("k", "zzz", 1684000000000LL, 0, early);
    rule_import_message_id("k", "aaa", 1684000000001LL, 0, late);
    rule_import_message_id("k", "m", 1684000000000LL, 0, part0);
    rule_import_message_id("k", "m", 1684000000000LL, 1, part1);
    cr_assert_lt(strcmp(early, late), 0);
    cr_assert_lt(strcmp(part0, part1), 0);
    cr_assert(uuid_valid(early, strlen(early)));
    cr_assert_eq(early[14], '7');
    char floor[UUID_LEN + 1];
    uuid_v7_floor(1684000000000LL, floor);
    cr_assert_eq(strncmp(early, floor, 13), 0, "the time is a UUIDv7's");
}

Test(import_ids, a_placeholder_username_keeps_what_the_rule_allows)
{
    char out[32];
    rule_import_username("Bóris Ünal", "967fd2bb-f732", out);
    cr_assert_str_eq(out, "brisnal.967fd2bb");
    rule_import_username("雪", "58b4eba8-6277", out);
    cr_assert_str_eq(out, "pessoa.58b4eba8");
    rule_import_username("A_Very.Long-Name-That-Goes-On-And-On", "0123456789", out);
    cr_assert_str_eq(out, "a_very.longnamethatg.01234567");
    cr_assert_leq(strlen(out), 32);
}
