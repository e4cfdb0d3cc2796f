/*
 * One database connection and the query interface every store file speaks.
 *
 * SQL is written once with $1, $2 … placeholders, which SQLite binds as named parameters and
 * PostgreSQL takes as they are. IDs and JSON are TEXT, booleans 0/1, times integer milliseconds.
 * Statements are prepared once per connection and cached by their SQL text's address, so SQL
 * must be a string literal (or otherwise live for the whole run).
 *
 * A connection belongs to one thread. Reads run on the worker's own connection; writes go
 * through the writer (writer.h), which runs them in group-committed transactions.
 */
#ifndef PRACA_STORE_DB_H
#define PRACA_STORE_DB_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum store_result {
    STORE_DONE = 0,        /* statement finished */
    STORE_ROW = 1,         /* a row is available */
    STORE_ERR = -1,        /* any other failure (logged) */
    STORE_CONSTRAINT = -2, /* a UNIQUE / FOREIGN KEY / CHECK constraint failed */
    STORE_BUSY = -3,       /* the database stayed locked past the busy timeout */
    /* A write that the data's own rules stop (its callers say why, in words of their own): */
    STORE_MISSING = -4, /* what it works on is not there, or no longer usable */
    STORE_REFUSED = -5, /* it is not allowed there (a ban) */
    STORE_TAKEN = -6,   /* it was done once already (an answered interaction, a thread) */
    STORE_FULL = -7,    /* a limit of the data is reached (pins in a channel) */
};

enum store_val_type { SV_NULL, SV_TEXT, SV_INT };

struct store_val {
    enum store_val_type type;
    const char *text;
    size_t len;
    int64_t i;
};

static inline struct store_val store_val_str(const char *s)
{
    return (struct store_val){.type = s ? SV_TEXT : SV_NULL, .text = s, .len = s ? strlen(s) : 0};
}

#define SV_STR(s)     store_val_str(s)
#define SV_STRN(s, n) ((struct store_val){.type = SV_TEXT, .text = (s), .len = (n)})
#define SV_INT(v)     ((struct store_val){.type = SV_INT, .i = (int64_t)(v)})
#define SV_NULLV      ((struct store_val){.type = SV_NULL})
#define SV_ARGS(...)                                                                               \
    (const struct store_val[]){__VA_ARGS__},                                                       \
        sizeof((const struct store_val[]){__VA_ARGS__}) / sizeof(struct store_val)

struct store;
struct store_stmt;

/* Opens a connection to target: a postgres:// (or postgresql://) URL, or else the path of an
 * SQLite file, created if missing, with WAL, foreign keys and a busy timeout. */
int store_open(const char *target, struct store **out);
/* 1 when target is a PostgreSQL URL. */
int store__is_url(const char *target);
/* 0 while the database server cannot be reached (PostgreSQL down or restarting: connections
 * try again by themselves); an SQLite file is always reachable. */
int store_reachable(void);
/* "sqlite" or "postgres". */
const char *store__engine_name(const struct store *db);
/* Copies the whole database, online, into dest (written as dest.partial, checked, then
 * renamed). SQLite only: PostgreSQL is backed up with its own tools. */
int store_backup(struct store *db, const char *dest);
/* The writer's connection, which records what its transaction changes (store/snapshot.h). */
void store__set_tracks_changes(struct store *db);
int store_tracks_changes(const struct store *db);
/* Whether the writer's current job has written yet (so it may read changes of its own). */
void store__set_wrote(struct store *db, int wrote);
int store_wrote(const struct store *db);
/* 1 while a transaction is open on the connection (SQLite may end one by itself on a full
 * disk or an I/O error). */
int store__in_transaction(struct store *db);
/* 1 when a statement failed since the open transaction's last savepoint and the transaction
 * cannot go on until it is rolled back to it (PostgreSQL; never with SQLite). */
int store__failed(struct store *db);
/* The writer's BEGIN for this engine (SQLite takes the write lock at once). */
const char *store__sql_begin_write(const struct store *db);
/* Opens the writer's transaction: STORE_DONE, or STORE_ERR when it could not. On PostgreSQL the
 * BEGIN waits to go with the transaction's first statement, in the same round trip
 * (store__exec_later), and store__in_transaction already says 1. */
int store__begin_write(struct store *db);
/* The writer's COMMIT: on PostgreSQL it can go in the round trip of the transaction's last
 * statement. store__commit_with_next(db, 1) before that statement asks for it (0 takes the
 * ask back); store__commit then answers how the COMMIT went, sending it only when it did not go
 * yet. STORE_DONE when the transaction committed. */
void store__commit_with_next(struct store *db, int on);
int store__commit(struct store *db);
/* The writer's COMMIT, one text (statements are cached by their text's address). */
extern const char STORE__SQL_COMMIT[];
/* Defines what the migrations need of the engine beyond the tables (PostgreSQL: SQLite's
 * functions our SQL uses). Run by store_migrate first. */
int store__prepare_schema(struct store *db);
/* 1 when event positions are given at commit (several writers: PostgreSQL), 0 when at append. */
int store__positions_at_commit(const struct store *db);
/* 1 when an insert of messages locks its channel itself (no foreign key: engine.h). */
int store__messages_lock_channel(const struct store *db);
/* Called by the writer after each commit, before anyone hears of it. */
void store__after_commit(struct store *db);
/* SQLite's -wal on the writer's connection: the checkpoints their own thread ran so far, busy
 * while one runs or is wanted, and the pages the -wal held at the last commit. All 0 for an
 * engine without one (beside: 0), or when its checkpoints stayed on the writer's thread. */
struct store_checkpoints {
    uint64_t runs;
    int busy;
    int wal_pages;
    int beside; /* 1: they run on their own thread */
};
void store__checkpoints(struct store *db, struct store_checkpoints *out);

/* For the engines and snapshot.c, from db.c: */
struct store_change_mark;
/* An engine says whether its last attempt found the database reachable (see store_reachable). */
void store__note_reachable(int yes);
/* What changes_seen and changes_taken answer for db's engine (snapshot.c asks). */
int store__changes_seen(struct store *db);
void store__changes_taken(struct store *db);
/* Marks the connection as the writer's and installs its change marks. */
int store__track_changes(struct store *db, const struct store_change_mark *marks, size_t n);
/* The database's change counter as this connection sees it: it moves when another process
 * (praca admin) commits a change the in-memory state follows. */
int64_t store__data_version(struct store *db);
/* store_close(NULL) does nothing. */
void store_close(struct store *db);

/* Read transactions. A connection marked for it with store_read_batching starts one read
 * transaction at its first query and keeps it until store_read_release, so the statements of
 * one request share one snapshot and one lock (one fcntl pair instead of one per statement).
 * store_write releases the calling thread's batched connection first, so reads after a write
 * see it. */
void store_read_batching(struct store *db, int on);
void store_read_release(struct store *db);
/* A worker thread's own connection, for the pool's thread initialiser (core/workers.h): target
 * is the store's target, batching on, a small cache. NULL when it cannot open. Every job on a
 * worker (a request, a gateway job) reads through its thread's. */
void *store_worker_open(void *target, int index);
void store_worker_close(void *db);
/* Releases the read transaction of the calling thread's batched connection, if any. */
void store__read_release_current(void);

/* Prepares (or takes from the cache) and binds; NULL on error. Finish with store__finish. */
struct store_stmt *store__query(struct store *db, const char *sql, const struct store_val *args,
                                size_t nargs);
int store__step(struct store_stmt *st);
/* Column accessors for the current row; text is NUL-terminated and valid until the next step. */
/* Copies a text column into out (cap bytes): "" when it is NULL or does not fit (then -1). */
int store__text_copy(struct store_stmt *st, int col, char *out, size_t cap);
const char *store__text(struct store_stmt *st, int col);
size_t store__text_len(struct store_stmt *st, int col);
int64_t store__int(struct store_stmt *st, int col);
int store__is_null(struct store_stmt *st, int col);
void store__finish(struct store_stmt *st);

/* Runs a statement to its end; returns STORE_DONE or an error. */
int store__exec(struct store *db, const char *sql, const struct store_val *args, size_t nargs);
/* A statement without rows whose outcome matters only to the next statement (SAVEPOINT,
 * RELEASE, a batch of inserts): on PostgreSQL it goes with that statement, in one round trip,
 * and a failure shows as that statement's. Elsewhere it runs at once. */
int store__exec_later(struct store *db, const char *sql);
int store__exec_later_args(struct store *db, const char *sql, const struct store_val *args,
                           size_t nargs);
/* 1 when store__exec_later waits for the next statement (store__changes does not count it). */
int store__runs_later(const struct store *db);
/* Rows changed by the last statement. */
int64_t store__changes(struct store *db);
/* A step's result as the find functions answer it: 1 a row, 0 none, < 0 the error. */
static inline int store_found(int rc)
{
    return rc == STORE_ROW ? 1 : rc == STORE_DONE ? 0 : rc;
}
/* The row a query keyed by $1 selects: the statement standing on it, for the caller to read and
 * store__finish; NULL when there is no row (*found 0) or on an error (*found < 0). */
struct store_stmt *store__row(struct store *db, const char *sql, const char *key, int *found);

/* The first column of the first row of a query taking one key (NULL: a query of none): a count,
 * a sum; < 0 on an error or when there is no row. */
int64_t store__number(struct store *db, const char *sql, const char *key);
/* Whether a query returns a row: 1 yes, 0 no, < 0 an error. */
int store__exists(struct store *db, const char *sql, const struct store_val *args, size_t nargs);
/* Commits on this connection reach the disk before they return (SQLite: synchronous=FULL;
 * PostgreSQL: its synchronous_commit, on unless its operator turned it off). */
int store__sync_full(struct store *db);
/* Runs several ;-separated statements with no parameters (migrations). */
int store__exec_script(struct store *db, const char *sql);

#endif
