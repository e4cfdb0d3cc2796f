/* A Discord server's structure, read: see import_discord_guild.h. */
#include "domain/import_discord_guild.h"

#include <string.h>

#include "domain/json_rules.h"
#include "domain/permissions.h"

#define NAME_MAX_BYTES 400 /* 100 characters */

/* Discord's bit → Praça's bits (Discord's API reference, "Permissions"). */
static const struct {
    int discord;
    uint64_t praca;
} BITS[] = {
    {0, PERM_CRIAR_CONVITE},                               /* CREATE_INSTANT_INVITE */
    {1, PERM_EXPULSAR_MEMBROS},                            /* KICK_MEMBERS */
    {2, PERM_BANIR_MEMBROS},                               /* BAN_MEMBERS */
    {3, PERM_ADMINISTRADOR},                               /* ADMINISTRATOR */
    {4, PERM_GERENCIAR_CANAIS},                            /* MANAGE_CHANNELS */
    {5, PERM_GERENCIAR_SERVIDOR},                          /* MANAGE_GUILD */
    {6, PERM_ADICIONAR_REACOES},                           /* ADD_REACTIONS */
    {7, PERM_VER_AUDITORIA},                               /* VIEW_AUDIT_LOG */
    {10, PERM_VER_CANAL},                                  /* VIEW_CHANNEL */
    {11, PERM_ENVIAR_MENSAGENS},                           /* SEND_MESSAGES */
    {13, PERM_GERENCIAR_MENSAGENS | PERM_FIXAR_MENSAGENS}, /* MANAGE_MESSAGES (it pinned too) */
    {17, PERM_MENCIONAR_TODOS},                            /* MENTION_EVERYONE */
    {20, PERM_CONECTAR_VOZ},                               /* CONNECT */
    {21, PERM_FALAR},                                      /* SPEAK */
    {28, PERM_GERENCIAR_CARGOS},                           /* MANAGE_ROLES */
    {29, PERM_GERENCIAR_WEBHOOKS},                         /* MANAGE_WEBHOOKS */
    {31, PERM_USAR_COMANDOS},                              /* USE_APPLICATION_COMMANDS */
    {40, PERM_MODERAR_MEMBROS},                            /* MODERATE_MEMBERS (timeouts) */
    {51, PERM_FIXAR_MENSAGENS},                            /* PIN_MESSAGES */
};

uint64_t rule_discord_permissions(uint64_t discord)
{
    uint64_t out = 0;
    for (size_t i = 0; i < sizeof BITS / sizeof *BITS; i++)
        if (discord & (UINT64_C(1) << BITS[i].discord))
            out |= BITS[i].praca;
    return out;
}

/* Discord writes permissions as a decimal string (an integer in old documents). */
static int bits_of(const json_t *v, uint64_t *out)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    const char *s = json_string_value(v);
    size_t n = s ? strlen(s) : 0;
    if (!n || n > 20)
        return -1;
    uint64_t bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || bits > (UINT64_MAX - 9) / 10)
            return -1;
        bits = bits * 10 + (uint64_t)(s[i] - '0');
    }
    *out = bits;
    return 0;
}

int rule_discord_guild(const json_t *structure, const char **why)
{
    if (!json_is_object(structure) || !json_is_array(json_object_get(structure, "roles")) ||
        !json_is_array(json_object_get(structure, "channels"))) {
        *why = "not a Discord server's structure ({roles, channels} as Discord's API gives them)";
        return -1;
    }
    return 0;
}

static int named(const json_t *o, const char **id, const char **name)
{
    *id = rule__json_some_string(o, "id");
    *name = rule__json_some_string(o, "name");
    return *id && *name && strlen(*id) <= 20 && strlen(*name) <= NAME_MAX_BYTES ? 0 : -1;
}

int rule_discord_guild_role(const json_t *structure, size_t i, struct rule_discord_guild_role *out,
                            const char **why)
{
    const json_t *roles = json_object_get(structure, "roles");
    if (i >= json_array_size(roles))
        return 1;
    const json_t *r = json_array_get(roles, i);
    memset(out, 0, sizeof *out);
    uint64_t discord = 0;
    if (!json_is_object(r) || named(r, &out->id, &out->name) ||
        bits_of(json_object_get(r, "permissions"), &discord)) {
        *why = "a role without id, name or permissions";
        return -1;
    }
    out->permissions = rule_discord_permissions(discord);
    out->color = json_integer_value(json_object_get(r, "color")) & 0xFFFFFF;
    out->position = json_integer_value(json_object_get(r, "position"));
    out->hoist = json_is_true(json_object_get(r, "hoist"));
    out->mentionable = json_is_true(json_object_get(r, "mentionable"));
    out->managed = json_is_true(json_object_get(r, "managed"));
    return 0;
}

static enum rule_discord_kind kind_of(json_int_t type)
{
    switch (type) {
    case 0: /* GUILD_TEXT */
    case 5: /* GUILD_ANNOUNCEMENT */
        return DISCORD_KIND_TEXT;
    case 2:  /* GUILD_VOICE */
    case 13: /* GUILD_STAGE_VOICE */
        return DISCORD_KIND_VOICE;
    case 4:
        return DISCORD_KIND_CATEGORY;
    case 15: /* GUILD_FORUM */
    case 16: /* GUILD_MEDIA */
        return DISCORD_KIND_FORUM;
    default:
        return DISCORD_KIND_OTHER;
    }
}

int rule_discord_guild_channel(const json_t *structure, size_t i,
                               struct rule_discord_guild_channel *out, const char **why)
{
    const json_t *channels = json_object_get(structure, "channels");
    if (i >= json_array_size(channels))
        return 1;
    const json_t *c = json_array_get(channels, i);
    memset(out, 0, sizeof *out);
    if (!json_is_object(c) || named(c, &out->id, &out->name) ||
        !json_is_integer(json_object_get(c, "type"))) {
        *why = "a channel without id, name or type";
        return -1;
    }
    out->kind = kind_of(json_integer_value(json_object_get(c, "type")));
    out->topic = rule__json_some_string(c, "topic");
    out->parent_id = rule__json_some_string(c, "parent_id");
    out->position = json_integer_value(json_object_get(c, "position"));
    out->overwrites = json_object_get(c, "permission_overwrites");
    return 0;
}

int rule_discord_overwrite(const struct rule_discord_guild_channel *c, size_t j,
                           struct rule_discord_overwrite *out)
{
    if (j >= json_array_size(c->overwrites))
        return 1;
    const json_t *o = json_array_get(c->overwrites, j);
    uint64_t allow = 0, deny = 0;
    json_int_t type = json_integer_value(json_object_get(o, "type"));
    out->id = rule__json_some_string(o, "id");
    if (!out->id || strlen(out->id) > 20 || (type != 0 && type != 1) ||
        bits_of(json_object_get(o, "allow"), &allow) || bits_of(json_object_get(o, "deny"), &deny))
        return -1;
    out->is_member = type == 1;
    out->allow = rule_discord_permissions(allow);
    out->deny = rule_discord_permissions(deny);
    return 0;
}
