/* A person's data archives: see exports.h. */
#include "store/exports.h"

#include "store/rows.h"

static int start_at(struct store *db, struct store_export_start *s)
{
    static const char *SQL_BUSY = "SELECT 1 FROM exports WHERE user_id = $1 AND status = 'pending'"
                                  " AND created_at > $2";
    static const char *SQL =
        "INSERT INTO exports (id, user_id, created_at, server_id) VALUES ($1, $2, $3, $4)";
    int busy = store__exists(db, SQL_BUSY,
                             SV_ARGS(SV_STR(s->user_id), SV_INT(s->now - STORE_EXPORT_STALE_MS)));
    if (busy)
        return busy < 0 ? busy : STORE_REFUSED;
    return store__exec(
        db, SQL, SV_ARGS(SV_STR(s->id), SV_STR(s->user_id), SV_INT(s->now), SV_STR(s->server_id)));
}

STORE_WRITE_AS(store_export_start, struct store_export_start, start_at)

static int finish_at(struct store *db, struct store_export_finish *f)
{
    static const char *SQL = "UPDATE exports SET status = $2, blob = $3, size = $4, ready_at = $5"
                             " WHERE id = $1";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(f->id), SV_STR(f->blob ? "ready" : "failed"), SV_STR(f->blob),
                               f->blob ? SV_INT(f->size) : SV_NULLV, SV_INT(f->now)));
}

STORE_WRITE_AS(store_export_finish, struct store_export_finish, finish_at)

json_t *store_exports_json(struct store *db, const char *user_id, const char *server_id,
                           int64_t now)
{
    static const char *SQL =
        "SELECT id, CASE WHEN status = 'pending' AND created_at <= $2 THEN 'failed' ELSE status"
        " END, size, created_at, ready_at FROM exports WHERE user_id = $1"
        " AND COALESCE(server_id, '') = $3 ORDER BY id DESC LIMIT 5";
    static const struct store_col COLS[] = {{"id", COL_TEXT},
                                            {"status", COL_TEXT},
                                            {"size", COL_INT},
                                            {"createdAt", COL_TIME},
                                            {"readyAt", COL_TIME}};
    return store__list_json(db, SQL,
                            SV_ARGS(SV_STR(user_id), SV_INT(now - STORE_EXPORT_STALE_MS),
                                    SV_STR(server_id ? server_id : "")),
                            STORE_COLS(COLS));
}

int store_export_blob(struct store *db, const char *user_id, const char *server_id, const char *id,
                      char blob[CRYPTO_SHA256_HEX + 1], int64_t *size)
{
    static const char *SQL = "SELECT blob, size FROM exports WHERE id = $1 AND user_id = $2"
                             " AND COALESCE(server_id, '') = $3 AND status = 'ready'";
    struct store_stmt *st = store__query(
        db, SQL, SV_ARGS(SV_STR(id), SV_STR(user_id), SV_STR(server_id ? server_id : "")));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        store__text_copy(st, 0, blob, CRYPTO_SHA256_HEX + 1);
        *size = store__int(st, 1);
    }
    store__finish(st);
    return store_found(rc);
}

int store_exports_expire(struct store *db, int64_t now, int64_t *deleted)
{
    static const char *SQL = "DELETE FROM exports WHERE created_at < $1";
    int rc = store__exec(db, SQL, SV_ARGS(SV_INT(now - STORE_EXPORT_KEPT_MS)));
    *deleted = rc == STORE_DONE ? store__changes(db) : 0;
    return rc;
}

/* Each row of a keyset page to fn; *after moves to the last. */
static int each_row(struct store *db, const char *sql, const char *key, char after[UUID_LEN + 1],
                    const struct store_col *cols, size_t ncols, void (*fn)(void *, json_t *),
                    void *arg)
{
    struct store_stmt *st =
        store__query(db, sql, SV_ARGS(SV_STR(key), SV_STR(after), SV_INT(STORE_EXPORT_PAGE)));
    if (!st)
        return STORE_ERR;
    int rc, n = 0;
    while ((rc = store__step(st)) == STORE_ROW) {
        json_t *row = store__row_json(st, 0, cols, ncols);
        store__text_copy(st, 0, after, UUID_LEN + 1);
        fn(arg, row);
        json_decref(row);
        n++;
    }
    store__finish(st);
    return rc == STORE_DONE ? n : rc;
}

int store_export_messages(struct store *db, const char *user_id, char after[UUID_LEN + 1],
                          void (*fn)(void *arg, json_t *row), void *arg)
{
    static const char *SQL =
        "SELECT id, server_id, channel_id, thread_parent_id, type, content, embeds, reply_to_id,"
        " created_at, edited_at FROM messages WHERE author_id = $1 AND id > $2 ORDER BY id"
        " LIMIT $3";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},       {"serverId", COL_TEXT},  {"channelId", COL_TEXT},
        {"threadId", COL_TEXT}, {"type", COL_TEXT},      {"content", COL_TEXT},
        {"embeds", COL_JSON},   {"replyToId", COL_TEXT}, {"createdAt", COL_TIME},
        {"editedAt", COL_TIME},
    };
    return each_row(db, SQL, user_id, after, STORE_COLS(COLS), fn, arg);
}

int store_export_dm_messages(struct store *db, const char *channel_id, char after[UUID_LEN + 1],
                             void (*fn)(void *arg, json_t *row), void *arg)
{
    static const char *SQL = "SELECT id, channel_id, author_id, content, embeds, reply_to_id,"
                             " created_at, edited_at FROM messages WHERE channel_id = $1"
                             " AND id > $2 ORDER BY id LIMIT $3";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},        {"channelId", COL_TEXT}, {"fromId", COL_TEXT},
        {"content", COL_TEXT},   {"embeds", COL_JSON},    {"replyToId", COL_TEXT},
        {"createdAt", COL_TIME}, {"editedAt", COL_TIME},
    };
    return each_row(db, SQL, channel_id, after, STORE_COLS(COLS), fn, arg);
}

json_t *store_export_uploads(struct store *db, const char *user_id)
{
    static const char *SQL =
        "SELECT id, message_id, channel_id, filename, content_type, size, blob, created_at"
        " FROM attachments WHERE uploader_id = $1 ORDER BY created_at, id";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},       {"messageId", COL_TEXT},   {"channelId", COL_TEXT},
        {"filename", COL_TEXT}, {"contentType", COL_TEXT}, {"size", COL_INT},
        {"blob", COL_TEXT},     {"createdAt", COL_TIME},
    };
    return store__list_json(db, SQL, SV_ARGS(SV_STR(user_id)), STORE_COLS(COLS));
}
