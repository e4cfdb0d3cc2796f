/* The event log: see event_log.h. */
#include "store/event_log.h"

/* The stream's next seq (gap-free: the counter moves in the same transaction). */
static int next_seq(struct store *db, const char *stream, int64_t *seq)
{
    static const char *SQL =
        "INSERT INTO event_streams (stream, last_seq) VALUES ($1, 1) ON CONFLICT (stream)"
        " DO UPDATE SET last_seq = event_streams.last_seq + 1 RETURNING last_seq";
    struct store_stmt *st = store_query(db, SQL, SV_ARGS(SV_STR(stream)));
    if (!st)
        return STORE_ERR;
    int rc = store_step(st);
    if (rc == STORE_ROW)
        *seq = store_int(st, 0);
    store_finish(st);
    return rc == STORE_ROW ? STORE_DONE : STORE_ERR;
}

int store_event_append(struct store *db, const struct store_event *e, uint64_t *position)
{
    static const char *SQL =
        "INSERT INTO event_log (stream, seq, type, channel_id, intent,"
        " user_id, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    int64_t seq = 0;
    *position = 0;
    if (e->stream && next_seq(db, e->stream, &seq) != STORE_DONE)
        return STORE_ERR;
    int rc = store_exec(db, SQL,
                        SV_ARGS(SV_STR(e->stream), e->stream ? SV_INT(seq) : SV_NULLV,
                                SV_STR(e->type), SV_STR(e->channel_id), SV_INT(e->intent),
                                SV_STR(e->user_id), SV_STRN(e->payload, e->len), SV_INT(e->at)));
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
