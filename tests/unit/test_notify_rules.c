#include <criterion/criterion.h>

#include "domain/notify_rules.h"

#define NOW 1000000000000LL

Test(notify_rules, levels_and_mutes_parse)
{
    cr_assert_eq(rule_notify_level_parse("all"), NOTIFY_ALL);
    cr_assert_eq(rule_notify_level_parse("mentions"), NOTIFY_MENTIONS);
    cr_assert_eq(rule_notify_level_parse("nothing"), NOTIFY_NOTHING);
    cr_assert_eq(rule_notify_level_parse("default"), NOTIFY_DEFAULT);
    cr_assert_eq(rule_notify_level_parse("ALL"), -1);
    cr_assert_eq(rule_notify_level_parse(NULL), -1);
    cr_assert_str_eq(rule_notify_level_name(NOTIFY_MENTIONS), "mentions");
    cr_assert_eq(rule_notify_mute_until(0, NOW), 0);
    cr_assert_eq(rule_notify_mute_until(-1, NOW), NOTIFY_MUTED_FOREVER);
    cr_assert_eq(rule_notify_mute_until(8, NOW), NOW + 8 * 3600000LL);
    cr_assert_eq(rule_notify_mute_until(2, NOW), -2);
}

Test(notify_rules, a_dm_always_unless_dnd_reading_or_own)
{
    struct notify_facts f = {.is_dm = 1, .server.level = NOTIFY_NOTHING};
    cr_assert(rule_notify_decide(&f, NOW));
    f.do_not_disturb = 1;
    cr_assert_not(rule_notify_decide(&f, NOW));
    f.do_not_disturb = 0, f.reading = 1;
    cr_assert_not(rule_notify_decide(&f, NOW));
    f.reading = 0, f.author = 1;
    cr_assert_not(rule_notify_decide(&f, NOW));
}

Test(notify_rules, a_server_notifies_mentions_by_default)
{
    struct notify_facts f = {0};
    cr_assert_not(rule_notify_decide(&f, NOW), "a plain message");
    f.mentioned = 1;
    cr_assert(rule_notify_decide(&f, NOW));
    f.mentioned = 0, f.role_mentioned = 1;
    cr_assert(rule_notify_decide(&f, NOW));
    f.server.suppress_roles = 1;
    cr_assert_not(rule_notify_decide(&f, NOW), "role mentions suppressed");
    f.role_mentioned = 0, f.everyone = 1;
    cr_assert(rule_notify_decide(&f, NOW));
    f.server.suppress_everyone = 1;
    cr_assert_not(rule_notify_decide(&f, NOW), "@everyone suppressed");
    f.mentioned = 1;
    cr_assert(rule_notify_decide(&f, NOW), "a direct mention is never suppressed");
}

Test(notify_rules, the_channel_level_wins_over_the_server)
{
    struct notify_facts f = {.server.level = NOTIFY_ALL};
    cr_assert(rule_notify_decide(&f, NOW), "all from the server");
    f.channel.level = NOTIFY_MENTIONS;
    cr_assert_not(rule_notify_decide(&f, NOW), "only mentions in this channel");
    f.server.level = NOTIFY_NOTHING, f.channel.level = NOTIFY_ALL;
    cr_assert(rule_notify_decide(&f, NOW), "everything in this channel of a quiet server");
    f.channel.level = NOTIFY_NOTHING, f.mentioned = 1;
    cr_assert_not(rule_notify_decide(&f, NOW), "nothing means nothing, mentions too");
}

Test(notify_rules, a_mute_silences_until_it_ends)
{
    struct notify_facts f = {.mentioned = 1, .channel.muted_until = NOW + 1};
    cr_assert_not(rule_notify_decide(&f, NOW));
    cr_assert(rule_notify_decide(&f, NOW + 1), "the mute ended");
    f.channel.muted_until = 0, f.server.muted_until = NOTIFY_MUTED_FOREVER;
    cr_assert_not(rule_notify_decide(&f, NOW + 1000000000));
    f.is_dm = 1;
    cr_assert(rule_notify_decide(&f, NOW), "a server's mute says nothing of DMs");
}
