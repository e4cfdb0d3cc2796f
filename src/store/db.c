/* SQLite connection: see db.h. */
#include "store/db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/log.h"

#define CACHE_SLOTS 512 /* power of two, well above the number of distinct queries */

#define MAX_PARAMS 32

struct store_stmt {
    sqlite3_stmt *stmt;
    const char *sql;
    struct store *db;
    int cached;
    int nparams;
    int index_of[MAX_PARAMS]; /* $N → SQLite's parameter index (0 = unused) */
};

/* Maps $1..$N to SQLite's indexes once, when the statement is prepared. */
static int map_params(struct store_stmt *st)
{
    int n = sqlite3_bind_parameter_count(st->stmt);
    memset(st->index_of, 0, sizeof st->index_of);
    st->nparams = 0;
    for (int i = 1; i <= n; i++) {
        const char *name = sqlite3_bind_parameter_name(st->stmt, i);
        long long k;
        if (!name || name[0] != '$' || slice_to_i64(slice_from(name + 1), 1, MAX_PARAMS, &k)) {
            log_error("store: parameter %s is not $1..$%d in: %s", name ? name : "?", MAX_PARAMS,
                      st->sql);
            return -1;
        }
        st->index_of[k - 1] = i;
        if (k > st->nparams)
            st->nparams = (int)k;
    }
    return 0;
}

struct store {
    sqlite3 *db;
    int batching;
    int in_read;
    int tracks_changes; /* the writer's connection: temp.praca_changed exists */
    int wrote;          /* the writer's current job has written */
    struct store_stmt cache[CACHE_SLOTS];
};

/* The batched connection of this thread (a worker's), released before its writes. */
static _Thread_local struct store *current;

void store_read_batching(struct store *s, int on)
{
    store_read_release(s);
    s->batching = on;
    current = on ? s : NULL;
}

static const char *SQL_READ_BEGIN = "BEGIN";
static const char *SQL_READ_END = "COMMIT";
static struct store_stmt *prepare(struct store *s, const char *sql);

/* Runs a cached parameterless statement, bypassing the lazy read transaction. */
static int exec_raw(struct store *s, const char *sql)
{
    struct store_stmt *st = prepare(s, sql);
    if (!st)
        return STORE_ERR;
    int rc = sqlite3_step(st->stmt);
    sqlite3_reset(st->stmt);
    return rc == SQLITE_DONE ? STORE_DONE : STORE_ERR;
}

int store_cache_kib(struct store *s, int kib)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA cache_size=-%d", kib);
    return store_exec_script(s, sql);
}

void store_read_release(struct store *s)
{
    if (s && s->in_read) {
        s->in_read = 0;
        exec_raw(s, SQL_READ_END);
    }
}

void store_read_release_current(void)
{
    store_read_release(current);
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

int store_open(const char *path, struct store **out)
{
    struct store *s = calloc(1, sizeof *s);
    if (!s)
        return STORE_ERR;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        log_error("store: cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "no memory");
        store_close(s);
        return STORE_ERR;
    }
    sqlite3_busy_timeout(s->db, 5000);
    sqlite3_extended_result_codes(s->db, 1);
    /* WAL with synchronous=NORMAL: a commit is in the OS page cache before we answer, so
     * killing the process loses nothing acknowledged; only a power cut may lose the last few. */
    if (store_exec_script(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                             "PRAGMA foreign_keys=ON;") != STORE_DONE) {
        store_close(s);
        return STORE_ERR;
    }
    *out = s;
    return STORE_DONE;
}

int store_backup(struct store *s, const char *dest)
{
    char partial[4096];
    if ((size_t)snprintf(partial, sizeof partial, "%s.partial", dest) >= sizeof partial)
        return STORE_ERR;
    unlink(partial);
    sqlite3 *out = NULL;
    int rc = sqlite3_open_v2(partial, &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        /* One step copies every page under one read transaction: a consistent snapshot, while
         * the writer goes on committing (WAL). */
        sqlite3_backup *b = sqlite3_backup_init(out, "main", s->db, "main");
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

int64_t store_last_insert_id(struct store *s)
{
    return sqlite3_last_insert_rowid(s->db);
}

void store_set_tracks_changes(struct store *s)
{
    s->tracks_changes = 1;
}

int store_tracks_changes(const struct store *s)
{
    return s->tracks_changes;
}

void store_set_wrote(struct store *s, int wrote)
{
    s->wrote = wrote;
}

int store_wrote(const struct store *s)
{
    return s->wrote;
}

int store_in_transaction(struct store *s)
{
    return !sqlite3_get_autocommit(s->db);
}

void store_close(struct store *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < CACHE_SLOTS; i++)
        sqlite3_finalize(s->cache[i].stmt);
    sqlite3_close_v2(s->db);
    free(s);
}

static struct store_stmt *prepare(struct store *s, const char *sql)
{
    size_t h = ((uintptr_t)sql >> 3) & (CACHE_SLOTS - 1);
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        struct store_stmt *slot = &s->cache[(h + i) & (CACHE_SLOTS - 1)];
        if (slot->sql == sql)
            return slot;
        if (!slot->sql) {
            if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &slot->stmt, NULL) !=
                SQLITE_OK) {
                log_error("store: prepare failed: %s in: %s", sqlite3_errmsg(s->db), sql);
                slot->stmt = NULL;
                return NULL;
            }
            slot->sql = sql;
            slot->db = s;
            slot->cached = 1;
            if (map_params(slot)) {
                sqlite3_finalize(slot->stmt);
                slot->stmt = NULL;
                slot->sql = NULL;
                return NULL;
            }
            return slot;
        }
    }
    log_error("store: statement cache full");
    return NULL;
}

struct store_stmt *store_query(struct store *s, const char *sql, const struct store_val *args,
                               size_t nargs)
{
    if (s->batching && !s->in_read && exec_raw(s, SQL_READ_BEGIN) == STORE_DONE)
        s->in_read = 1;
    struct store_stmt *st = prepare(s, sql);
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
            store_finish(st);
            return NULL;
        }
    }
    return st;
}

int store_step(struct store_stmt *st)
{
    int rc = sqlite3_step(st->stmt);
    int r = result_of(rc);
    if (r == STORE_ERR)
        log_error("store: step failed: %s in: %s", sqlite3_errmsg(st->db->db), st->sql);
    return r;
}

const char *store_text(struct store_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st->stmt, col);
    return t ? (const char *)t : NULL;
}

size_t store_text_len(struct store_stmt *st, int col)
{
    return (size_t)sqlite3_column_bytes(st->stmt, col);
}

int64_t store_int(struct store_stmt *st, int col)
{
    return sqlite3_column_int64(st->stmt, col);
}

int store_is_null(struct store_stmt *st, int col)
{
    return sqlite3_column_type(st->stmt, col) == SQLITE_NULL;
}

void store_finish(struct store_stmt *st)
{
    if (!st)
        return;
    sqlite3_reset(st->stmt);
    sqlite3_clear_bindings(st->stmt);
}

int store_exec(struct store *s, const char *sql, const struct store_val *args, size_t nargs)
{
    struct store_stmt *st = store_query(s, sql, args, nargs);
    if (!st)
        return STORE_ERR;
    int rc;
    while ((rc = store_step(st)) == STORE_ROW)
        ;
    store_finish(st);
    return rc;
}

int64_t store_changes(struct store *s)
{
    return sqlite3_changes64(s->db);
}

int store_exec_script(struct store *s, const char *sql)
{
    char *err = NULL;
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, &err);
    if (rc != SQLITE_OK) {
        log_error("store: %s", err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        return result_of(rc) == STORE_DONE ? STORE_ERR : result_of(rc);
    }
    return STORE_DONE;
}

struct store_stmt *store_row(struct store *db, const char *sql, const char *key, int *found)
{
    struct store_stmt *st = store_query(db, sql, SV_ARGS(SV_STR(key)));
    if (!st) {
        *found = STORE_ERR;
        return NULL;
    }
    *found = store_found(store_step(st));
    if (*found == 1)
        return st;
    store_finish(st);
    return NULL;
}

int store_exists(struct store *db, const char *sql, const struct store_val *args, size_t nargs)
{
    struct store_stmt *st = store_query(db, sql, args, nargs);
    if (!st)
        return STORE_ERR;
    int rc = store_step(st);
    store_finish(st);
    return store_found(rc);
}

int store_text_copy(struct store_stmt *st, int col, char *out, size_t cap)
{
    const char *s = store_text(st, col);
    if (!s || slice_copy(slice_from(s), out, cap)) {
        out[0] = '\0';
        return s ? -1 : 0;
    }
    return 0;
}
