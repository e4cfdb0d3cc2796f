/* What the PostgreSQL engine's two files share (postgres.c, postgres_marks.c): the connection
 * and its statements, and the calls one makes of the other. Only these files include libpq. */
#ifndef PRACA_STORE_POSTGRES_PRIVATE_H
#define PRACA_STORE_POSTGRES_PRIVATE_H
#include <libpq-fe.h>
#include <stdint.h>

#include "core/buf.h"
#include "store/engine.h"

#define CACHE_SLOTS  512 /* power of two, well above the number of distinct queries */
#define MAX_PARAMS   32
#define OID_TEXT     25
#define TEXTS_MAX    (64u << 20) /* a statement's text parameters together */
#define RECONNECT_MS 500         /* between attempts to reach a server that went away */
#define SCRIPT_MAX   (1u << 20)  /* a migration, or the change marks' definitions */
#define LATER_MAX    4           /* statements waiting to go with the next one */

struct pg_stmt {
    struct store_stmt base;
    int prepared;
    int nparams;
    PGresult *res; /* the running statement's rows */
    int row, rows;
    char ints[MAX_PARAMS][24];
    struct buf texts; /* the text parameters, each with its NUL */
    const char *values[MAX_PARAMS];
};

struct pg {
    struct store base;
    PGconn *conn;
    int64_t changes;
    int64_t retry_at_ms;              /* the next attempt to connect again */
    int marked;                       /* a change mark's notice arrived since the last take */
    struct pg_stmt *later[LATER_MAX]; /* sent with the next statement (pg_exec_later) */
    int nlater;
    int begin_later;             /* the writer's BEGIN is among them: the transaction is open */
    struct pg_stmt *commit_next; /* COMMIT, to go with the next statement (pg_commit_with_next) */
    int commit_went;             /* it did, and commit_rc is its outcome */
    int commit_rc;
    struct pg_stmt cache[CACHE_SLOTS];
};

struct pg *store__pg_of(struct store *s);
int store__pg_finish_result(struct pg *s, PGresult *res, const char *sql);
/* Sends what waits to go with the next statement now. */
void store__pg_run_later(struct pg *s);
int store__pg_exec_script(struct store *db, const char *sql);
/* The one integer a parameterless query answers, or fallback. */
int64_t store__pg_single_int(struct store *db, const char *sql, int64_t fallback);
extern const char STORE__PG_SQL_CHANGED_TABLE[];

/* postgres_marks.c */
void store__pg_on_notice(void *arg, const char *message);
int store__pg_changes_seen(struct store *db);
void store__pg_changes_taken(struct store *db);
extern const char STORE__PG_SQL_PRELUDE[];
int store__pg_track_changes(struct store *db, const struct store_change_mark *marks, size_t n);

#endif
