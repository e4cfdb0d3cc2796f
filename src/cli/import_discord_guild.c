/*
 * praca import discord --structure FILE: the server's roles, with their permissions, and its
 * categories and channels, as Discord's API gives them (domain/import_discord_guild.h), written
 * before the history so that its channels are found there: the roles keep their colours, order
 * and permissions mapped to Praça's bits, @everyone takes Discord's, channels their kinds (text,
 * voice, forum), order, topics, categories and roles' overwrites. A member's overwrite, a bot's
 * own role and a kind Praça has not (a directory) are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/import_formats.h"
#include "domain/import_discord_guild.h"

#define STRUCTURE_MAX_BYTES ((size_t)16 << 20)

struct guild {
    const json_t *doc;
    const char *guild_id;
};

static int roles_at(struct cli_import *im, const struct guild *g)
{
    struct rule_discord_guild_role r;
    const char *why = NULL;
    int rc;
    for (size_t i = 0; (rc = rule_discord_guild_role(g->doc, i, &r, &why)) != 1; i++) {
        if (rc < 0 || r.managed) {
            im->left_out++;
            continue;
        }
        if (!strcmp(r.id, g->guild_id)) { /* @everyone's ID is the server's */
            if (cli_import_everyone(im, (int64_t)r.permissions))
                return -1;
            continue;
        }
        struct cli_import_role role = {
            .id = r.id, .name = r.name, .color = r.color, .position = r.position};
        if (cli_import_role(im, &role, (int64_t)r.permissions, r.hoist, r.mentionable))
            return -1;
    }
    return 0;
}

static int overwrites_at(struct cli_import *im, const struct guild *g,
                         const struct rule_discord_guild_channel *c,
                         const struct cli_import_place *p)
{
    struct rule_discord_overwrite o;
    int rc;
    for (size_t j = 0; (rc = rule_discord_overwrite(c, j, &o)) != 1; j++) {
        if (rc < 0 || o.is_member) {
            im->left_out++;
            continue;
        }
        const char *role = strcmp(o.id, g->guild_id) ? o.id : NULL;
        if (cli_import_overwrite(im, p, role, (int64_t)o.allow, (int64_t)o.deny))
            return -1;
    }
    return 0;
}

/* Categories first, then the channels in them. */
static int channels_at(struct cli_import *im, const struct guild *g, int categories)
{
    static const char *const TYPES[] = {[DISCORD_KIND_TEXT] = "text",
                                        [DISCORD_KIND_VOICE] = "voice",
                                        [DISCORD_KIND_FORUM] = "forum"};
    struct rule_discord_guild_channel c;
    const char *why = NULL;
    int rc;
    for (size_t i = 0; (rc = rule_discord_guild_channel(g->doc, i, &c, &why)) != 1; i++) {
        int category = rc == 0 && c.kind == DISCORD_KIND_CATEGORY;
        if (rc == 0 && category != categories)
            continue;
        if (rc < 0 || c.kind == DISCORD_KIND_OTHER) {
            im->left_out += !categories;
            continue;
        }
        char id[UUID_LEN + 1];
        if (category) {
            if (cli_import_category(im, c.id, c.name, c.position, id))
                return -1;
            continue;
        }
        struct cli_import_place p;
        char in[UUID_LEN + 1];
        if (c.parent_id)
            cli_import_category_id(im, c.parent_id, in);
        if (cli_import_room(im, c.id, c.name, c.topic, TYPES[c.kind], c.position,
                            c.parent_id ? in : NULL, &p) ||
            overwrites_at(im, g, &c, &p))
            return -1;
    }
    return 0;
}

static int structure_at(struct cli_import *im, void *arg)
{
    const struct guild *g = arg;
    return roles_at(im, g) || channels_at(im, g, 1) || channels_at(im, g, 0) ? -1 : 0;
}

int cli_import_discord_structure(struct cli_import *im, const char *path, const char *guild_id)
{
    json_error_t jerr;
    if (cli_import_file_size(path) > (int64_t)STRUCTURE_MAX_BYTES) {
        fprintf(stderr, "praca import: %s: past %zu MiB\n", path, STRUCTURE_MAX_BYTES >> 20);
        return -1;
    }
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    const char *why = NULL;
    if (!doc) {
        fprintf(stderr, "praca import: %s: line %d: %s\n", path, jerr.line, jerr.text);
        return -1;
    }
    int rc = rule_discord_guild(doc, &why);
    if (rc)
        fprintf(stderr, "praca import: %s: %s\n", path, why);
    struct guild g = {doc, guild_id};
    if (!rc)
        rc = cli_import_transaction(im, structure_at, &g, 0);
    json_decref(doc);
    return rc ? -1 : 0;
}
