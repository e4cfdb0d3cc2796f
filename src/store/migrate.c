/* Migrations: see migrate.h. Each file runs in its own transaction with its version row. */
#include "store/migrate.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/embed.h"
#include "core/log.h"

extern const struct embedded_file praca_migrations[];

static const char *SQL_TABLE = "CREATE TABLE IF NOT EXISTS schema_migrations ("
                               " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                               " applied_at INTEGER NOT NULL)";
static const char *SQL_APPLIED = "SELECT 1 FROM schema_migrations WHERE version = $1";
static const char *SQL_RECORD =
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)";

/* A migration named NNN_what.sqlite.sql or NNN_what.postgres.sql is for that engine only (what
 * the two write differently: a full-text index); any other is for both. */
static int for_engine(const char *name, const char *engine)
{
    const char *tag = strstr(name, ".sqlite.")     ? "sqlite"
                      : strstr(name, ".postgres.") ? "postgres"
                                                   : NULL;
    return !tag || !strcmp(tag, engine);
}

static long long version_of(const char *name)
{
    size_t n = 0;
    while (name[n] >= '0' && name[n] <= '9')
        n++;
    long long v;
    return slice_to_i64((struct slice){name, n}, 1, 999999, &v) ? -1 : v;
}

int store_migrate(struct store *db)
{
    if (store__prepare_schema(db) != STORE_DONE || store__exec_script(db, SQL_TABLE) != STORE_DONE)
        return -1;
    int ran = 0;
    for (const struct embedded_file *f = praca_migrations; f->name; f++) {
        long long v = version_of(f->name);
        if (v < 0) {
            log_error("migrate: %s has no version number", f->name);
            return -1;
        }
        if (!for_engine(f->name, store__engine_name(db)))
            continue;
        struct store_stmt *st = store__query(db, SQL_APPLIED, SV_ARGS(SV_INT(v)));
        if (!st)
            return -1;
        int applied = store__step(st) == STORE_ROW;
        store__finish(st);
        if (applied)
            continue;
        if (store__exec_script(db, store__sql_begin_write(db)) != STORE_DONE)
            return -1;
        if (store__exec_script(db, (const char *)f->data) != STORE_DONE ||
            store__exec(db, SQL_RECORD,
                        SV_ARGS(SV_INT(v), SV_STR(f->name), SV_INT(clock_now_ms()))) !=
                STORE_DONE ||
            store__exec_script(db, "COMMIT") != STORE_DONE) {
            store__exec_script(db, "ROLLBACK");
            log_error("migrate: %s failed", f->name);
            return -1;
        }
        log_info("migrate: applied %s", f->name);
        ran++;
    }
    return ran;
}
