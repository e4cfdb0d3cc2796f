/* The query interface of db.h, forwarded to the engine the connection was opened with. */
#include "store/db.h"

#include <stdatomic.h>
#include <string.h>

#include "core/buf.h"
#include "store/engine.h"
#include "store/event_log.h"
#include "store/savepoints.h"
#include "store/write_batch.h"

static atomic_int unreachable;

void store__note_reachable(int yes)
{
    if (atomic_load_explicit(&unreachable, memory_order_relaxed) == yes)
        atomic_store_explicit(&unreachable, !yes, memory_order_relaxed);
}

int store_reachable(void)
{
    return !atomic_load_explicit(&unreachable, memory_order_relaxed);
}

/* The batched connection of this thread (a worker's), released before its writes. */
static _Thread_local struct store *current;

int store__is_url(const char *target)
{
    return !strncmp(target, "postgres://", 11) || !strncmp(target, "postgresql://", 13);
}

int store_open(const char *target, struct store **out)
{
    const struct store_engine *e = store__is_url(target) ? &store_postgres : &store_sqlite;
    return e->open(target, out);
}

int store__sync_full(struct store *db)
{
    if (db->engine != &store_sqlite)
        return STORE_DONE;
    return store__exec_script(db, "PRAGMA synchronous=FULL;");
}

const char *store__engine_name(const struct store *db)
{
    return db->engine->name;
}

int store_backup(struct store *db, const char *dest)
{
    return db->engine->backup(db, dest);
}

void store__set_tracks_changes(struct store *db)
{
    db->tracks_changes = 1;
}

int store_tracks_changes(const struct store *db)
{
    return db->tracks_changes;
}

void store__set_wrote(struct store *db, int wrote)
{
    if (db->batch)
        db->batch->wrote = wrote;
}

int store_wrote(const struct store *db)
{
    return db->batch && db->batch->wrote;
}

int store__in_transaction(struct store *db)
{
    return db->engine->in_transaction(db);
}

int store__failed(struct store *db)
{
    return db->engine->failed(db);
}

const char *store__sql_begin_write(const struct store *db)
{
    return db->engine->sql_begin_write;
}

int store__begin_write(struct store *db)
{
    return store__exec_later(db, db->engine->sql_begin_write);
}

void store__commit_with_next(struct store *db, int on)
{
    if (db->engine->commit_with_next)
        db->engine->commit_with_next(db, on);
}

const char STORE__SQL_COMMIT[] = "COMMIT";

int store__commit(struct store *db)
{
    int went = db->engine->commit_went ? db->engine->commit_went(db) : 1;
    return went != 1 ? went : store__exec(db, STORE__SQL_COMMIT, NULL, 0);
}

int store__prepare_schema(struct store *db)
{
    const char *prelude = db->engine->sql_schema_prelude;
    if (!prelude)
        return STORE_DONE;
    if (store__exec_script(db, "BEGIN;") == STORE_DONE &&
        store__exec_script(db, prelude) == STORE_DONE &&
        store__exec_script(db, "COMMIT;") == STORE_DONE)
        return STORE_DONE;
    store__exec_script(db, "ROLLBACK;");
    return STORE_ERR;
}

void store__after_commit(struct store *db)
{
    db->engine->after_commit(db);
}

void store__checkpoints(struct store *db, struct store_checkpoints *out)
{
    memset(out, 0, sizeof *out);
    if (db->engine->checkpoints)
        db->engine->checkpoints(db, out);
}

void store_close(struct store *db)
{
    if (!db)
        return;
    if (current == db)
        current = NULL;
    store__write_batch_free(db);
    db->engine->close(db);
}

void store_read_batching(struct store *db, int on)
{
    db->engine->read_batching(db, on);
    current = on ? db : NULL;
}

void *store_worker_open(void *target, int index)
{
    (void)index;
    struct store *db;
    if (store_open(target, &db) != STORE_DONE)
        return NULL;
    store_read_batching(db, 1);
    /* what requests read most is in the state (state/), not in the page cache */
    if (db->engine->sql_worker_setup)
        store__exec_script(db, db->engine->sql_worker_setup);
    return db;
}

void store_worker_close(void *db)
{
    store_close(db);
}

void store_read_release(struct store *db)
{
    if (db)
        db->engine->read_release(db);
}

void store__read_release_current(void)
{
    store_read_release(current);
}

struct store_stmt *store__query(struct store *db, const char *sql, const struct store_val *args,
                                size_t nargs)
{
    store__before_statement(db);
    return db->engine->query(db, sql, args, nargs);
}

int store__step(struct store_stmt *st)
{
    return st->db->engine->step(st);
}

const char *store__text(struct store_stmt *st, int col)
{
    return st->db->engine->text(st, col);
}

size_t store__text_len(struct store_stmt *st, int col)
{
    return st->db->engine->text_len(st, col);
}

int64_t store__int(struct store_stmt *st, int col)
{
    return st->db->engine->int64(st, col);
}

int store__is_null(struct store_stmt *st, int col)
{
    return st->db->engine->is_null(st, col);
}

void store__finish(struct store_stmt *st)
{
    if (st)
        st->db->engine->finish(st);
}

int64_t store__changes(struct store *db)
{
    return db->engine->changes(db);
}

int store__exec_script(struct store *db, const char *sql)
{
    return db->engine->exec_script(db, sql);
}

int store__track_changes(struct store *db, const struct store_change_mark *marks, size_t n)
{
    store__set_tracks_changes(db);
    return db->engine->track_changes(db, marks, n);
}

int store__changes_seen(struct store *db)
{
    return db->engine->changes_seen(db);
}

void store__changes_taken(struct store *db)
{
    db->engine->changes_taken(db);
}

int store__positions_at_commit(const struct store *db)
{
    return db->engine->positions_at_commit;
}

int store__messages_lock_channel(const struct store *db)
{
    return db->engine->messages_lock_channel;
}

int64_t store__data_version(struct store *db)
{
    /* straight to the engine: what the writer holds back stays held */
    struct store_stmt *st = db->engine->query(db, db->engine->sql_data_version, NULL, 0);
    int64_t v = st && db->engine->step(st) == STORE_ROW ? db->engine->int64(st, 0) : -1;
    store__finish(st);
    return v;
}

int store__exec(struct store *db, const char *sql, const struct store_val *args, size_t nargs)
{
    struct store_stmt *st = store__query(db, sql, args, nargs);
    if (!st)
        return STORE_ERR;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW)
        ;
    store__finish(st);
    return rc;
}

int store__runs_later(const struct store *db)
{
    return db->engine->exec_later != NULL;
}

int store__exec_later(struct store *db, const char *sql)
{
    return store__exec_later_args(db, sql, NULL, 0);
}

int store__exec_later_args(struct store *db, const char *sql, const struct store_val *args,
                           size_t nargs)
{
    return db->engine->exec_later ? db->engine->exec_later(db, sql, args, nargs)
                                  : store__exec(db, sql, args, nargs);
}

int64_t store__number(struct store *db, const char *sql, const char *key)
{
    struct store_stmt *st =
        key ? store__query(db, sql, SV_ARGS(SV_STR(key))) : store__query(db, sql, NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    int64_t n = rc == STORE_ROW ? store__int(st, 0) : STORE_ERR;
    store__finish(st);
    return n;
}

struct store_stmt *store__row(struct store *db, const char *sql, const char *key, int *found)
{
    struct store_stmt *st = store__query(db, sql, SV_ARGS(SV_STR(key)));
    if (!st) {
        *found = STORE_ERR;
        return NULL;
    }
    *found = store_found(store__step(st));
    if (*found == 1)
        return st;
    store__finish(st);
    return NULL;
}

int store__exists(struct store *db, const char *sql, const struct store_val *args, size_t nargs)
{
    struct store_stmt *st = store__query(db, sql, args, nargs);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    store__finish(st);
    return store_found(rc);
}

int store__text_copy(struct store_stmt *st, int col, char *out, size_t cap)
{
    const char *s = store__text(st, col);
    if (!s || slice_copy(slice_from(s), out, cap)) {
        out[0] = '\0';
        return s ? -1 : 0;
    }
    return 0;
}
