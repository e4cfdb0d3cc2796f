/* Saved messages: see saved.h. */
#include "store/saved.h"

#include "store/rows.h"

static int saved_put_at(struct store *db, struct store_saved *s)
{
    static const char *SQL_COUNT = "SELECT COUNT(*) FROM saved_messages WHERE user_id = $1";
    static const char *SQL = "INSERT INTO saved_messages (user_id, message_id, saved_at)"
                             " VALUES ($1, $2, $3) ON CONFLICT (user_id, message_id) DO NOTHING";
    int64_t n = store__number(db, SQL_COUNT, s->user_id);
    if (n < 0)
        return STORE_ERR;
    int rc =
        store__exec(db, SQL, SV_ARGS(SV_STR(s->user_id), SV_STR(s->message_id), SV_INT(s->now)));
    s->changes = rc == STORE_DONE ? store__changes(db) : 0;
    return rc == STORE_DONE && s->changes && n >= s->max ? STORE_FULL : rc;
}

STORE_WRITE_AS(store_saved_put, struct store_saved, saved_put_at)

static int saved_delete_at(struct store *db, struct store_saved *s)
{
    static const char *SQL = "DELETE FROM saved_messages WHERE user_id = $1 AND message_id = $2";
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(s->user_id), SV_STR(s->message_id)));
    s->changes = rc == STORE_DONE ? store__changes(db) : 0;
    return rc;
}

STORE_WRITE_AS(store_saved_delete, struct store_saved, saved_delete_at)

json_t *store_saved_json(struct store *db, const char *uid, int64_t before_ms, int64_t limit)
{
    static const char *SQL =
        "SELECT s.message_id, m.channel_id, s.saved_at,"
        " COALESCE(NULLIF(u.display_name, ''), u.username) FROM saved_messages s"
        " JOIN messages m ON m.id = s.message_id LEFT JOIN users u ON u.id = m.author_id"
        " WHERE s.user_id = $1 AND (s.saved_at < $2 OR $2 = 0)"
        " ORDER BY s.saved_at DESC, s.message_id DESC LIMIT $3";
    static const struct store_col COLS[] = {{"messageId", COL_TEXT},
                                            {"channelId", COL_TEXT},
                                            {"savedAt", COL_TIME},
                                            {"authorName", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(uid), SV_INT(before_ms), SV_INT(limit)),
                            STORE_COLS(COLS));
}
