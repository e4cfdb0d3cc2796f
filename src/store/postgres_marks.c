/*
 * The PostgreSQL engine's schema prelude and change marks (store/engine.h): the functions of
 * SQLite's that our SQL uses, the marks as triggers that record on the writer's connection (a
 * notice says one fired) and count elsewhere, and the counter the writer polls. The statements
 * themselves are postgres.c's.
 */
#include <libpq-fe.h>
#include <string.h>

#include "core/buf.h"
#include "store/postgres_private.h"

/* PostgreSQL's notices are not logged; the one praca_mark raises on the writer's connection
 * says a change was marked, which spares a query after every job. */
void store__pg_on_notice(void *arg, const char *message)
{
    struct pg *s = arg;
    if (strstr(message, "praca_changed"))
        s->marked = 1;
}

int store__pg_changes_seen(struct store *db)
{
    return store__pg_of(db)->marked;
}

void store__pg_changes_taken(struct store *db)
{
    store__pg_of(db)->marked = 0;
}

/* Functions of SQLite's that our SQL uses, and the change marks' bookkeeping (see
 * store__pg_track_changes): defined once per database, before the migrations run. */
const char STORE__PG_SQL_PRELUDE[] =
    "SELECT pg_advisory_xact_lock(7262627);"
    "CREATE OR REPLACE FUNCTION praca_json_array_end(text[]) RETURNS text LANGUAGE sql"
    " IMMUTABLE AS $f$ SELECT array_to_json(COALESCE($1, '{}'))::text $f$;"
    "CREATE OR REPLACE AGGREGATE json_group_array(text) (SFUNC = array_append,"
    " STYPE = text[], FINALFUNC = praca_json_array_end, INITCOND = '{}');"
    "CREATE TABLE IF NOT EXISTS praca_foreign_changes (n BIGINT NOT NULL);"
    "INSERT INTO praca_foreign_changes SELECT 0"
    " WHERE NOT EXISTS (SELECT 1 FROM praca_foreign_changes);"
    /* On the writer's connection (which has the temporary table) a change is marked for the
     * batch; anywhere else (praca admin) it moves the counter the writer polls. */
    "CREATE OR REPLACE FUNCTION praca_mark(sid text) RETURNS void LANGUAGE plpgsql AS $f$"
    " BEGIN"
    "  IF to_regclass('pg_temp.praca_changed') IS NOT NULL THEN"
    "   EXECUTE 'INSERT INTO pg_temp.praca_changed VALUES ($1)' USING sid;"
    "   RAISE NOTICE 'praca_changed';"
    "  ELSE"
    "   UPDATE praca_foreign_changes SET n = n + 1;"
    "  END IF;"
    " END $f$;";

/* The marks are permanent triggers calling praca_mark (above); the temporary table that makes
 * them record exists on the writer's connection only. A mark's SQL is SQLite's trigger body:
 * `main.` names a permanent table there. */
int store__pg_track_changes(struct store *db, const struct store_change_mark *marks, size_t n)
{
    struct buf sql;
    buf_init(&sql, SCRIPT_MAX);
    buf_appendf(&sql, "BEGIN; SELECT pg_advisory_xact_lock(7262627);");
    for (size_t i = 0; i < n; i++) {
        char when[256], sids[256];
        const char *from[] = {marks[i].when, marks[i].sids};
        char *to[] = {when, sids};
        for (int k = 0; k < 2; k++) {
            size_t o = 0;
            for (const char *p = from[k]; *p && o + 1 < sizeof when; p++) {
                if (!strncmp(p, "main.", 5))
                    p += 5;
                to[k][o++] = *p;
            }
            to[k][o] = '\0';
        }
        buf_appendf(&sql,
                    "CREATE OR REPLACE FUNCTION praca_mark_%s() RETURNS trigger LANGUAGE plpgsql"
                    " AS $f$ BEGIN PERFORM praca_mark(x) FROM (%s) AS t(x); RETURN NULL; END $f$;"
                    "CREATE OR REPLACE TRIGGER praca_%s AFTER %s FOR EACH ROW"
                    " EXECUTE FUNCTION praca_mark_%s();",
                    marks[i].name, sids, marks[i].name, when, marks[i].name);
    }
    buf_appendf(&sql, "COMMIT; %s;", STORE__PG_SQL_CHANGED_TABLE);
    int rc = STORE_ERR;
    if (buf_appendf(&sql, " ") == BUF_OK) {
        store__pg_run_later(store__pg_of(db));
        PGresult *res = PQexec(store__pg_of(db)->conn, sql.data);
        rc = store__pg_finish_result(store__pg_of(db), res, "the change marks");
        PQclear(res);
        if (rc != STORE_DONE)
            store__pg_exec_script(db, "ROLLBACK;");
    }
    buf_cleanup(&sql);
    return rc;
}
