/* A server as a portable archive: see archive.h. */
#include "store/archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/rows.h"

#define COLS_MAX 24

/* How a column that may name a person is written (the import maps persons: archive.h). */
enum who { NOBODY, PERSON, PERSON_OR_NULL, MAYBE_PERSON };

struct kind {
    const char *name;
    const char *select; /* $1: the server */
    const char *write;  /* NULL: not written by store_archive_write_at */
    const struct store_col *cols;
    size_t ncols;
    const enum who *who; /* per column, NULL: none names a person */
};

#define T(k)                                                                                       \
    {                                                                                              \
        k, COL_TEXT                                                                                \
    }
#define I(k)                                                                                       \
    {                                                                                              \
        k, COL_INT                                                                                 \
    }
#define B(k)                                                                                       \
    {                                                                                              \
        k, COL_BOOL                                                                                \
    }
#define J(k)                                                                                       \
    {                                                                                              \
        k, COL_JSON                                                                                \
    }

static const struct store_col SERVER[] = {
    T("id"),
    T("name"),
    T("description"),
    T("rules"),
    B("requiresRulesAcceptance"),
    I("verificationLevel"),
    B("requires2fa"),
    B("discoverable"),
    J("tags"),
    J("automodBlockedWords"),
    I("automodMaxMentions"),
    B("linkPreviews"),
    T("ownerId"),
    I("createdAt"),
};
static const struct store_col ROLE[] = {
    T("id"),          T("serverId"), T("name"),     I("permissions"), I("color"),
    B("mentionable"), B("hoist"),    I("position"), I("createdAt"),
};
static const struct store_col PERSON_COLS[] = {
    T("id"),          T("username"), T("displayName"), T("about"),
    I("bannerColor"), B("isBot"),    I("createdAt"),
};
static const struct store_col MEMBER[] = {T("serverId"), T("userId"), T("nickname"), I("joinedAt")};
static const enum who MEMBER_WHO[] = {NOBODY, PERSON, NOBODY, NOBODY};
static const struct store_col MEMBER_ROLE[] = {T("serverId"), T("userId"), T("roleId")};
static const enum who MEMBER_ROLE_WHO[] = {NOBODY, PERSON, NOBODY};
static const struct store_col CATEGORY[] = {T("id"), T("serverId"), T("name"), I("position"),
                                            I("createdAt")};
/* A category's or a channel's overwrite: the first column is what it is on. */
static const struct store_col OVERWRITE[] = {T("on"),   T("serverId"), T("targetId"),
                                             T("type"), I("allow"),    I("deny")};
static const enum who OVERWRITE_WHO[] = {NOBODY, NOBODY, MAYBE_PERSON, NOBODY, NOBODY, NOBODY};
static const struct store_col CHANNEL[] = {
    T("id"),       T("serverId"),        T("type"),       T("name"),
    T("topic"),    I("position"),        T("categoryId"), B("synced"),
    T("parentId"), T("originMessageId"), T("ownerId"),    I("createdAt"),
};
static const enum who CHANNEL_WHO[] = {NOBODY, NOBODY, NOBODY, NOBODY, NOBODY,         NOBODY,
                                       NOBODY, NOBODY, NOBODY, NOBODY, PERSON_OR_NULL, NOBODY};
static const struct store_col EMOJI[] = {T("id"),   T("serverId"),  T("name"),      B("animated"),
                                         T("blob"), T("createdBy"), I("createdAt"), I("deletedAt")};
static const enum who EMOJI_WHO[] = {NOBODY, NOBODY,         NOBODY, NOBODY,
                                     NOBODY, PERSON_OR_NULL, NOBODY, NOBODY};
static const struct store_col MESSAGE[] = {
    T("id"),       T("channelId"),        T("threadParentId"),   T("serverId"),   T("authorId"),
    T("type"),     T("content"),          J("embeds"),           I("flags"),      T("replyToId"),
    J("mentions"), J("mentionedRoleIds"), B("mentionsEveryone"), B("pinned"),     I("createdAt"),
    I("editedAt"), J("attachments"),      T("webhookId"),        T("authorName"), T("authorAvatar"),
};
/* a webhook's message is by the webhook (the import checks which) */
static const enum who MESSAGE_WHO[COLS_MAX] = {[4] = MAYBE_PERSON};
static const struct store_col ATTACHMENT[] = {
    T("id"),        T("messageId"), T("channelId"),   T("serverId"), T("uploaderId"), T("blob"),
    T("thumbBlob"), T("filename"),  T("contentType"), I("size"),     I("createdAt"),
};
static const enum who ATTACHMENT_WHO[COLS_MAX] = {[4] = MAYBE_PERSON};
static const struct store_col REACTION[] = {T("messageId"), T("channelId"),     T("serverId"),
                                            T("emoji"),     T("customEmojiId"), T("userId"),
                                            I("createdAt")};
static const enum who REACTION_WHO[COLS_MAX] = {[5] = PERSON};
static const struct store_col INSTALL[] = {T("applicationId"), T("name"), I("permissions")};

/* A row that names a channel, a category, a role or a message is written only when that is the
 * server's: an archive is input, and must not reach into another server. INSERT … SELECT types
 * its values with CAST for PostgreSQL, which infers nothing from a select list. */
#define OVERWRITE_TARGET_OK                                                                        \
    " AND (($4 = 'role' AND EXISTS (SELECT 1 FROM roles WHERE id = $3 AND server_id = $2))"        \
    " OR ($4 = 'member' AND EXISTS (SELECT 1 FROM members WHERE user_id = $3"                      \
    " AND server_id = $2)))"

static const struct kind KINDS[ARCHIVE_KINDS] = {
    [ARCHIVE_SERVER] =
        {"server",
         "SELECT id, name, description, rules, requires_rules_acceptance, verification_level,"
         " requires_2fa, discoverable, tags, automod_blocked_words, automod_max_mentions,"
         " link_previews, owner_id, created_at FROM servers WHERE id = $1",
         /* The import made the row (store_import_begin_at): it takes the archive's settings. */
         "UPDATE servers SET name = $2, description = $3, rules = $4,"
         " requires_rules_acceptance = $5, verification_level = $6, requires_2fa = $7,"
         " discoverable = $8, tags = $9, automod_blocked_words = $10,"
         " automod_max_mentions = $11, link_previews = $12, owner_id = $13, created_at = $14"
         " WHERE id = $1",
         STORE_COLS(SERVER), NULL},
    [ARCHIVE_ROLE] =
        {"role",
         "SELECT id, server_id, name, permissions, color, mentionable, hoist, position,"
         " created_at FROM roles WHERE server_id = $1 AND managed = 0 ORDER BY position, id",
         /* @everyone is there already, with the import's defaults */
         "INSERT INTO roles (id, server_id, name, permissions, color, mentionable, hoist,"
         " position, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
         " ON CONFLICT (id) DO UPDATE SET name = excluded.name,"
         " permissions = excluded.permissions, color = excluded.color,"
         " mentionable = excluded.mentionable, hoist = excluded.hoist,"
         " position = excluded.position, created_at = excluded.created_at"
         " WHERE roles.server_id = excluded.server_id",
         STORE_COLS(ROLE), NULL},
    [ARCHIVE_PERSON] =
        {"person",
         "SELECT id, username, display_name, about, banner_color, is_bot, created_at FROM users"
         " WHERE id IN (SELECT m.user_id FROM members m JOIN users b ON b.id = m.user_id"
         " WHERE m.server_id = $1 AND b.is_bot = 0"
         " UNION SELECT author_id FROM messages WHERE server_id = $1"
         " UNION SELECT r.user_id FROM reactions r JOIN messages x ON x.id = r.message_id"
         " WHERE x.server_id = $1) ORDER BY id",
         NULL, STORE_COLS(PERSON_COLS), NULL},
    [ARCHIVE_MEMBER] =
        {"member",
         /* the owner first, whatever their ID */
         "SELECT m.server_id, m.user_id, m.nickname, m.joined_at FROM members m"
         " JOIN users u ON u.id = m.user_id WHERE m.server_id = $1 AND u.is_bot = 0"
         " ORDER BY m.joined_at, m.user_id",
         "INSERT INTO members (server_id, user_id, nickname, joined_at) VALUES ($1, $2, $3, $4)"
         " ON CONFLICT (server_id, user_id) DO UPDATE SET nickname = excluded.nickname,"
         " joined_at = excluded.joined_at",
         STORE_COLS(MEMBER), MEMBER_WHO},
    [ARCHIVE_MEMBER_ROLE] =
        {"memberRole",
         "SELECT mr.server_id, mr.user_id, mr.role_id FROM member_roles mr"
         " JOIN roles r ON r.id = mr.role_id JOIN users u ON u.id = mr.user_id"
         " JOIN members m ON m.server_id = mr.server_id AND m.user_id = mr.user_id"
         " WHERE mr.server_id = $1 AND r.managed = 0 AND u.is_bot = 0"
         " ORDER BY m.joined_at, mr.user_id, mr.role_id",
         "INSERT INTO member_roles (server_id, user_id, role_id)"
         " SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT)"
         " WHERE EXISTS (SELECT 1 FROM roles WHERE id = $3 AND server_id = $1)"
         " ON CONFLICT DO NOTHING",
         STORE_COLS(MEMBER_ROLE), MEMBER_ROLE_WHO},
    [ARCHIVE_CATEGORY] =
        {"category",
         "SELECT id, server_id, name, position, created_at FROM categories WHERE server_id = $1"
         " ORDER BY position, id",
         "INSERT INTO categories (id, server_id, name, position, created_at)"
         " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING",
         STORE_COLS(CATEGORY), NULL},
    [ARCHIVE_CATEGORY_OVERWRITE] =
        {"categoryOverwrite",
         "SELECT o.category_id, c.server_id, o.target_id, o.type, o.allow, o.deny"
         " FROM category_overwrites o JOIN categories c ON c.id = o.category_id"
         " WHERE c.server_id = $1 ORDER BY o.category_id, o.target_id",
         "INSERT INTO category_overwrites (category_id, target_id, type, allow, deny)"
         " SELECT CAST($1 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT), CAST($5 AS BIGINT),"
         " CAST($6 AS BIGINT)"
         " WHERE EXISTS (SELECT 1 FROM categories WHERE id = $1 AND server_id = "
         "$2)" OVERWRITE_TARGET_OK " ON CONFLICT DO NOTHING",
         STORE_COLS(OVERWRITE), OVERWRITE_WHO},
    [ARCHIVE_CHANNEL] =
        {"channel",
         "SELECT id, server_id, type, name, topic, position, category_id, synced, parent_id,"
         " origin_message_id, owner_id, created_at FROM channels WHERE server_id = $1"
         " ORDER BY parent_id IS NOT NULL, position, id",
         "INSERT INTO channels (id, server_id, type, name, topic, position, category_id, synced,"
         " parent_id, origin_message_id, owner_id, created_at)"
         " SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT),"
         " CAST($5 AS TEXT), CAST($6 AS BIGINT), CAST($7 AS TEXT), CAST($8 AS BIGINT),"
         " CAST($9 AS TEXT), CAST($10 AS TEXT), CAST($11 AS TEXT), CAST($12 AS BIGINT)"
         " WHERE (CAST($9 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM channels WHERE id = $9"
         " AND server_id = $2 AND parent_id IS NULL))"
         " AND (CAST($7 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM categories WHERE id = $7"
         " AND server_id = $2)) ON CONFLICT (id) DO NOTHING",
         STORE_COLS(CHANNEL), CHANNEL_WHO},
    [ARCHIVE_OVERWRITE] =
        {"overwrite",
         "SELECT o.channel_id, c.server_id, o.target_id, o.type, o.allow, o.deny FROM overwrites o"
         " JOIN channels c ON c.id = o.channel_id WHERE c.server_id = $1"
         " ORDER BY o.channel_id, o.target_id",
         "INSERT INTO overwrites (channel_id, target_id, type, allow, deny)"
         " SELECT CAST($1 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT), CAST($5 AS BIGINT),"
         " CAST($6 AS BIGINT)"
         " WHERE EXISTS (SELECT 1 FROM channels WHERE id = $1 AND server_id = "
         "$2)" OVERWRITE_TARGET_OK " ON CONFLICT DO NOTHING",
         STORE_COLS(OVERWRITE), OVERWRITE_WHO},
    [ARCHIVE_EMOJI] =
        {"emoji",
         "SELECT id, server_id, name, animated, blob, created_by, created_at, deleted_at"
         " FROM emojis WHERE server_id = $1 ORDER BY created_at, id",
         "INSERT INTO emojis (id, server_id, name, animated, blob, created_by, created_at,"
         " deleted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING",
         STORE_COLS(EMOJI), EMOJI_WHO},
    [ARCHIVE_MESSAGE] =
        {"message",
         "SELECT id, channel_id, thread_parent_id, server_id, author_id, type, content, embeds,"
         " flags, reply_to_id, mentions, mentioned_role_ids, mentions_everyone, pinned,"
         " created_at, edited_at, attachments, webhook_id, author_name, author_avatar"
         " FROM messages WHERE server_id = $1 ORDER BY id",
         "INSERT INTO messages (id, channel_id, thread_parent_id, server_id, author_id, type,"
         " content, embeds, flags, reply_to_id, mentions, mentioned_role_ids, mentions_everyone,"
         " pinned, created_at, edited_at, attachments, webhook_id, author_name, author_avatar)"
         " SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT),"
         " CAST($5 AS TEXT), CAST($6 AS TEXT), CAST($7 AS TEXT), CAST($8 AS TEXT),"
         " CAST($9 AS BIGINT), CAST($10 AS TEXT), CAST($11 AS TEXT), CAST($12 AS TEXT),"
         " CAST($13 AS BIGINT), CAST($14 AS BIGINT), CAST($15 AS BIGINT), CAST($16 AS BIGINT),"
         " CAST($17 AS TEXT), CAST($18 AS TEXT), CAST($19 AS TEXT), CAST($20 AS TEXT)"
         " WHERE EXISTS (SELECT 1 FROM channels WHERE id = $2 AND server_id = $4)"
         " ON CONFLICT (id) DO NOTHING",
         STORE_COLS(MESSAGE), MESSAGE_WHO},
    [ARCHIVE_ATTACHMENT] =
        {"attachment",
         "SELECT id, message_id, channel_id, server_id, uploader_id, blob, thumb_blob, filename,"
         " content_type, size, created_at FROM attachments WHERE server_id = $1 ORDER BY id",
         "INSERT INTO attachments (id, message_id, channel_id, server_id, uploader_id, blob,"
         " thumb_blob, filename, content_type, size, created_at)"
         " SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT),"
         " CAST($5 AS TEXT), CAST($6 AS TEXT), CAST($7 AS TEXT), CAST($8 AS TEXT),"
         " CAST($9 AS TEXT), CAST($10 AS BIGINT), CAST($11 AS BIGINT)"
         " WHERE EXISTS (SELECT 1 FROM messages WHERE id = $2 AND channel_id = $3"
         " AND server_id = $4) ON CONFLICT (id) DO NOTHING",
         STORE_COLS(ATTACHMENT), ATTACHMENT_WHO},
    [ARCHIVE_REACTION] =
        {"reaction",
         "SELECT r.message_id, r.channel_id, m.server_id, r.emoji, r.custom_emoji_id, r.user_id,"
         " r.created_at FROM reactions r JOIN messages m ON m.id = r.message_id"
         " WHERE m.server_id = $1 ORDER BY r.message_id, r.created_at, r.user_id",
         "INSERT INTO reactions (message_id, channel_id, emoji, custom_emoji_id, user_id,"
         " created_at)"
         " SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($4 AS TEXT), CAST($5 AS TEXT),"
         " CAST($6 AS TEXT), CAST($7 AS BIGINT)"
         " WHERE EXISTS (SELECT 1 FROM messages WHERE id = $1 AND channel_id = $2"
         " AND server_id = $3) ON CONFLICT DO NOTHING",
         STORE_COLS(REACTION), REACTION_WHO},
    [ARCHIVE_INSTALL] = {"install",
                         "SELECT i.application_id, a.name, i.granted_permissions FROM installs i"
                         " JOIN applications a ON a.id = i.application_id WHERE i.server_id = $1"
                         " ORDER BY a.name, i.application_id",
                         NULL, STORE_COLS(INSTALL), NULL},
};

const char *store_archive_kind_name(enum store_archive_kind kind)
{
    return KINDS[kind].name;
}

int store_archive_kind_of(const char *name)
{
    for (int k = 0; k < ARCHIVE_KINDS; k++)
        if (!strcmp(KINDS[k].name, name))
            return k;
    return -1;
}

int store_archive_each(struct store *db, const char *server_id, enum store_archive_kind kind,
                       int (*fn)(json_t *row, void *arg), void *arg)
{
    const struct kind *k = &KINDS[kind];
    struct store_stmt *st = store__query(db, k->select, SV_ARGS(SV_STR(server_id)));
    if (!st)
        return STORE_ERR;
    int rc, stopped = 0;
    while (!stopped && (rc = store__step(st)) == STORE_ROW)
        stopped = fn(store__row_json(st, 0, k->cols, k->ncols), arg);
    store__finish(st);
    return stopped ? 1 : rc == STORE_DONE ? 0 : rc;
}

json_t *store_archive_blob_hashes(struct store *db, const char *server_id)
{
    static const char *SQL =
        "SELECT blob FROM attachments WHERE server_id = $1"
        " UNION SELECT thumb_blob FROM attachments WHERE server_id = $1 AND thumb_blob IS NOT NULL"
        " UNION SELECT blob FROM emojis WHERE server_id = $1 AND blob IS NOT NULL ORDER BY 1";
    return store__ids_json(db, SQL, SV_ARGS(SV_STR(server_id)));
}

void store_archive_relink(json_t *message, const char *origin)
{
    size_t i;
    json_t *file;
    json_array_foreach(json_object_get(message, "attachments"), i, file)
    {
        for (const char *const *key = (const char *const[]){"url", "thumbnailUrl", NULL}; *key;
             key++) {
            const char *url = json_string_value(json_object_get(file, *key));
            const char *path = url ? strstr(url, "/api/attachments/") : NULL;
            size_t size = path ? strlen(origin) + strlen(path) + 1 : 0;
            char *relinked = size ? malloc(size) : NULL;
            if (relinked) {
                snprintf(relinked, size, "%s%s", origin, path);
                json_object_set_new(file, *key, json_string(relinked));
            }
            free(relinked);
        }
    }
}

/* Column i of a row as a value to bind (*owned: JSON text to free after): 0, or -1 when the
 * column is not of its type. */
static int bind(const struct store_col *col, const json_t *v, struct store_val *out, char **owned)
{
    *out = SV_NULLV;
    if (!v || json_is_null(v))
        return 0;
    switch (col->type) {
    case COL_TEXT:
        if (!json_is_string(v))
            return -1;
        *out = SV_STRN(json_string_value(v), json_string_length(v));
        return 0;
    case COL_BOOL:
        if (!json_is_boolean(v))
            return -1;
        *out = SV_INT(json_is_true(v));
        return 0;
    case COL_JSON:
        if (!(*owned = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY)))
            return -1;
        *out = SV_STR(*owned);
        return 0;
    default:
        if (!json_is_integer(v))
            return -1;
        *out = SV_INT(json_integer_value(v));
        return 0;
    }
}

/* A message not written: there already (STORE_TAKEN), or not the server's to write. */
static int message_there(struct store *db, const struct store_val *id,
                         const struct store_val *server_id)
{
    static const char *SQL = "SELECT 1 FROM messages WHERE id = $1 AND server_id = $2";
    int there = store__exists(db, SQL, SV_ARGS(*id, *server_id));
    return there < 0 ? there : there ? STORE_TAKEN : STORE_MISSING;
}

int store_archive_write_at(struct store *db, enum store_archive_kind kind, const json_t *row,
                           const char *(*person)(const char *id, int required, void *arg),
                           void *arg)
{
    const struct kind *k = &KINDS[kind];
    struct store_val args[COLS_MAX];
    char *owned[COLS_MAX] = {0};
    int rc = k->write && json_is_object(row) ? STORE_DONE : STORE_MISSING;
    for (size_t i = 0; rc == STORE_DONE && i < k->ncols; i++) {
        const json_t *v = json_object_get(row, k->cols[i].key);
        if (bind(&k->cols[i], v, &args[i], &owned[i]))
            rc = STORE_MISSING;
        enum who who = k->who ? k->who[i] : NOBODY;
        if (rc != STORE_DONE || who == NOBODY || args[i].type != SV_TEXT)
            continue;
        const char *id = person(json_string_value(v), who != MAYBE_PERSON, arg);
        if (!id && who == PERSON)
            rc = STORE_MISSING; /* by someone the archive does not bring: left out */
        args[i] = id ? SV_STR(id) : who == PERSON_OR_NULL ? SV_NULLV : args[i];
    }
    if (rc == STORE_DONE) {
        rc = store__exec(db, k->write, args, k->ncols);
        if (rc == STORE_DONE && store__changes(db) == 0)
            rc = kind == ARCHIVE_MESSAGE ? message_there(db, &args[0], &args[3]) : STORE_TAKEN;
    }
    for (size_t i = 0; i < k->ncols; i++)
        free(owned[i]);
    return rc;
}

int store_archive_person_at(struct store *db, const json_t *row, const char *username_if_taken)
{
    static const char *SQL_TAKEN = "SELECT 1 FROM users WHERE username = $1";
    static const char *SQL =
        "INSERT INTO users (id, username, display_name, about, banner_color, is_bot, imported,"
        " created_at) VALUES ($1, $2, $3, $4, $5, $6, 1, $7) ON CONFLICT (id) DO NOTHING";
    struct store_val args[COLS_MAX];
    char *owned = NULL;
    for (size_t i = 0; i < sizeof PERSON_COLS / sizeof *PERSON_COLS; i++)
        if (bind(&PERSON_COLS[i], json_object_get(row, PERSON_COLS[i].key), &args[i], &owned) ||
            (i < 3 && args[i].type != SV_TEXT))
            return STORE_MISSING;
    int taken = store__exists(db, SQL_TAKEN, SV_ARGS(args[1]));
    if (taken < 0)
        return taken;
    if (taken)
        args[1] = SV_STR(username_if_taken);
    int rc = store__exec(db, SQL, args, sizeof PERSON_COLS / sizeof *PERSON_COLS);
    return rc == STORE_DONE && store__changes(db) == 0 ? STORE_TAKEN : rc;
}

int store_archive_person_state(struct store *db, const char *id, const char *server_id)
{
    static const char *SQL_THERE = "SELECT 1 FROM users WHERE id = $1";
    static const char *SQL_OURS = "SELECT 1 FROM users WHERE id = $1 AND imported = 1"
                                  " AND NOT EXISTS (SELECT 1 FROM members WHERE user_id = $1"
                                  " AND server_id <> $2)";
    int there = store__exists(db, SQL_THERE, SV_ARGS(SV_STR(id)));
    if (there <= 0)
        return there;
    int ours = store__exists(db, SQL_OURS, SV_ARGS(SV_STR(id), SV_STR(server_id)));
    return ours < 0 ? ours : ours ? 1 : 2;
}
