/*
 * A Discord server's structure, as Discord's API gives it (GET /guilds/{id}/roles and
 * GET /guilds/{id}/channels, put together as {"roles": [...], "channels": [...]}: see
 * docs/importing.md), read with no I/O for praca import discord --structure: roles with their
 * permissions mapped to Praça's bits, and channels with their kinds, order, categories and
 * overwrites. Strings are borrowed from the values read.
 */
#ifndef PRACA_DOMAIN_IMPORT_DISCORD_GUILD_H
#define PRACA_DOMAIN_IMPORT_DISCORD_GUILD_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* Praça's permission bits for Discord's (documented bit by bit in docs/importing.md); Discord's
 * without a match in Praça give none. */
uint64_t rule_discord_permissions(uint64_t discord);

/* 0, or -1 with *why when the document is not such a structure. */
int rule_discord_guild(const json_t *structure, const char **why);

struct rule_discord_guild_role {
    const char *id, *name;
    int64_t color, position;
    uint64_t permissions; /* Praça's bits */
    int hoist, mentionable;
    int managed; /* a bot's own role: an import leaves it out */
};
/* Role i: 0, 1 past the last, or -1 with *why for one that cannot be read. */
int rule_discord_guild_role(const json_t *structure, size_t i, struct rule_discord_guild_role *out,
                            const char **why);

enum rule_discord_kind {
    DISCORD_KIND_TEXT,
    DISCORD_KIND_VOICE,
    DISCORD_KIND_CATEGORY,
    DISCORD_KIND_FORUM,
    DISCORD_KIND_OTHER
};

struct rule_discord_guild_channel {
    const char *id, *name, *topic, *parent_id; /* topic, parent_id NULL: none */
    enum rule_discord_kind kind;
    int64_t position;
    const json_t *overwrites;
};
/* Channel i: 0, 1 past the last, or -1 with *why. */
int rule_discord_guild_channel(const json_t *structure, size_t i,
                               struct rule_discord_guild_channel *out, const char **why);

struct rule_discord_overwrite {
    const char *id; /* a role's (the server's own ID is @everyone's) or a member's */
    int is_member;
    uint64_t allow, deny; /* Praça's bits */
};
/* Overwrite j of a channel: 0, 1 past the last, or -1 for one that cannot be read. */
int rule_discord_overwrite(const struct rule_discord_guild_channel *c, size_t j,
                           struct rule_discord_overwrite *out);

#endif
