/*
 * The PostgreSQL engine (store/engine.h), over libpq. The same SQL texts as SQLite: $N
 * placeholders are PostgreSQL's own; migrations are written with SQLite's type names, where
 * INTEGER is 64-bit, and are read here with BIGINT for it. Statements are prepared once per
 * connection, named by their slot in a cache keyed by the SQL text's address, and run with
 * parameters sent as text, typed by PostgreSQL from where they stand.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/log.h"
#include "store/engine.h"
#include "store/pg_sql.h"
#include "store/postgres_private.h"

struct pg *store__pg_of(struct store *s)
{
    return (struct pg *)s;
}

static struct pg_stmt *stmt_of(struct store_stmt *st)
{
    return (struct pg_stmt *)st;
}

/* SQLSTATE classes: 23 integrity constraint, 40 transaction rollback (serialization,
 * deadlock), 55P03 lock not available. */
static int result_of(const PGresult *res)
{
    ExecStatusType s = PQresultStatus(res);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_EMPTY_QUERY)
        return STORE_DONE;
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    if (state && !strncmp(state, "23", 2))
        return STORE_CONSTRAINT;
    if (state && (!strncmp(state, "40", 2) || !strcmp(state, "55P03")))
        return STORE_BUSY;
    return STORE_ERR;
}

/* Counts the result's changed rows, logs a failure, and frees it unless the caller keeps it. */
int store__pg_finish_result(struct pg *s, PGresult *res, const char *sql)
{
    int rc = result_of(res);
    if (rc != STORE_DONE && PQstatus(s->conn) == CONNECTION_BAD) {
        log_error("store: lost the connection to PostgreSQL: %s", PQerrorMessage(s->conn));
        store__note_reachable(0);
        return STORE_ERR;
    }
    if (rc == STORE_DONE) {
        const char *n = PQcmdTuples(res);
        s->changes = n && *n ? strtoll(n, NULL, 10) : 0;
    } else if (rc == STORE_ERR) {
        log_error("store: %s in: %.200s", PQresultErrorMessage(res), sql);
    }
    return rc;
}

const char STORE__PG_SQL_CHANGED_TABLE[] =
    "CREATE TEMP TABLE IF NOT EXISTS praca_changed (sid TEXT)";

/* A connection the server dropped (a restart, a failover) is opened again, at most every
 * RECONNECT_MS; its prepared statements and its temporary table went with it. */
static int reachable(struct pg *s)
{
    if (PQstatus(s->conn) == CONNECTION_OK)
        return 1;
    int64_t now = clock_now_ms();
    /* Attempts are spaced while the server is away; once another connection found it back,
     * this one tries at once rather than fail a request for the rest of its wait. */
    if (now < s->retry_at_ms && !store_reachable())
        return 0;
    s->retry_at_ms = now + RECONNECT_MS;
    PQreset(s->conn);
    if (PQstatus(s->conn) != CONNECTION_OK) {
        store__note_reachable(0);
        return 0;
    }
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        PQclear(s->cache[i].res);
        s->cache[i].res = NULL;
        s->cache[i].prepared = 0;
    }
    s->nlater = 0; /* their transaction went with the connection */
    s->begin_later = s->commit_went = 0;
    s->commit_next = NULL;
    PGresult *res = s->base.tracks_changes ? PQexec(s->conn, STORE__PG_SQL_CHANGED_TABLE) : NULL;
    int rc = res ? store__pg_finish_result(s, res, STORE__PG_SQL_CHANGED_TABLE) : STORE_DONE;
    PQclear(res);
    if (rc != STORE_DONE)
        return 0;
    log_info("store: connected to PostgreSQL again");
    store__note_reachable(1);
    return 1;
}

/* A connection the server closed while idle (it restarted since our last statement) is
 * noticed only by the next statement: outside a transaction that statement runs again once,
 * on a fresh connection. Inside one, the transaction is gone and its writer fails it. */
static int reconnected_for_retry(struct pg *s, int was_idle)
{
    if (!was_idle || PQstatus(s->conn) != CONNECTION_BAD)
        return 0;
    s->retry_at_ms = 0;
    return reachable(s);
}

static void stmt_name(const struct pg *s, const struct pg_stmt *st, char name[16])
{
    snprintf(name, 16, "s%d", (int)(st - s->cache));
}

/* Runs the statements waiting (pg_exec_later) one by one: before anything but a prepared
 * statement, which takes them along instead. A failure shows in the transaction's state. */
void store__pg_run_later(struct pg *s)
{
    for (int i = 0; i < s->nlater; i++) {
        char name[16];
        stmt_name(s, s->later[i], name);
        PGresult *res =
            PQexecPrepared(s->conn, name, s->later[i]->nparams, s->later[i]->values, NULL, NULL, 0);
        store__pg_finish_result(s, res, s->later[i]->base.sql);
        PQclear(res);
    }
    s->nlater = 0;
    s->begin_later = 0;
}

/* No transaction open, nor one whose BEGIN waits to go: a statement that failed on a connection
 * the server had closed may run again on a new one. */
static int idle(struct pg *s)
{
    return PQtransactionStatus(s->conn) == PQTRANS_IDLE && !s->begin_later;
}

/* A COMMIT that went in a pipeline: done only when it committed (one sent into a failed
 * transaction answers ROLLBACK, and one after a failed statement was not run). */
static void note_commit(struct pg *s, PGresult *res)
{
    s->commit_went = 1;
    s->commit_rc =
        res && PQresultStatus(res) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(res), "COMMIT")
            ? STORE_DONE
            : STORE_ERR;
    if (s->commit_rc != STORE_DONE && res)
        store__pg_finish_result(s, res, STORE__SQL_COMMIT);
}

/* The statement named, after those waiting and followed by COMMIT when one is due, in one round
 * trip (libpq's pipeline mode): its result, or that of the first waiting one that failed (the
 * rest were not run). */
static PGresult *exec_with_later(struct pg *s, const char *name, struct pg_stmt *st)
{
    struct pg_stmt *commit = s->commit_next;
    s->commit_next = NULL;
    if (!s->nlater && !commit)
        return PQexecPrepared(s->conn, name, st->nparams, st->values, NULL, NULL, 0);
    if (PQenterPipelineMode(s->conn) != 1) {
        store__pg_run_later(s);
        return PQexecPrepared(s->conn, name, st->nparams, st->values, NULL, NULL, 0);
    }
    int sent = 0, n = s->nlater, more = commit != NULL;
    for (int i = 0; i < n; i++) {
        char later[16];
        stmt_name(s, s->later[i], later);
        sent += PQsendQueryPrepared(s->conn, later, s->later[i]->nparams, s->later[i]->values, NULL,
                                    NULL, 0) == 1;
    }
    sent += PQsendQueryPrepared(s->conn, name, st->nparams, st->values, NULL, NULL, 0) == 1;
    if (commit) {
        char commit_name[16];
        stmt_name(s, commit, commit_name);
        sent += PQsendQueryPrepared(s->conn, commit_name, 0, NULL, NULL, NULL, 0) == 1;
    }
    s->nlater = 0;
    s->begin_later = 0;
    PGresult *failed = NULL, *last = NULL, *committed = NULL;
    if (sent == n + 1 + more && PQpipelineSync(s->conn) == 1) {
        /* One result per statement, each followed by a NULL, then the sync's; two NULLs in a
         * row mean nothing more is coming (the connection broke). */
        for (int got = 0, nulls = 0; nulls < 2;) {
            PGresult *res = PQgetResult(s->conn);
            if (!res) {
                nulls++;
                continue;
            }
            nulls = 0;
            ExecStatusType status = PQresultStatus(res);
            if (status == PGRES_PIPELINE_SYNC) {
                PQclear(res);
                break;
            }
            int at = got++;
            if (at == n)
                last = res;
            else if (at == n + 1)
                committed = res;
            else if (!failed && status != PGRES_COMMAND_OK)
                failed = res;
            else
                PQclear(res);
        }
    }
    if (PQexitPipelineMode(s->conn) != 1)
        log_error("store: PostgreSQL's pipeline mode left with results pending: %s",
                  PQerrorMessage(s->conn));
    if (commit)
        note_commit(s, committed);
    PQclear(committed);
    if (failed) {
        PQclear(last);
        return failed;
    }
    return last ? last : PQmakeEmptyPGresult(s->conn, PGRES_FATAL_ERROR);
}

int store__pg_exec_script(struct store *db, const char *sql)
{
    if (!reachable(store__pg_of(db)))
        return STORE_ERR;
    store__pg_run_later(store__pg_of(db));
    char *text = store__pg_sql_from_sqlite_ddl(sql, SCRIPT_MAX);
    if (!text)
        return STORE_ERR;
    PGresult *res = PQexec(store__pg_of(db)->conn, text);
    int rc = store__pg_finish_result(store__pg_of(db), res, text);
    PQclear(res);
    free(text);
    return rc;
}

/* The N of "could not determine data type of parameter $N" (SQLSTATE 42P08 or 42P18), else 0. */
static int untyped_param(const PGresult *res)
{
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    const char *at = msg ? strrchr(msg, '$') : NULL;
    if (!state || (strcmp(state, "42P18") && strcmp(state, "42P08")) || !at)
        return 0;
    return store__pg_sql_param_number(at);
}

static int prepare(struct pg *s, struct pg_stmt *st)
{
    int used[MAX_PARAMS];
    int n = store__pg_sql_params(st->base.sql, used, MAX_PARAMS);
    if (n < 0) {
        log_error("store: more than $%d parameters in: %s", MAX_PARAMS, st->base.sql);
        return -1;
    }
    Oid types[MAX_PARAMS];
    for (int i = 0; i < n; i++)
        types[i] = used[i] ? 0 : OID_TEXT;
    char name[16];
    stmt_name(s, st, name);
    int rc;
    store__pg_run_later(s);
    /* A failed PREPARE would leave an open transaction unusable: try it in a savepoint. */
    int in_tx = PQtransactionStatus(s->conn) == PQTRANS_INTRANS;
    for (int tries = 0;; tries++) {
        if (in_tx)
            PQclear(PQexec(s->conn, "SAVEPOINT praca_prepare"));
        PGresult *res = PQprepare(s->conn, name, st->base.sql, n, types);
        if (in_tx)
            PQclear(PQexec(s->conn, PQresultStatus(res) == PGRES_COMMAND_OK
                                        ? "RELEASE praca_prepare"
                                        : "ROLLBACK TO praca_prepare; RELEASE praca_prepare"));
        /* A parameter only tested for NULL ("$2 IS NULL OR …") has no type to infer: it is
         * text, as every such parameter of ours is. */
        int k = untyped_param(res);
        if (k > 0 && k <= n && types[k - 1] == 0 && tries < MAX_PARAMS) {
            types[k - 1] = OID_TEXT;
            PQclear(res);
            continue;
        }
        rc = store__pg_finish_result(s, res, st->base.sql);
        PQclear(res);
        break;
    }
    if (rc != STORE_DONE)
        return -1;
    st->nparams = n;
    st->prepared = 1;
    return 0;
}

static struct pg_stmt *slot_for(struct pg *s, const char *sql)
{
    size_t h = ((uintptr_t)sql >> 3) & (CACHE_SLOTS - 1);
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        struct pg_stmt *slot = &s->cache[(h + i) & (CACHE_SLOTS - 1)];
        if (slot->base.sql == sql || !slot->base.sql) {
            slot->base.sql = sql;
            slot->base.db = &s->base;
            return slot;
        }
    }
    log_error("store: statement cache full");
    return NULL;
}

static struct store_stmt *pg_query(struct store *db, const char *sql, const struct store_val *args,
                                   size_t nargs)
{
    struct pg *s = store__pg_of(db);
    struct pg_stmt *st = slot_for(s, sql);
    if (!st || !reachable(s))
        return NULL;
    if (!st->prepared) {
        int was_idle = idle(s);
        if (prepare(s, st) && !(reconnected_for_retry(s, was_idle) && !prepare(s, st)))
            return NULL;
    }
    PQclear(st->res); /* a statement left unfinished */
    st->res = NULL;
    /* Texts are copied with a NUL (libpq reads text parameters up to it), then pointed at once
     * the buffer has stopped moving. */
    size_t at[MAX_PARAMS];
    if (!st->texts.max)
        buf_init(&st->texts, TEXTS_MAX);
    buf_reset(&st->texts);
    for (int i = 0; i < st->nparams; i++) {
        const struct store_val *v = (size_t)i < nargs ? &args[i] : NULL;
        st->values[i] = NULL;
        if (v && v->type == SV_INT) {
            snprintf(st->ints[i], sizeof st->ints[i], "%lld", (long long)v->i);
            st->values[i] = st->ints[i];
        } else if (v && v->type == SV_TEXT) {
            at[i] = st->texts.len;
            if (buf_append(&st->texts, v->text, v->len) || buf_append(&st->texts, "", 1))
                return NULL;
        }
    }
    for (int i = 0; i < st->nparams; i++)
        if ((size_t)i < nargs && args[i].type == SV_TEXT)
            st->values[i] = st->texts.data + at[i];
    return &st->base;
}

static int pg_step(struct store_stmt *base)
{
    struct pg_stmt *st = stmt_of(base);
    struct pg *s = store__pg_of(base->db);
    if (!st->res) {
        int was_idle = idle(s);
        char name[16];
        stmt_name(s, st, name);
        int rc;
        for (int tries = 0;; tries++) {
            st->res = exec_with_later(s, name, st);
            rc = store__pg_finish_result(s, st->res, base->sql);
            if (rc == STORE_DONE)
                break;
            PQclear(st->res);
            st->res = NULL;
            if (tries || !reconnected_for_retry(s, was_idle) || prepare(s, st))
                return rc;
        }
        st->row = -1;
        st->rows = PQntuples(st->res);
    }
    return ++st->row < st->rows ? STORE_ROW : STORE_DONE;
}

static const char *pg_text(struct store_stmt *base, int col)
{
    struct pg_stmt *st = stmt_of(base);
    return PQgetisnull(st->res, st->row, col) ? NULL : PQgetvalue(st->res, st->row, col);
}

static size_t pg_text_len(struct store_stmt *base, int col)
{
    struct pg_stmt *st = stmt_of(base);
    return (size_t)PQgetlength(st->res, st->row, col);
}

/* Booleans (EXISTS, comparisons) come back as t / f. */
static int64_t pg_int(struct store_stmt *base, int col)
{
    const char *v = pg_text(base, col);
    if (!v)
        return 0;
    if (v[0] == 't' || v[0] == 'f')
        return v[0] == 't';
    return strtoll(v, NULL, 10);
}

static int pg_is_null(struct store_stmt *base, int col)
{
    struct pg_stmt *st = stmt_of(base);
    return PQgetisnull(st->res, st->row, col);
}

static void pg_finish(struct store_stmt *base)
{
    struct pg_stmt *st = stmt_of(base);
    PQclear(st->res);
    st->res = NULL;
}

static int64_t pg_changes(struct store *db)
{
    return store__pg_of(db)->changes;
}

/* The one integer a parameterless query answers, or fallback. */
int64_t store__pg_single_int(struct store *db, const char *sql, int64_t fallback)
{
    int64_t v = fallback;
    struct store_stmt *st = pg_query(db, sql, NULL, 0);
    if (st && pg_step(st) == STORE_ROW)
        v = pg_int(st, 0);
    if (st)
        pg_finish(st);
    return v;
}

static int pg_in_transaction(struct store *db)
{
    PGTransactionStatusType t = PQtransactionStatus(store__pg_of(db)->conn);
    return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || store__pg_of(db)->begin_later;
}

static int pg_failed(struct store *db)
{
    return PQtransactionStatus(store__pg_of(db)->conn) == PQTRANS_INERROR;
}

/* Each statement reads the latest commit; there is no lock to share between them. */
static void pg_read_batching(struct store *db, int on)
{
    (void)db;
    (void)on;
}

static void pg_read_release(struct store *db)
{
    (void)db;
}

static int pg_backup(struct store *db, const char *dest)
{
    (void)db;
    log_error("store: praca backup copies SQLite files; back %s up with pg_dump or the "
              "server's own backups",
              "a PostgreSQL database");
    (void)dest;
    return STORE_ERR;
}

static void pg_close(struct store *db)
{
    struct pg *s = store__pg_of(db);
    for (size_t i = 0; i < CACHE_SLOTS; i++) {
        PQclear(s->cache[i].res);
        buf_cleanup(&s->cache[i].texts);
    }
    PQfinish(s->conn);
    free(s);
}

static int pg_open(const char *url, struct store **out)
{
    struct pg *s = calloc(1, sizeof *s);
    if (!s)
        return STORE_ERR;
    s->base.engine = &store_postgres;
    /* A server that does not answer must not hold a worker for long; the URL may say
     * otherwise. */
    const char *keys[] = {"connect_timeout", "dbname", NULL};
    const char *values[] = {"5", url, NULL};
    s->conn = PQconnectdbParams(keys, values, 1);
    if (PQstatus(s->conn) != CONNECTION_OK) {
        log_error("store: cannot connect to PostgreSQL: %s", PQerrorMessage(s->conn));
        pg_close(&s->base);
        return STORE_ERR;
    }
    PQsetNoticeProcessor(s->conn, store__pg_on_notice, s);
    *out = &s->base;
    return STORE_DONE;
}

/* The writer's last statement before its COMMIT takes the COMMIT along (on=1), or no longer
 * (on=0: that statement is not coming, or failed). */
static void pg_commit_with_next(struct store *db, int on)
{
    struct pg *s = store__pg_of(db);
    s->commit_next = NULL;
    s->commit_went = 0;
    if (!on)
        return;
    struct pg_stmt *st = slot_for(s, STORE__SQL_COMMIT);
    if (st && reachable(s) && (st->prepared || !prepare(s, st)))
        s->commit_next = st;
}

/* The outcome of the COMMIT that went with a statement, or 1 when none went. */
static int pg_commit_went(struct store *db)
{
    struct pg *s = store__pg_of(db);
    s->commit_next = NULL;
    if (!s->commit_went)
        return 1;
    s->commit_went = 0;
    return s->commit_rc;
}

/* BEGIN, SAVEPOINT, RELEASE and the rows of a commit's sends, whose answers matter only to the
 * statements after them: each waits to go with the next statement, in the same round trip. Its
 * parameters wait in its slot, so a slot already waiting goes first. */
static int pg_exec_later(struct store *db, const char *sql, const struct store_val *args,
                         size_t nargs)
{
    struct pg *s = store__pg_of(db);
    struct pg_stmt *st = slot_for(s, sql);
    for (int i = 0; st && i < s->nlater; i++)
        if (s->later[i] == st)
            store__pg_run_later(s);
    if (!st || !pg_query(db, sql, args, nargs))
        return STORE_ERR;
    if (s->nlater == LATER_MAX)
        store__pg_run_later(s);
    s->later[s->nlater++] = st;
    s->begin_later |= !strcmp(sql, store_postgres.sql_begin_write);
    return STORE_DONE;
}

static void pg_after_commit(struct store *db)
{
    (void)db;
}

const struct store_engine store_postgres = {
    .name = "postgres",
    .open = pg_open,
    .close = pg_close,
    .query = pg_query,
    .step = pg_step,
    .text = pg_text,
    .text_len = pg_text_len,
    .int64 = pg_int,
    .is_null = pg_is_null,
    .finish = pg_finish,
    .changes = pg_changes,
    .exec_script = store__pg_exec_script,
    .exec_later = pg_exec_later,
    .commit_with_next = pg_commit_with_next,
    .commit_went = pg_commit_went,
    .in_transaction = pg_in_transaction,
    .failed = pg_failed,
    .read_batching = pg_read_batching,
    .read_release = pg_read_release,
    .backup = pg_backup,
    .track_changes = store__pg_track_changes,
    .changes_seen = store__pg_changes_seen,
    .changes_taken = store__pg_changes_taken,
    .after_commit = pg_after_commit,
    .sql_schema_prelude = STORE__PG_SQL_PRELUDE,
    .sql_begin_write = "BEGIN",
    .sql_data_version = "SELECT n FROM praca_foreign_changes",
    .positions_at_commit = 1,
    .rows_at_commit = 1,
    .messages_lock_channel = 1,
};
