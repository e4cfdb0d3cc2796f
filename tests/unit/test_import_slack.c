#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/import_slack.h"

static json_t *load(const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    cr_assert(v, "%s", text);
    return v;
}

Test(import_slack, a_timestamp_is_milliseconds)
{
    cr_assert_eq(rule_slack_ts_ms("1690000000.000100"), 1690000000000LL);
    cr_assert_eq(rule_slack_ts_ms("1690000000.123456"), 1690000000123LL);
    cr_assert_eq(rule_slack_ts_ms("1690000000.5"), 1690000000500LL);
    cr_assert_eq(rule_slack_ts_ms("1690000000"), 1690000000000LL);
    cr_assert_eq(rule_slack_ts_ms("169x"), 0);
    cr_assert_eq(rule_slack_ts_ms(".5"), 0);
    cr_assert_eq(rule_slack_ts_ms(""), 0);
    cr_assert_eq(rule_slack_ts_ms(NULL), 0);
    cr_assert_eq(rule_slack_ts_ms("99999999999999999999.1"), 0, "past 64 bits");
}

Test(import_slack, users_and_channels)
{
    json_t *u = load("{\"id\":\"U1\",\"name\":\"ana\",\"real_name\":\"Ana S\",\"profile\":{"
                     "\"display_name\":\"\",\"real_name\":\"Ana Souza\"}}");
    struct rule_slack_user user;
    const char *why;
    cr_assert_eq(rule_slack_user(u, &user, &why), 0);
    cr_assert_str_eq(user.name, "Ana Souza", "the display name, else the profile's real name");
    cr_assert_null(user.picture);
    json_decref(u);
    u = load("{\"id\":\"U2\",\"name\":\"bia\",\"profile\":{\"image_72\":\"https://a/72.png\","
             "\"image_192\":\"https://a/192.png\"}}");
    cr_assert_eq(rule_slack_user(u, &user, &why), 0);
    cr_assert_str_eq(user.picture, "https://a/192.png", "the largest picture the profile has");
    json_decref(u);
    json_t *c = load("{\"id\":\"C1\",\"name\":\"geral\",\"topic\":{\"value\":\"T\"},"
                     "\"purpose\":{\"value\":\"\"},\"members\":[\"U1\"]}");
    struct rule_slack_channel ch;
    cr_assert_eq(rule_slack_channel(c, &ch, &why), 0);
    cr_assert_str_eq(ch.topic, "T");
    cr_assert_eq(json_array_size(ch.members), 1);
    json_decref(c);
    static const char *const BAD[] = {"{\"id\":\"C\",\"name\":\"a/b\"}",
                                      "{\"id\":\"C\",\"name\":\"..\"}", "{\"name\":\"x\"}"};
    for (size_t i = 0; i < 3; i++) {
        json_t *b = load(BAD[i]);
        cr_assert_eq(rule_slack_channel(b, &ch, &why), -1, "%s", BAD[i]);
        json_decref(b);
    }
}

Test(import_slack, a_message_its_thread_pin_edit_and_reactions)
{
    json_t *m =
        load("{\"user\":\"U1\",\"text\":\"oi\",\"ts\":\"1690000062.000000\","
             "\"thread_ts\":\"1690000060.000000\",\"edited\":{\"ts\":\"1690000070.0\"},"
             "\"pinned_to\":[\"C9\",\"C1\"],\"reactions\":[{\"name\":\"heart\",\"users\":[\"U2\"]},"
             "{\"name\":\"partyparrot\",\"users\":[\"U3\"]}],\"files\":[{\"name\":\"a.png\",\"id\":"
             "\"F1\",\"url_private\":\"https://f/a\","
             "\"url_private_download\":\"https://f/a?d=1\"},{\"url_private\":\"https://f/b\"}]}");
    struct rule_slack_message msg;
    const char *why, *emoji;
    const json_t *users;
    cr_assert_eq(rule_slack_message(m, "C1", &msg, &why), 0);
    cr_assert_str_eq(msg.thread_ts, "1690000060.000000", "a reply");
    cr_assert_eq(msg.has_replies, 0);
    cr_assert_eq(msg.pinned, 1);
    cr_assert_eq(msg.edited_at, 1690000070000LL);
    cr_assert_eq(rule_slack_reaction(&msg, 0, &emoji, &users), 0);
    cr_assert_str_eq(emoji, "❤️");
    cr_assert_eq(rule_slack_reaction(&msg, 1, &emoji, &users), 0);
    cr_assert_null(emoji);
    cr_assert_eq(rule_slack_reaction(&msg, 2, &emoji, &users), -1);
    struct rule_slack_file file;
    cr_assert_eq(rule_slack_file(&msg, 0, &file), 0);
    cr_assert_str_eq(file.name, "a.png");
    cr_assert_str_eq(file.id, "F1");
    cr_assert_str_eq(file.url, "https://f/a?d=1", "the download link first");
    cr_assert_eq(rule_slack_file(&msg, 1, &file), 0);
    cr_assert_str_eq(file.name, "");
    cr_assert_str_eq(file.id, "");
    cr_assert_str_eq(file.url, "https://f/b");
    cr_assert_eq(rule_slack_file(&msg, 2, &file), 1);
    cr_assert_eq(rule_slack_message(m, "C2", &msg, &why), 0);
    cr_assert_eq(msg.pinned, 0, "pinned elsewhere");
    json_decref(m);
    static const char *const CASES[][2] = {
        {"{\"user\":\"U\",\"ts\":\"1.0\",\"thread_ts\":\"1.0\",\"reply_count\":2}", "parent"},
        {"{\"user\":\"U\",\"ts\":\"2.0\",\"thread_ts\":\"1.0\",\"subtype\":\"thread_broadcast\"}",
         "channel"},
        {"{\"user\":\"U\",\"ts\":\"3.0\",\"subtype\":\"channel_join\"}", "system"},
        {"{\"bot_id\":\"B1\",\"username\":\"Robô\",\"ts\":\"4.0\",\"subtype\":\"bot_message\"}",
         "bot"},
    };
    for (size_t i = 0; i < 4; i++) {
        json_t *v = load(CASES[i][0]);
        cr_assert_eq(rule_slack_message(v, "C1", &msg, &why), 0, "%s", CASES[i][0]);
        if (!strcmp(CASES[i][1], "parent"))
            cr_assert(msg.has_replies && !msg.thread_ts);
        if (!strcmp(CASES[i][1], "channel"))
            cr_assert_null(msg.thread_ts, "a reply also sent to the channel stays there");
        if (!strcmp(CASES[i][1], "system"))
            cr_assert_eq(msg.system, 1);
        if (!strcmp(CASES[i][1], "bot")) {
            cr_assert_str_eq(msg.bot_name, "Robô");
            cr_assert_str_eq(msg.user, "B1");
        }
        json_decref(v);
    }
    json_t *bad = load("{\"text\":\"sem hora nem autor\"}");
    cr_assert_eq(rule_slack_message(bad, "C1", &msg, &why), -1);
    json_decref(bad);
}

static const char *names(void *arg, const char *id)
{
    (void)arg;
    return !strcmp(id, "U1") ? "Ana|<x>" : NULL;
}

Test(import_slack, text_names_mentions_and_reads_mrkdwn)
{
    char *t = rule_slack_text("*oi* <@U1>, <@U9|velho> e <!here>: veja <#C1|geral> e "
                              "<https://a.b/c|isto> &amp; ~nada~",
                              names, NULL);
    cr_assert_str_eq(t, "**oi** @Anax, @someone e @here: veja #geral e [isto](https://a.b/c) & "
                        "~~nada~~");
    free(t);
    t = rule_slack_text("<@U1", names, NULL);
    cr_assert_str_eq(t, "<@U1", "an unclosed mention is text");
    free(t);
}
