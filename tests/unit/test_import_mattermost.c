#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "domain/emoji.h"
#include "domain/import_mattermost.h"

static json_t *load(const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    cr_assert(v, "%s", text);
    return v;
}

Test(import_mattermost, a_line_says_its_kind_and_the_first_its_version)
{
    static const struct {
        const char *line;
        enum rule_mm_kind kind;
    } CASES[] = {
        {"{\"type\":\"version\",\"version\":1}", RULE_MM_VERSION},
        {"{\"type\":\"team\",\"team\":{}}", RULE_MM_TEAM},
        {"{\"type\":\"channel\"}", RULE_MM_CHANNEL},
        {"{\"type\":\"user\"}", RULE_MM_USER},
        {"{\"type\":\"post\"}", RULE_MM_POST},
        {"{\"type\":\"direct_post\"}", RULE_MM_DIRECT_POST},
        {"{\"type\":\"emoji\"}", RULE_MM_OTHER},
        {"{\"type\":\"scheme\"}", RULE_MM_OTHER},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        json_t *v = load(CASES[i].line);
        enum rule_mm_kind kind;
        const char *why;
        cr_assert_eq(rule_mm_kind(v, &kind, &why), 0);
        cr_assert_eq(kind, CASES[i].kind, "%s", CASES[i].line);
        json_decref(v);
    }
    json_t *v = load("{\"version\":1}");
    enum rule_mm_kind kind;
    const char *why = NULL;
    cr_assert_eq(rule_mm_kind(v, &kind, &why), -1);
    cr_assert(why);
    cr_assert_eq(rule_mm_version(v), 1);
    json_decref(v);
}

Test(import_mattermost, channels_and_users_read_their_names)
{
    json_t *c = load("{\"type\":\"channel\",\"channel\":{\"team\":\"t\",\"name\":\"s\","
                     "\"display_name\":\"Segredos\",\"type\":\"P\",\"purpose\":\"\","
                     "\"header\":\"H\"}}");
    struct rule_mm_channel ch;
    const char *why;
    cr_assert_eq(rule_mm_channel(c, &ch, &why), 0);
    cr_assert_str_eq(ch.display_name, "Segredos");
    cr_assert_str_eq(ch.topic, "H", "the header when the purpose is empty");
    cr_assert_eq(ch.is_private, 1);
    json_decref(c);
    static const char *const USERS[][2] = {
        {"{\"username\":\"a\",\"nickname\":\"Ana\",\"first_name\":\"X\"}", "Ana"},
        {"{\"username\":\"b\",\"first_name\":\"Bóris\",\"last_name\":\"Ünal\"}", "Bóris Ünal"},
        {"{\"username\":\"c\",\"last_name\":\"Souza\"}", "Souza"},
        {"{\"username\":\"d\",\"nickname\":\"\"}", "d"},
    };
    for (size_t i = 0; i < 4; i++) {
        char line[256];
        snprintf(line, sizeof line, "{\"type\":\"user\",\"user\":%s}", USERS[i][0]);
        json_t *u = load(line);
        struct rule_mm_user user;
        cr_assert_eq(rule_mm_user(u, &user, &why), 0);
        cr_assert_str_eq(user.name, USERS[i][1]);
        json_decref(u);
    }
    struct rule_mm_user user;
    json_t *pictured = load("{\"type\":\"user\",\"user\":{\"username\":\"e\","
                            "\"profile_image\":\"data/e.png\"}}");
    cr_assert_eq(rule_mm_user(pictured, &user, &why), 0);
    cr_assert_str_eq(user.picture, "data/e.png");
    json_decref(pictured);
    json_t *nameless = load("{\"type\":\"user\",\"user\":{\"nickname\":\"x\"}}");
    cr_assert_eq(rule_mm_user(nameless, &user, &why), -1);
    json_decref(nameless);
}

Test(import_mattermost, a_users_channels_across_teams)
{
    json_t *u = load("{\"type\":\"user\",\"user\":{\"username\":\"a\",\"teams\":[{\"name\":\"t1\","
                     "\"channels\":[{\"name\":\"c1\"},{\"name\":\"c2\"}]},{\"name\":\"t2\","
                     "\"channels\":[{\"name\":\"c3\"}]}]}}");
    struct rule_mm_user user;
    const char *why, *team;
    cr_assert_eq(rule_mm_user(u, &user, &why), 0);
    cr_assert_null(user.picture);
    cr_assert_str_eq(rule_mm_user_channel(&user, 1, &team), "c2");
    cr_assert_str_eq(team, "t1");
    cr_assert_str_eq(rule_mm_user_channel(&user, 2, &team), "c3");
    cr_assert_str_eq(team, "t2");
    cr_assert_null(rule_mm_user_channel(&user, 3, &team));
    json_decref(u);
}

Test(import_mattermost, a_post_its_replies_reactions_and_files)
{
    json_t *v = load("{\"type\":\"post\",\"post\":{\"team\":\"t\",\"channel\":\"c\",\"user\":\"a\","
                     "\"message\":\"oi\",\"create_at\":1690000000000,\"is_pinned\":true,"
                     "\"reactions\":[{\"user\":\"b\",\"emoji_name\":\"+1\",\"create_at\":5},"
                     "{\"user\":\"c\",\"emoji_name\":\"partyparrot\"}],"
                     "\"attachments\":[{\"path\":\"data/x/capa.png\"},{\"path\":\"\"}],"
                     "\"replies\":[{\"user\":\"b\",\"message\":\"r\",\"create_at\":1690000001000},"
                     "{\"user\":\"b\"},3]}}");
    struct rule_mm_post p, r;
    const char *why, *user, *emoji;
    int64_t at;
    cr_assert_eq(rule_mm_post(v, &p, &why), 0);
    cr_assert_eq(p.at, 1690000000000LL);
    cr_assert_eq(p.pinned, 1);
    cr_assert_eq(rule_mm_reaction(&p, 0, &user, &emoji, &at), 0);
    cr_assert_str_eq(emoji, "👍");
    cr_assert_eq(at, 5);
    cr_assert_eq(rule_mm_reaction(&p, 1, &user, &emoji, &at), 0);
    cr_assert_null(emoji, "a team's own emoji has no Unicode form");
    cr_assert_eq(at, p.at);
    cr_assert_eq(rule_mm_reaction(&p, 2, &user, &emoji, &at), -1);
    const char *name;
    cr_assert_str_eq(rule_mm_attachment(&p, 0, &name), "data/x/capa.png");
    cr_assert_str_eq(name, "capa.png");
    cr_assert_str_eq(rule_mm_attachment(&p, 1, &name), "");
    cr_assert_str_eq(name, "");
    cr_assert_null(rule_mm_attachment(&p, 2, &name));
    cr_assert_eq(rule_mm_reply(&p, 0, &r, &why), 0);
    cr_assert_str_eq(r.channel, "c");
    cr_assert_null(r.replies);
    cr_assert_eq(rule_mm_reply(&p, 1, &r, &why), -1, "a reply without a time");
    cr_assert_eq(rule_mm_reply(&p, 2, &r, &why), -1, "a reply that is not an object");
    cr_assert_eq(rule_mm_reply(&p, 3, &r, &why), -1, "past the last");
    json_decref(v);
    json_t *bad = load("{\"type\":\"post\",\"post\":{\"channel\":\"c\",\"user\":\"a\"}}");
    cr_assert_eq(rule_mm_post(bad, &p, &why), -1);
    json_decref(bad);
}

Test(import_mattermost, emoji_names_become_unicode)
{
    cr_assert_str_eq(rule_emoji_by_name("tada"), "🎉");
    cr_assert_str_eq(rule_emoji_by_name("white_check_mark"), "✅");
    cr_assert_null(rule_emoji_by_name("partyparrot"));
    cr_assert_null(rule_emoji_by_name(NULL));
    cr_assert_str_eq(rule_emoji_by_name("+1::skin-tone-3"), "👍", "the skin tone left out");
    cr_assert_null(rule_emoji_by_name("+"), "a name's prefix is not the name");
}
