/* The event log: see event_log.h. */
#include "store/event_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/vec.h"
#include "core/crypto.h"
#include "core/jsonout.h"
#include "store/engine.h"
#include "store/event_redact.h"
#include "store/messages.h"
#include "store/write_batch.h"

/* Moves the stream's counter (gap-free: in the same transaction). Plain statements: an upsert
 * with RETURNING opens a statement journal each time, whose buffers cost more than the rest of
 * a send. */
static int bump_stream(struct store *db, const char *stream)
{
    static const char *SQL_BUMP =
        "UPDATE event_streams SET last_seq = last_seq + 1 WHERE stream = $1";
    static const char *SQL_FIRST = "INSERT INTO event_streams (stream, last_seq) VALUES ($1, 1)";
    int rc = store__exec(db, SQL_BUMP, SV_ARGS(SV_STR(stream)));
    if (rc == STORE_DONE && store__changes(db) == 0)
        rc = store__exec(db, SQL_FIRST, SV_ARGS(SV_STR(stream)));
    return rc;
}

/* Events waiting for their positions until just before the commit (engines whose positions
 * follow commit order: see 007_event_clock.sql): kept as the elements of one JSON array, which
 * the flush hands to PostgreSQL as one parameter. */
struct store_event_batch {
    struct buf json; /* "{…},{…}": each event's fields, its payload spliced as it is */
    size_t count, cap;
    size_t *ends;     /* json.len after each event, to forget those after a savepoint */
    uint64_t **slots; /* where each event's position goes */
    /* The edits and deletions among them, run once every row of the batch is in (the message
     * they redact may be in the same batch). */
    struct redaction {
        size_t event; /* its index in the batch */
        char message_id[UUID_LEN + 1];
        char type[16];
        char *payload;
        size_t len;
    } * redactions;
    size_t nredactions, redactions_cap;
};

static void redactions_forget(struct store_event_batch *b, size_t keep)
{
    while (b->nredactions && b->redactions[b->nredactions - 1].event >= keep)
        free(b->redactions[--b->nredactions].payload);
}

static int redaction_add(struct store_event_batch *b, const struct store_event *e,
                         const char *message_id)
{
    if (VEC_RESERVE(b->redactions, b->nredactions, b->redactions_cap, 8))
        return -1;
    struct redaction *r = &b->redactions[b->nredactions];
    if (!(r->payload = malloc(e->len ? e->len : 1)))
        return -1;
    memcpy(r->payload, e->payload, e->len);
    r->len = e->len;
    r->event = b->count;
    memcpy(r->message_id, message_id, sizeof r->message_id);
    snprintf(r->type, sizeof r->type, "%s", e->type);
    b->nredactions++;
    return 0;
}

#define BATCH_BYTES ((size_t)512 << 20)

static int batch_reserve(struct store_event_batch *b)
{
    if (b->count < b->cap)
        return 0;
    size_t cap = b->cap ? 2 * b->cap : 64;
    size_t *ends = realloc(b->ends, cap * sizeof *ends);
    if (ends)
        b->ends = ends;
    uint64_t **slots = ends ? realloc(b->slots, cap * sizeof *slots) : NULL;
    if (!slots)
        return -1;
    b->slots = slots;
    b->cap = cap;
    return 0;
}

static int wait_for_position(struct store *db, const struct store_event *e, uint64_t *position)
{
    struct store_event_batch *b = db->batch->events;
    if (!b) {
        if (!(b = calloc(1, sizeof *b)))
            return STORE_ERR;
        buf_init(&b->json, BATCH_BYTES);
        db->batch->events = b;
    }
    if (batch_reserve(b))
        return STORE_ERR;
    char message_id[UUID_LEN + 1];
    int about_message = store__event_message_id(e, message_id);
    if (about_message && store__event_redacts(e) && redaction_add(b, e, message_id))
        return STORE_ERR;
    size_t mark = b->json.len;
    struct jsonout_obj o;
    if (b->count)
        buf_append(&b->json, ",", 1);
    jsonout_obj_begin(&o, &b->json); /* a key left out is read as NULL */
    jsonout_obj_int(&o, "o", (json_int_t)b->count + 1);
    jsonout_obj_str_opt(&o, "s", e->stream);
    jsonout_obj_str(&o, "t", e->type);
    jsonout_obj_str_opt(&o, "c", e->channel_id);
    jsonout_obj_int(&o, "i", e->intent);
    jsonout_obj_str_opt(&o, "u", e->user_id);
    jsonout_obj_int(&o, "a", e->at);
    jsonout_obj_str_opt(&o, "m", about_message ? message_id : NULL);
    int by_reference = about_message && store__event_by_reference(e);
    if (o.rc || buf_append(&b->json, ",\"p\":", 5) ||
        (by_reference ? buf_append(&b->json, "\"\"", 2)
                      : buf_append(&b->json, e->payload, e->len)) ||
        buf_append(&b->json, "}", 1)) {
        b->json.len = mark;
        return STORE_ERR;
    }
    b->ends[b->count] = b->json.len;
    b->slots[b->count++] = position;
    return STORE_DONE;
}

size_t store__events_waiting(const struct store *db)
{
    return db->batch && db->batch->events ? db->batch->events->count : 0;
}

void store__events_forget(struct store *db, size_t keep)
{
    struct store_event_batch *b = db->batch ? db->batch->events : NULL;
    if (!b || keep >= b->count)
        return;
    b->count = keep;
    b->json.len = keep ? b->ends[keep - 1] : 0;
    redactions_forget(b, keep);
}

static int flush(struct store *db, int commit);

int store__events_flush(struct store *db)
{
    return flush(db, 0);
}

int store__events_flush_commit(struct store *db)
{
    return flush(db, 1);
}

static int flush(struct store *db, int commit)
{
    /* json_to_recordset reads each event once (o->>'x' would lex the object again per field).
     * The clock is taken first (s reads c), then the streams' counters in their order: every
     * writer locks in that order, so two nodes never wait on each other in a circle. */
    static const char *SQL =
        "WITH ev AS (SELECT o.o AS ord, o.s AS stream, o.t AS type, o.c AS channel_id,"
        " o.i AS intent, o.u AS user_id,"
        " CASE WHEN json_typeof(o.p) = 'string' THEN '' ELSE o.p::text END AS payload,"
        " o.a AS created_at, o.m AS message_id"
        " FROM json_to_recordset($1::json)"
        " AS o(o bigint, s text, t text, c text, i bigint, u text, a bigint, m text, p json)),"
        " c AS (UPDATE event_clock SET last = last + $2::bigint WHERE id = 1 RETURNING last),"
        " n AS (SELECT stream, count(*) AS k FROM ev WHERE stream IS NOT NULL GROUP BY stream),"
        " s AS (INSERT INTO event_streams AS es (stream, last_seq)"
        " SELECT n.stream, n.k FROM n CROSS JOIN c ORDER BY n.stream"
        " ON CONFLICT (stream) DO UPDATE SET last_seq = es.last_seq + EXCLUDED.last_seq"
        " RETURNING es.stream, es.last_seq),"
        " i AS (INSERT INTO event_log (position, stream, seq, type, channel_id, intent, user_id,"
        " payload, created_at, message_id) SELECT c.last - $2::bigint + ev.ord, ev.stream,"
        " s.last_seq - n.k + row_number() OVER (PARTITION BY ev.stream ORDER BY ev.ord),"
        " ev.type, ev.channel_id, ev.intent, ev.user_id, ev.payload, ev.created_at, ev.message_id"
        " FROM ev CROSS JOIN c LEFT JOIN n ON n.stream = ev.stream"
        " LEFT JOIN s ON s.stream = ev.stream)"
        " SELECT last FROM c";
    struct store_event_batch *b = db->batch ? db->batch->events : NULL;
    if (!b || !b->count)
        return commit ? store__commit(db) : STORE_DONE;
    /* Redactions are statements of their own after this one: the COMMIT waits for them. */
    store__commit_with_next(db, commit && !b->nredactions);
    struct buf all;
    buf_init(&all, BATCH_BYTES + 2);
    int rc = buf_append(&all, "[", 1) || buf_append(&all, b->json.data, b->json.len) ||
                     buf_append(&all, "]", 1)
                 ? STORE_ERR
                 : STORE_DONE;
    struct store_stmt *st =
        rc ? NULL : store__query(db, SQL, SV_ARGS(SV_STRN(all.data, all.len), SV_INT(b->count)));
    rc = st ? store__step(st) : STORE_ERR;
    if (rc == STORE_ROW) {
        uint64_t first = (uint64_t)store__int(st, 0) - b->count + 1;
        for (size_t i = 0; i < b->count; i++)
            *b->slots[i] = first + i;
    }
    if (st)
        store__finish(st);
    buf_cleanup(&all);
    for (size_t i = 0; i < b->nredactions && rc == STORE_ROW; i++) {
        struct redaction *r = &b->redactions[i];
        struct store_event e = {.type = r->type, .payload = r->payload, .len = r->len};
        if (store__event_redact(db, &e, r->message_id) != STORE_DONE)
            rc = STORE_ERR;
    }
    store__events_forget(db, 0);
    rc = rc == STORE_ROW ? STORE_DONE : rc < 0 ? rc : STORE_ERR;
    if (!commit)
        return rc;
    if (rc != STORE_DONE) { /* not COMMIT (into a failed transaction, it would answer ROLLBACK) */
        store__commit_with_next(db, 0);
        return rc;
    }
    return store__commit(db);
}

void store__events_discard(struct store *db)
{
    struct store_event_batch *b = db->batch ? db->batch->events : NULL;
    if (!b)
        return;
    buf_cleanup(&b->json);
    redactions_forget(b, 0);
    free(b->redactions);
    free(b->ends);
    free(b->slots);
    free(b);
    db->batch->events = NULL;
}

int store_event_append(struct store *db, const struct store_event *e, uint64_t *position)
{
    static const char *SQL =
        "INSERT INTO event_log (stream, seq, type, channel_id, intent, user_id, payload, "
        "created_at, message_id)"
        " VALUES ($1, (SELECT last_seq FROM event_streams WHERE stream = $1), $2, $3, $4, $5, $6,"
        " $7, $8) RETURNING position";
    *position = 0;
    if (store__positions_at_commit(db)) /* only the writer's batch gives positions */
        return db->batch ? wait_for_position(db, e, position) : STORE_ERR;
    if (e->stream && bump_stream(db, e->stream) != STORE_DONE)
        return STORE_ERR;
    char message_id[UUID_LEN + 1];
    int about_message = store__event_message_id(e, message_id);
    int by_reference = about_message && store__event_by_reference(e);
    struct store_stmt *st =
        store__query(db, SQL,
                     SV_ARGS(SV_STR(e->stream), SV_STR(e->type), SV_STR(e->channel_id),
                             SV_INT(e->intent), SV_STR(e->user_id),
                             SV_STRN(by_reference ? "" : e->payload, by_reference ? 0 : e->len),
                             SV_INT(e->at), SV_STR(about_message ? message_id : NULL)));
    int rc = st ? store__step(st) : STORE_ERR;
    *position = rc == STORE_ROW ? (uint64_t)store__int(st, 0) : 0;
    store__finish(st);
    rc = rc == STORE_ROW ? STORE_DONE : rc < 0 ? rc : STORE_ERR;
    if (rc == STORE_DONE && about_message && store__event_redacts(e))
        rc = store__event_redact(db, e, message_id);
    return rc;
}

/* A row logged by reference: its message as stored now, as text (NULL when the message is gone,
 * or on error: *rc says which). */
static char *message_now(struct store *db, const char *message_id, size_t *len, int *rc)
{
    json_t *m = store_message_json(db, message_id, rc);
    char *text = m ? jsonout_dump(m, len) : NULL;
    json_decref(m);
    if (m && !text)
        *rc = STORE_ERR;
    return text;
}

long store_events_after(struct store *db, uint64_t after, long limit,
                        void (*fn)(void *arg, const struct store_event *e), void *arg)
{
    static const char *SQL =
        "SELECT position, stream, type, channel_id, intent, user_id, payload, created_at, seq,"
        " redacted, message_id FROM event_log WHERE position > $1 ORDER BY position LIMIT $2";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_INT(after), SV_INT(limit)));
    if (!st)
        return STORE_ERR;
    long n = 0;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        struct store_event e = {
            .position = (uint64_t)store__int(st, 0),
            .stream = store__text(st, 1),
            .type = store__text(st, 2),
            .channel_id = store__text(st, 3),
            .intent = (uint32_t)store__int(st, 4),
            .user_id = store__text(st, 5),
            .payload = store__text(st, 6),
            .len = store__text_len(st, 6),
            .at = store__int(st, 7),
            .seq = (uint64_t)store__int(st, 8),
            .redacted = (int)store__int(st, 9),
            .message_id = store__text(st, 10),
        };
        const char *message_id = e.message_id;
        char *now = NULL;
        if (!e.len && message_id && !e.redacted) {
            int found;
            if (!(now = message_now(db, message_id, &e.len, &found)) && found < 0) {
                rc = found;
                break;
            }
            e.payload = now ? now : "{}";
            e.len = now ? e.len : 2;
            e.redacted = !now; /* deleted with no MESSAGE_DELETE: its channel went */
        }
        fn(arg, &e);
        free(now);
        n++;
    }
    store__finish(st);
    return rc < 0 ? rc : n;
}

int store_events_bounds(struct store *db, uint64_t *first, uint64_t *last)
{
    /* Two subqueries: SQLite reads one end of the index for a lone MIN or MAX, but scans the
     * whole table for both in one SELECT. */
    static const char *SQL = "SELECT COALESCE((SELECT MIN(position) FROM event_log), 0),"
                             " COALESCE((SELECT MAX(position) FROM event_log), 0)";
    struct store_stmt *st = store__query(db, SQL, NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        *first = (uint64_t)store__int(st, 0);
        *last = (uint64_t)store__int(st, 1);
    }
    store__finish(st);
    return rc == STORE_ROW ? STORE_DONE : STORE_ERR;
}

int store_events_name(struct store *db, char name[STORE_EVENTS_NAME_LEN + 1])
{
    char fresh[STORE_EVENTS_NAME_LEN + 1];
    crypto_random_hex(fresh, STORE_EVENTS_NAME_LEN / 2);
    if (store__exec(db, "UPDATE event_clock SET name = $1 WHERE id = 1 AND name IS NULL",
                    SV_ARGS(SV_STR(fresh))) != STORE_DONE)
        return STORE_ERR;
    struct store_stmt *st = store__query(db, "SELECT name FROM event_clock WHERE id = 1", NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st) == STORE_ROW &&
                     store__text_copy(st, 0, name, STORE_EVENTS_NAME_LEN + 1) == 0 &&
                     strlen(name) == STORE_EVENTS_NAME_LEN
                 ? STORE_DONE
                 : STORE_ERR;
    store__finish(st);
    return rc;
}

int store_events_trim(struct store *db, int64_t before, int64_t *deleted)
{
    /* Walks from the oldest row (rowid order, no index to keep up on every append) to the first
     * one inside the window; the newest row always stays, so positions never start over. */
    static const char *SQL =
        "DELETE FROM event_log WHERE position < COALESCE("
        " (SELECT position FROM event_log WHERE created_at >= $1 ORDER BY position LIMIT 1),"
        " (SELECT MAX(position) FROM event_log))";
    int rc = store__exec(db, SQL, SV_ARGS(SV_INT(before)));
    *deleted = rc == STORE_DONE ? store__changes(db) : 0;
    return rc;
}
