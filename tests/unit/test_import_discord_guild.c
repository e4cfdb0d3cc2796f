#include <criterion/criterion.h>

#include "domain/import_discord_guild.h"
#include "domain/permissions.h"

static json_t *load(const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    cr_assert(v, "%s", text);
    return v;
}

Test(import_discord_guild, each_discord_bit_with_a_match_gives_praca_s_and_the_rest_none)
{
    cr_assert_eq(rule_discord_permissions(0), 0);
    cr_assert_eq(rule_discord_permissions(UINT64_C(1) << 3), PERM_ADMINISTRADOR);
    cr_assert_eq(rule_discord_permissions(UINT64_C(1) << 10 | UINT64_C(1) << 11),
                 PERM_VER_CANAL | PERM_ENVIAR_MENSAGENS);
    cr_assert_eq(rule_discord_permissions(UINT64_C(1) << 13),
                 PERM_GERENCIAR_MENSAGENS | PERM_FIXAR_MENSAGENS, "managing messages pinned too");
    cr_assert_eq(rule_discord_permissions(UINT64_C(1) << 40), PERM_MODERAR_MEMBROS);
    cr_assert_eq(rule_discord_permissions(UINT64_C(1) << 51), PERM_FIXAR_MENSAGENS);
    cr_assert_eq(rule_discord_permissions(UINT64_C(1) << 20 | UINT64_C(1) << 21),
                 PERM_CONECTAR_VOZ | PERM_FALAR);
    /* no match: priority speaker, stream, TTS, embeds, files, history, nicknames… */
    uint64_t none = UINT64_C(1) << 8 | UINT64_C(1) << 9 | UINT64_C(1) << 12 | UINT64_C(1) << 14 |
                    UINT64_C(1) << 15 | UINT64_C(1) << 16 | UINT64_C(1) << 26 | UINT64_C(1) << 27 |
                    UINT64_C(1) << 63;
    cr_assert_eq(rule_discord_permissions(none), 0);
    cr_assert_eq(rule_discord_permissions(UINT64_MAX), PERM_ALL, "every Praça bit has a source");
}

Test(import_discord_guild, roles_read_with_permissions_as_strings_or_numbers)
{
    json_t *g =
        load("{\"roles\":[{\"id\":\"881\",\"name\":\"@everyone\",\"permissions\":\"3072\","
             "\"position\":0,\"color\":0},{\"id\":\"7\",\"name\":\"Mod\",\"permissions\":8192,"
             "\"position\":3,\"color\":16711680,\"hoist\":true,\"mentionable\":true},"
             "{\"id\":\"8\",\"name\":\"Bot\",\"permissions\":\"0\",\"managed\":true},"
             "{\"id\":\"9\",\"name\":\"x\",\"permissions\":\"-1\"},"
             "{\"name\":\"sem id\",\"permissions\":\"0\"}],\"channels\":[]}");
    const char *why = NULL;
    cr_assert_eq(rule_discord_guild(g, &why), 0);
    struct rule_discord_guild_role r;
    cr_assert_eq(rule_discord_guild_role(g, 0, &r, &why), 0);
    cr_assert_str_eq(r.name, "@everyone");
    cr_assert_eq(r.permissions, PERM_VER_CANAL | PERM_ENVIAR_MENSAGENS);
    cr_assert_eq(rule_discord_guild_role(g, 1, &r, &why), 0);
    cr_assert_eq(r.permissions, PERM_GERENCIAR_MENSAGENS | PERM_FIXAR_MENSAGENS);
    cr_assert_eq(r.color, 0xFF0000);
    cr_assert_eq(r.position, 3);
    cr_assert(r.hoist && r.mentionable && !r.managed);
    cr_assert_eq(rule_discord_guild_role(g, 2, &r, &why), 0);
    cr_assert(r.managed);
    cr_assert_eq(rule_discord_guild_role(g, 3, &r, &why), -1, "a negative mask");
    cr_assert_eq(rule_discord_guild_role(g, 4, &r, &why), -1, "no id");
    cr_assert_str_eq(why, "a role without id, name or permissions");
    cr_assert_eq(rule_discord_guild_role(g, 5, &r, &why), 1, "past the last");
    json_decref(g);
}

Test(import_discord_guild, channels_read_their_kind_category_and_overwrites)
{
    json_t *g = load(
        "{\"roles\":[],\"channels\":[{\"id\":\"20\",\"type\":4,\"name\":\"Equipe\",\"position\":1},"
        "{\"id\":\"21\",\"type\":0,\"name\":\"moderação\",\"topic\":\"só a equipe\",\"parent_id\":"
        "\"20\",\"position\":2,\"permission_overwrites\":[{\"id\":\"881\",\"type\":0,\"allow\":"
        "\"0\",\"deny\":\"1024\"},{\"id\":\"55\",\"type\":1,\"allow\":\"1024\",\"deny\":\"0\"},"
        "{\"id\":\"56\",\"type\":2,\"allow\":\"0\",\"deny\":\"0\"}]},"
        "{\"id\":\"22\",\"type\":2,\"name\":\"Voz\"},{\"id\":\"23\",\"type\":15,\"name\":"
        "\"ideias\"},"
        "{\"id\":\"24\",\"type\":5,\"name\":\"avisos\"},{\"id\":\"25\",\"type\":11,\"name\":\"t\"},"
        "{\"id\":\"26\",\"name\":\"sem tipo\"}]}");
    struct rule_discord_guild_channel c;
    const char *why = NULL;
    cr_assert_eq(rule_discord_guild_channel(g, 0, &c, &why), 0);
    cr_assert_eq(c.kind, DISCORD_KIND_CATEGORY);
    cr_assert_eq(rule_discord_guild_channel(g, 1, &c, &why), 0);
    cr_assert_eq(c.kind, DISCORD_KIND_TEXT);
    cr_assert_str_eq(c.parent_id, "20");
    cr_assert_str_eq(c.topic, "só a equipe");
    struct rule_discord_overwrite o;
    cr_assert_eq(rule_discord_overwrite(&c, 0, &o), 0);
    cr_assert(!o.is_member);
    cr_assert_eq(o.deny, PERM_VER_CANAL);
    cr_assert_eq(rule_discord_overwrite(&c, 1, &o), 0);
    cr_assert(o.is_member);
    cr_assert_eq(o.allow, PERM_VER_CANAL);
    cr_assert_eq(rule_discord_overwrite(&c, 2, &o), -1, "neither a role's nor a member's");
    cr_assert_eq(rule_discord_overwrite(&c, 3, &o), 1);
    enum rule_discord_kind kinds[] = {DISCORD_KIND_VOICE, DISCORD_KIND_FORUM, DISCORD_KIND_TEXT,
                                      DISCORD_KIND_OTHER};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(rule_discord_guild_channel(g, 2 + i, &c, &why), 0);
        cr_assert_eq(c.kind, kinds[i], "channel %zu", 2 + i);
        cr_assert_null(c.parent_id);
    }
    cr_assert_eq(rule_discord_guild_channel(g, 6, &c, &why), -1);
    cr_assert_eq(rule_discord_guild_channel(g, 7, &c, &why), 1);
    json_decref(g);
}

Test(import_discord_guild, what_is_not_a_structure_is_refused)
{
    static const char *const BAD[] = {"[]", "{}", "{\"roles\":[]}",
                                      "{\"roles\":{},\"channels\":[]}"};
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        json_t *g = load(BAD[i]);
        const char *why = NULL;
        cr_assert_eq(rule_discord_guild(g, &why), -1, "%s", BAD[i]);
        cr_assert_not_null(why);
        json_decref(g);
    }
}
