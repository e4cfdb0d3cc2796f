/* The event log: see event_log.h. */
#include "store/event_log.h"

/* Moves the stream's counter (gap-free: in the same transaction). Plain statements: an upsert
 * with RETURNING opens a statement journal each time, whose buffers cost more than the rest of
 * a send. */
static int bump_stream(struct store *db, const char *stream)
{
    static const char *SQL_BUMP =
        "UPDATE event_streams SET last_seq = last_seq + 1 WHERE stream = $1";
    static const char *SQL_FIRST = "INSERT INTO event_streams (stream, last_seq) VALUES ($1, 1)";
    int rc = store_exec(db, SQL_BUMP, SV_ARGS(SV_STR(stream)));
    if (rc == STORE_DONE && store_changes(db) == 0)
        rc = store_exec(db, SQL_FIRST, SV_ARGS(SV_STR(stream)));
    return rc;
}

/* One round trip where a statement costs one (PostgreSQL): the stream's counter moved and the
 * event written by one statement, its position returned. */
static int append_returning(struct store *db, const struct store_event *e, uint64_t *position)
{
    static const char *SQL_STREAM =
        "WITH s AS (INSERT INTO event_streams (stream, last_seq) VALUES ($1, 1)"
        " ON CONFLICT (stream) DO UPDATE SET last_seq = event_streams.last_seq + 1"
        " RETURNING last_seq)"
        " INSERT INTO event_log (stream, seq, type, channel_id, intent, user_id, payload,"
        " created_at) SELECT $1, s.last_seq, $2, $3, $4::bigint, $5, $6, $7::bigint FROM s"
        " RETURNING position";
    static const char *SQL_USER =
        "INSERT INTO event_log (stream, seq, type, channel_id, intent, user_id, payload,"
        " created_at) VALUES ($1, NULL, $2, $3, $4, $5, $6, $7) RETURNING position";
    struct store_stmt *st = store_query(
        db, e->stream ? SQL_STREAM : SQL_USER,
        SV_ARGS(SV_STR(e->stream), SV_STR(e->type), SV_STR(e->channel_id), SV_INT(e->intent),
                SV_STR(e->user_id), SV_STRN(e->payload, e->len), SV_INT(e->at)));
    if (!st)
        return STORE_ERR;
    int rc = store_step(st);
    *position = rc == STORE_ROW ? (uint64_t)store_int(st, 0) : 0;
    store_finish(st);
    return rc == STORE_ROW ? STORE_DONE : rc < 0 ? rc : STORE_ERR;
}

int store_event_append(struct store *db, const struct store_event *e, uint64_t *position)
{
    static const char *SQL =
        "INSERT INTO event_log (stream, seq, type, channel_id, intent, user_id, payload, "
        "created_at)"
        " VALUES ($1, (SELECT last_seq FROM event_streams WHERE stream = $1), $2, $3, $4, $5, $6,"
        " $7)";
    *position = 0;
    if (store_prefers_returning(db))
        return append_returning(db, e, position);
    if (e->stream && bump_stream(db, e->stream) != STORE_DONE)
        return STORE_ERR;
    int rc = store_exec(db, SQL,
                        SV_ARGS(SV_STR(e->stream), SV_STR(e->type), SV_STR(e->channel_id),
                                SV_INT(e->intent), SV_STR(e->user_id), SV_STRN(e->payload, e->len),
                                SV_INT(e->at)));
    *position = rc == STORE_DONE ? (uint64_t)store_last_insert_id(db) : 0;
    return rc;
}

long store_events_after(struct store *db, uint64_t after, long limit,
                        void (*fn)(void *arg, const struct store_event *e), void *arg)
{
    static const char *SQL =
        "SELECT position, stream, type, channel_id, intent, user_id, payload, created_at, seq"
        " FROM event_log WHERE position > $1 ORDER BY position LIMIT $2";
    struct store_stmt *st = store_query(db, SQL, SV_ARGS(SV_INT(after), SV_INT(limit)));
    if (!st)
        return STORE_ERR;
    long n = 0;
    int rc;
    while ((rc = store_step(st)) == STORE_ROW) {
        struct store_event e = {
            .position = (uint64_t)store_int(st, 0),
            .stream = store_text(st, 1),
            .type = store_text(st, 2),
            .channel_id = store_text(st, 3),
            .intent = (uint32_t)store_int(st, 4),
            .user_id = store_text(st, 5),
            .payload = store_text(st, 6),
            .len = store_text_len(st, 6),
            .at = store_int(st, 7),
            .seq = (uint64_t)store_int(st, 8),
        };
        fn(arg, &e);
        n++;
    }
    store_finish(st);
    return rc < 0 ? rc : n;
}

int store_events_bounds(struct store *db, uint64_t *first, uint64_t *last)
{
    static const char *SQL = "SELECT COALESCE(MIN(position), 0), COALESCE(MAX(position), 0)"
                             " FROM event_log";
    struct store_stmt *st = store_query(db, SQL, NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc = store_step(st);
    if (rc == STORE_ROW) {
        *first = (uint64_t)store_int(st, 0);
        *last = (uint64_t)store_int(st, 1);
    }
    store_finish(st);
    return rc == STORE_ROW ? STORE_DONE : STORE_ERR;
}

int store_events_trim(struct store *db, int64_t before, int64_t *deleted)
{
    /* Walks from the oldest row (rowid order, no index to keep up on every append) to the first
     * one inside the window; the newest row always stays, so positions never start over. */
    static const char *SQL =
        "DELETE FROM event_log WHERE position < COALESCE("
        " (SELECT position FROM event_log WHERE created_at >= $1 ORDER BY position LIMIT 1),"
        " (SELECT MAX(position) FROM event_log))";
    int rc = store_exec(db, SQL, SV_ARGS(SV_INT(before)));
    *deleted = rc == STORE_DONE ? store_changes(db) : 0;
    return rc;
}
