/* The SQLite engine (store/engine.h): one file, WAL, statements cached by their SQL text. */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/log.h"
#include "store/checkpointer.h"
#include "store/engine.h"
#include "store/wal_watch.h"

#define CACHE_SLOTS 512 /* power of two, well above the number of distinct queries */

#define MAX_PARAMS 32

struct lite_stmt {
    struct store_stmt base;
    sqlite3_stmt *stmt;
    int nparams;
    int index_of[MAX_PARAMS]; /* $N → SQLite's parameter index (0 = unused) */
};

struct lite {
    struct store base;
    sqlite3 *db;
    int batching;
    int in_read;
    struct wal_watch wal; /* watched on the writer's connection only */
    int watching;
    char *path;
    /* The writer's checkpoints, on their own thread and connection (checkpointer.h). */
    struct checkpointer *checkpointer;
    sqlite3 *checkpoint_db;
    int wal_nudged; /* the -wal's pages at the last nudge (the writer's thread only) */
    int wal_pages;  /* at the writer's last commit (atomic: read by the checkpoints' thread) */
    struct lite_stmt cache[CACHE_SLOTS];
};

static struct lite *lite_of(struct store *s)
{
    return (struct lite *)s;
}

static struct lite_stmt *stmt_of(struct store_stmt *st)
{
    return (struct lite_stmt *)st;
}

/* Maps $1..$N to SQLite's indexes once, when the statement is prepared. */
static int map_params(struct lite_stmt *st)
{
    int n = sqlite3_bind_parameter_count(st->stmt);
    memset(st->index_of, 0, sizeof st->index_of);
    st->nparams = 0;
    for (int i = 1; i <= n; i++) {
        const char *name = sqlite3_bind_parameter_name(st->stmt, i);
        long long k;
        if (!name || name[0] != '$' || slice_to_i64(slice_from(name + 1), 1, MAX_PARAMS, &k)) {
            log_error("store: parameter %s is not $1..$%d in: %s", name ? name : "?", MAX_PARAMS,
                      st->base.sql);
            return -1;
        }
        st->index_of[k - 1] = i;
        if (k > st->nparams)
            st->nparams = (int)k;
    }
    return 0;
}

static int result_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_DONE:
    case SQLITE_OK:
        return STORE_DONE;
    case SQLITE_ROW:
        return STORE_ROW;
    case SQLITE_CONSTRAINT:
        return STORE_CONSTRAINT;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return STORE_BUSY;
    default:
        return STORE_ERR;
    }
}

static struct lite_stmt *prepare(struct lite *s, const char *sql)
{
    size_t h = ((uintptr_t)sql >> 3) & (CACHE_SLOTS - 1);
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        struct lite_stmt *slot = &s->cache[(h + i) & (CACHE_SLOTS - 1)];
        if (slot->base.sql == sql)
            return slot;
        if (!slot->base.sql) {
            if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &slot->stmt, NULL) !=
                SQLITE_OK) {
                log_error("store: prepare failed: %s in: %s", sqlite3_errmsg(s->db), sql);
                slot->stmt = NULL;
                return NULL;
            }
            slot->base.sql = sql;
            slot->base.db = &s->base;
            if (map_params(slot)) {
                sqlite3_finalize(slot->stmt);
                slot->stmt = NULL;
                slot->base.sql = NULL;
                return NULL;
            }
            return slot;
        }
    }
    log_error("store: statement cache full");
    return NULL;
}

static const char *SQL_READ_BEGIN = "BEGIN";
static const char *SQL_READ_END = "COMMIT";

/* Runs a cached parameterless statement, bypassing the lazy read transaction. */
static int exec_raw(struct lite *s, const char *sql)
{
    struct lite_stmt *st = prepare(s, sql);
    if (!st)
        return STORE_ERR;
    int rc = sqlite3_step(st->stmt);
    sqlite3_reset(st->stmt);
    return rc == SQLITE_DONE ? STORE_DONE : STORE_ERR;
}

static int lite_exec_script(struct store *db, const char *sql)
{
    char *err = NULL;
    int rc = sqlite3_exec(lite_of(db)->db, sql, NULL, NULL, &err);
    if (rc != SQLITE_OK) {
        log_error("store: %s", err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        return result_of(rc) == STORE_DONE ? STORE_ERR : result_of(rc);
    }
    return STORE_DONE;
}

static void lite_read_release(struct store *db)
{
    struct lite *s = lite_of(db);
    if (s->in_read) {
        s->in_read = 0;
        exec_raw(s, SQL_READ_END);
    }
}

static void lite_read_batching(struct store *db, int on)
{
    lite_read_release(db);
    lite_of(db)->batching = on;
}

static void lite_close(struct store *db)
{
    struct lite *s = lite_of(db);
    store__checkpointer_stop(s->checkpointer);
    sqlite3_close_v2(s->checkpoint_db);
    for (size_t i = 0; i < CACHE_SLOTS; i++)
        sqlite3_finalize(s->cache[i].stmt);
    sqlite3_close_v2(s->db);
    free(s->path);
    free(s);
}

/* SQLite's own threshold for a checkpoint; past the second one the checkpoints' thread has not
 * kept up (a steady stream of commits, each appending before a checkpoint could finish), and the
 * writer checkpoints itself, as SQLite would, so that the -wal stays bounded. */
#define CHECKPOINT_PAGES     1000
#define CHECKPOINT_PAGES_MAX 8000

/* 1 while the -wal holds pages not yet copied: the run copies up to where the -wal ended when
 * it began, and the writer may have appended since. */
static int run_checkpoint(void *arg)
{
    struct lite *s = arg;
    int pages = 0, copied = 0;
    int rc = sqlite3_wal_checkpoint_v2(s->checkpoint_db, NULL, SQLITE_CHECKPOINT_PASSIVE, &pages,
                                       &copied);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY)
        log_warn("store: checkpoint: %s", sqlite3_errmsg(s->checkpoint_db));
    return rc == SQLITE_BUSY ||
           (rc == SQLITE_OK && copied < __atomic_load_n(&s->wal_pages, __ATOMIC_RELAXED));
}

/* After each of the writer's commits, with the pages the -wal holds: a nudge for every 1,000
 * pages appended, as often as SQLite would checkpoint. (A nudge on every commit past 1,000 kept
 * the thread copying the same hot pages without pause under a steady load: 40% more CPU per
 * send.) */
static int on_wal_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
    struct lite *s = arg;
    __atomic_store_n(&s->wal_pages, pages, __ATOMIC_RELAXED);
    if (pages < s->wal_nudged)
        s->wal_nudged = 0; /* the -wal was started again */
    if (pages >= CHECKPOINT_PAGES_MAX) {
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    } else if (pages >= s->wal_nudged + CHECKPOINT_PAGES) {
        s->wal_nudged = pages;
        store__checkpointer_nudge(s->checkpointer);
    }
    return SQLITE_OK;
}

/* The writer's connection hands its checkpoints to their own thread (its WAL hook replaces
 * SQLite's automatic checkpoint). If that cannot start, SQLite's stays. */
static void checkpoint_beside(struct lite *s)
{
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (!s->path || sqlite3_open_v2(s->path, &s->checkpoint_db, flags, NULL) != SQLITE_OK ||
        sqlite3_exec(s->checkpoint_db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) !=
            SQLITE_OK ||
        !(s->checkpointer = store__checkpointer_start(run_checkpoint, s))) {
        log_warn("store: checkpoints stay on the writer's thread");
        sqlite3_close_v2(s->checkpoint_db);
        s->checkpoint_db = NULL;
        return;
    }
    sqlite3_wal_hook(s->db, on_wal_commit, s);
}

static void lite_checkpoints(struct store *db, struct store_checkpoints *out)
{
    struct lite *s = lite_of(db);
    if (!s->checkpointer)
        return;
    out->beside = 1;
    out->runs = store__checkpointer_runs(s->checkpointer, &out->busy);
    out->wal_pages = __atomic_load_n(&s->wal_pages, __ATOMIC_RELAXED);
}

static int lite_open(const char *path, struct store **out)
{
    struct lite *s = calloc(1, sizeof *s);
    if (!s)
        return STORE_ERR;
    s->base.engine = &store_sqlite;
    store__wal_watch_init(&s->wal, path);
    s->path = strdup(path);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        log_error("store: cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "no memory");
        lite_close(&s->base);
        return STORE_ERR;
    }
    sqlite3_busy_timeout(s->db, 5000);
    sqlite3_extended_result_codes(s->db, 1);
    /* WAL with synchronous=NORMAL: a commit is in the OS page cache before we answer, so
     * killing the process loses nothing acknowledged; only a power cut may lose the last few. */
    if (lite_exec_script(&s->base, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                                   "PRAGMA foreign_keys=ON;") != STORE_DONE) {
        lite_close(&s->base);
        return STORE_ERR;
    }
    *out = &s->base;
    return STORE_DONE;
}

static int lite_backup(struct store *db, const char *dest)
{
    char partial[4096];
    if ((size_t)snprintf(partial, sizeof partial, "%s.partial", dest) >= sizeof partial)
        return STORE_ERR;
    unlink(partial);
    /* The copy holds password and token hashes and two-factor secrets: readable by its owner
     * only. SQLite gives its journal the database file's mode. */
    int fd = open(partial, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        log_error("store: backup: cannot create %s", partial);
        return STORE_ERR;
    }
    close(fd);
    sqlite3 *out = NULL;
    int rc = sqlite3_open_v2(partial, &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        /* One step copies every page under one read transaction: a consistent snapshot, while
         * the writer goes on committing (WAL). */
        sqlite3_backup *b = sqlite3_backup_init(out, "main", lite_of(db)->db, "main");
        rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(out);
        int finish = sqlite3_backup_finish(b);
        rc = rc == SQLITE_DONE ? finish : rc;
    }
    if (rc == SQLITE_OK) {
        sqlite3_stmt *check = NULL;
        rc = sqlite3_prepare_v2(out, "PRAGMA quick_check", -1, &check, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(check) == SQLITE_ROW &&
                         !strcmp((const char *)sqlite3_column_text(check, 0), "ok")
                     ? SQLITE_OK
                     : SQLITE_CORRUPT;
        sqlite3_finalize(check);
    }
    if (rc != SQLITE_OK)
        log_error("store: backup to %s failed: %s", dest,
                  out ? sqlite3_errmsg(out) : sqlite3_errstr(rc));
    sqlite3_close_v2(out);
    if (rc == SQLITE_OK && rename(partial, dest)) {
        log_error("store: backup: cannot rename %s to %s", partial, dest);
        rc = SQLITE_ERROR;
    }
    if (rc != SQLITE_OK)
        unlink(partial);
    return rc == SQLITE_OK ? STORE_DONE : STORE_ERR;
}

static int lite_in_transaction(struct store *db)
{
    return !sqlite3_get_autocommit(lite_of(db)->db);
}

/* SQLite's failed statement undoes itself: the transaction stays usable. */
static int lite_failed(struct store *db)
{
    (void)db;
    return 0;
}

static struct store_stmt *lite_query(struct store *db, const char *sql,
                                     const struct store_val *args, size_t nargs)
{
    struct lite *s = lite_of(db);
    if (s->batching && !s->in_read && exec_raw(s, SQL_READ_BEGIN) == STORE_DONE)
        s->in_read = 1;
    struct lite_stmt *st = prepare(s, sql);
    if (!st)
        return NULL;
    for (size_t i = 0; i < nargs && i < MAX_PARAMS; i++) {
        int idx = st->index_of[i];
        if (idx == 0)
            continue; /* not used by this query */
        int rc;
        switch (args[i].type) {
        case SV_TEXT:
            rc = sqlite3_bind_text(st->stmt, idx, args[i].text, (int)args[i].len, SQLITE_STATIC);
            break;
        case SV_INT:
            rc = sqlite3_bind_int64(st->stmt, idx, args[i].i);
            break;
        default:
            rc = sqlite3_bind_null(st->stmt, idx);
            break;
        }
        if (rc != SQLITE_OK) {
            log_error("store: bind failed: %s", sqlite3_errmsg(s->db));
            sqlite3_reset(st->stmt);
            sqlite3_clear_bindings(st->stmt);
            return NULL;
        }
    }
    return &st->base;
}

static int lite_step(struct store_stmt *st)
{
    int rc = sqlite3_step(stmt_of(st)->stmt);
    int r = result_of(rc);
    if (r == STORE_ERR)
        log_error("store: step failed: %s in: %s", sqlite3_errmsg(lite_of(st->db)->db), st->sql);
    return r;
}

static const char *lite_text(struct store_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(stmt_of(st)->stmt, col);
    return t ? (const char *)t : NULL;
}

static size_t lite_text_len(struct store_stmt *st, int col)
{
    return (size_t)sqlite3_column_bytes(stmt_of(st)->stmt, col);
}

static int64_t lite_int(struct store_stmt *st, int col)
{
    return sqlite3_column_int64(stmt_of(st)->stmt, col);
}

static int lite_is_null(struct store_stmt *st, int col)
{
    return sqlite3_column_type(stmt_of(st)->stmt, col) == SQLITE_NULL;
}

static void lite_finish(struct store_stmt *st)
{
    sqlite3_reset(stmt_of(st)->stmt);
    sqlite3_clear_bindings(stmt_of(st)->stmt);
}

static int64_t lite_changes(struct store *db)
{
    return sqlite3_changes64(lite_of(db)->db);
}

/* Temporary triggers, so they live on the writer's connection only. */
static int lite_track_changes(struct store *db, const struct store_change_mark *marks, size_t n)
{
    struct lite *s = lite_of(db);
    if (!s->watching)
        checkpoint_beside(s);
    s->watching = 1;
    store__wal_watch_lost(&s->wal); /* the file exists once the connection has read */
    int rc = lite_exec_script(db, "CREATE TEMP TABLE IF NOT EXISTS praca_changed (sid TEXT)");
    for (size_t i = 0; rc == STORE_DONE && i < n; i++) {
        char sql[512];
        snprintf(sql, sizeof sql,
                 "CREATE TEMP TRIGGER IF NOT EXISTS praca_%s AFTER %s"
                 " BEGIN INSERT INTO praca_changed %s; END",
                 marks[i].name, marks[i].when, marks[i].sids);
        rc = lite_exec_script(db, sql);
    }
    return rc;
}

/* With the -wal gone, a commit is safe only once it is in the main file. */
static void lite_after_commit(struct store *db)
{
    struct lite *s = lite_of(db);
    if (s->watching && store__wal_watch_lost(&s->wal) &&
        lite_exec_script(db, "PRAGMA wal_checkpoint(FULL)") != STORE_DONE)
        log_error("writer: checkpoint after a lost -wal failed");
}

static int lite_changes_seen(struct store *db)
{
    (void)db;
    return -1; /* a query of the temporary table tells */
}

static void lite_changes_taken(struct store *db)
{
    (void)db;
}

const struct store_engine store_sqlite = {
    .name = "sqlite",
    .open = lite_open,
    .close = lite_close,
    .query = lite_query,
    .step = lite_step,
    .text = lite_text,
    .text_len = lite_text_len,
    .int64 = lite_int,
    .is_null = lite_is_null,
    .finish = lite_finish,
    .changes = lite_changes,
    .exec_script = lite_exec_script,
    .in_transaction = lite_in_transaction,
    .failed = lite_failed,
    .read_batching = lite_read_batching,
    .read_release = lite_read_release,
    .backup = lite_backup,
    .track_changes = lite_track_changes,
    .changes_seen = lite_changes_seen,
    .changes_taken = lite_changes_taken,
    .after_commit = lite_after_commit,
    .checkpoints = lite_checkpoints,
    .sql_begin_write = "BEGIN IMMEDIATE",
    .sql_data_version = "PRAGMA data_version",
    .sql_worker_setup = "PRAGMA cache_size=-256", /* KiB */
};
