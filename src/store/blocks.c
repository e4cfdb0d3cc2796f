/* People a person has blocked: see blocks.h. */
#include "store/blocks.h"

#include "store/rows.h"
#include "store/servers.h"

int store_block_set(struct store_writer *w, const char *uid, const char *other, int on, int64_t now)
{
    static const char *SQL_ON = "INSERT INTO blocks (user_id, blocked_id, created_at)"
                                " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    static const char *SQL_OFF = "DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2";
    return on ? store__write_exec(w, SQL_ON, SV_ARGS(SV_STR(uid), SV_STR(other), SV_INT(now)), NULL)
              : store__write_exec(w, SQL_OFF, SV_ARGS(SV_STR(uid), SV_STR(other)), NULL);
}

static int any_row(struct store *db, const char *sql, const char *a, const char *b)
{
    struct store_stmt *st = store__query(db, sql, SV_ARGS(SV_STR(a), SV_STR(b)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    store__finish(st);
    return store_found(rc);
}

int store_blocked_between(struct store *db, const char *a, const char *b)
{
    static const char *SQL = "SELECT 1 FROM blocks WHERE (user_id = $1 AND blocked_id = $2)"
                             " OR (user_id = $2 AND blocked_id = $1)";
    return any_row(db, SQL, a, b);
}

int store_dm_blocked(struct store *db, const char *cid, const char *uid)
{
    /* A pair's conversation only: in a group, a blocked person's messages collapse on the
     * blocker's page, and nobody else's talk stops. */
    static const char *SQL = "SELECT 1 FROM dm_members o JOIN blocks b"
                             " ON (b.user_id = $2 AND b.blocked_id = o.user_id) OR (b.user_id = "
                             "o.user_id AND b.blocked_id = $2)"
                             " JOIN channels c ON c.id = o.channel_id AND c.dm_key IS NOT NULL"
                             " WHERE o.channel_id = $1 AND o.user_id <> $2";
    return any_row(db, SQL, cid, uid);
}

int64_t store_blocks_count(struct store *db, const char *uid)
{
    int64_t n = 0;
    int rc = store_count(db, "SELECT COUNT(*) FROM blocks WHERE user_id = $1", uid, &n);
    return rc == STORE_DONE ? n : rc;
}

static const struct store_col BLOCK_COLS[] = {
    {"userId", COL_TEXT},
    {"username", COL_TEXT},
    {"displayName", COL_TEXT},
    {"createdAt", COL_TIME},
};

json_t *store_blocks_json(struct store *db, const char *uid)
{
    static const char *SQL = "SELECT u.id, u.username, u.display_name, b.created_at FROM blocks b"
                             " JOIN users u ON u.id = b.blocked_id WHERE b.user_id = $1"
                             " ORDER BY b.created_at DESC";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(uid)), STORE_COLS(BLOCK_COLS));
}
