/* A server's own emoji: see emojis.h. */
#include "store/emojis.h"

#include "core/clock.h"
#include "store/rows.h"

#define EMOJI_URL_SQL "'/api/emojis/' || id || '/image'"

static int name_taken(struct store *db, const char *sid, const char *name, const char *except)
{
    static const char *SQL = "SELECT 1 FROM emojis WHERE server_id = $1 AND name = $2"
                             " AND deleted_at IS NULL AND id <> $3";
    return store__exists(db, SQL, SV_ARGS(SV_STR(sid), SV_STR(name), SV_STR(except)));
}

static int emoji_create_at(struct store *db, struct store_new_emoji *e)
{
    static const char *SQL_COUNT =
        "SELECT COUNT(*) FROM emojis WHERE server_id = $1 AND deleted_at IS NULL";
    static const char *SQL = "INSERT INTO emojis (id, server_id, name, animated, blob, created_by,"
                             " created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)";
    int taken = name_taken(db, e->server_id, e->name, "");
    if (taken)
        return taken < 0 ? taken : STORE_TAKEN;
    int64_t n = store__number(db, SQL_COUNT, e->server_id);
    if (n < 0)
        return STORE_ERR;
    if (n >= e->max)
        return STORE_FULL;
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(e->id), SV_STR(e->server_id), SV_STR(e->name),
                               SV_INT(e->animated), SV_STR(e->blob), SV_STR(e->created_by),
                               SV_INT(e->now)));
}

STORE_WRITE_AS(store_emoji_create, struct store_new_emoji, emoji_create_at)

static int emoji_rename_at(struct store *db, struct store_emoji_rename *r)
{
    static const char *SQL = "UPDATE emojis SET name = $3 WHERE server_id = $1 AND id = $2"
                             " AND deleted_at IS NULL";
    int taken = name_taken(db, r->server_id, r->name, r->id);
    if (taken)
        return taken < 0 ? taken : STORE_TAKEN;
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(r->server_id), SV_STR(r->id), SV_STR(r->name)));
    return rc == STORE_DONE && store__changes(db) == 0 ? STORE_MISSING : rc;
}

STORE_WRITE_AS(store_emoji_rename, struct store_emoji_rename, emoji_rename_at)

int store_emoji_delete(struct store_writer *w, const char *server_id, const char *id)
{
    static const char *SQL = "UPDATE emojis SET deleted_at = $3, blob = NULL"
                             " WHERE server_id = $1 AND id = $2 AND deleted_at IS NULL";
    int64_t changes = 0;
    int rc = store__write_exec(
        w, SQL, SV_ARGS(SV_STR(server_id), SV_STR(id), SV_INT(clock_now_ms())), &changes);
    return rc == STORE_DONE && !changes ? STORE_MISSING : rc;
}

static const struct store_col LIST_COLS[] = {
    {"id", COL_TEXT},  {"name", COL_TEXT},      {"animated", COL_BOOL},
    {"url", COL_TEXT}, {"createdBy", COL_TEXT}, {"createdAt", COL_TIME},
};

json_t *store_emojis_json(struct store *db, const char *server_id)
{
    static const char *SQL = "SELECT id, name, animated, " EMOJI_URL_SQL ", created_by, created_at"
                             " FROM emojis WHERE server_id = $1 AND deleted_at IS NULL"
                             " ORDER BY created_at, id";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(server_id)), STORE_COLS(LIST_COLS));
}

json_t *store_emoji_json(struct store *db, const char *id, int *rc)
{
    static const char *SQL =
        "SELECT id, name, animated, server_id,"
        " CASE WHEN deleted_at IS NULL THEN " EMOJI_URL_SQL " ELSE NULL END FROM emojis"
        " WHERE id = $1";
    static const struct store_col COLS[] = {{"id", COL_TEXT},
                                            {"name", COL_TEXT},
                                            {"animated", COL_BOOL},
                                            {"serverId", COL_TEXT},
                                            {"url", COL_TEXT}};
    struct store_stmt *st = store__row(db, SQL, id, rc);
    if (!st)
        return NULL;
    json_t *o = store__row_json(st, 0, STORE_COLS(COLS));
    store__finish(st);
    return o;
}

int store_emoji_blob(struct store *db, const char *id, char blob[CRYPTO_SHA256_HEX + 1],
                     int *animated)
{
    static const char *SQL = "SELECT blob, animated FROM emojis WHERE id = $1 AND blob IS NOT NULL";
    int found;
    struct store_stmt *st = store__row(db, SQL, id, &found);
    if (!st)
        return found;
    store__text_copy(st, 0, blob, CRYPTO_SHA256_HEX + 1);
    *animated = (int)store__int(st, 1);
    store__finish(st);
    return 1;
}

int store_emoji_usable(struct store *db, const char *id, const char *sid, const char *uid)
{
    static const char *SQL =
        "SELECT 1 FROM emojis e WHERE e.id = $1 AND e.deleted_at IS NULL AND (e.server_id = $2"
        " OR EXISTS (SELECT 1 FROM members m WHERE m.server_id = e.server_id AND m.user_id = $3))";
    return store__exists(db, SQL, SV_ARGS(SV_STR(id), SV_STR(sid ? sid : ""), SV_STR(uid)));
}

int store_emoji_reacted(struct store *db, const char *mid, const char *id, const char *uid)
{
    static const char *SQL = "SELECT 1 FROM reactions WHERE message_id = $1 AND emoji = ''"
                             " AND custom_emoji_id = $2 AND user_id = $3";
    return store__exists(db, SQL, SV_ARGS(SV_STR(mid), SV_STR(id), SV_STR(uid)));
}
