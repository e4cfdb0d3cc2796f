/*
 * The schema's foreign keys each have an index that starts with their columns: a key that is
 * looked up or cascaded without one scans its whole table per row (deleting a forum scanned
 * every channel once per post). Runs on SQLite, and on PostgreSQL under `make unit-postgres`.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/migrate.h"
#include "test_database.h"

/* SQLite and PostgreSQL each list (table, key or index name, column) in column order. */
static const char *FK_SQLITE =
    "SELECT m.name, m.name || '#' || f.id, f.\"from\" FROM sqlite_master m,"
    " pragma_foreign_key_list(m.name) f WHERE m.type = 'table' ORDER BY 1, 2, f.seq";
static const char *INDEX_SQLITE =
    "SELECT m.name, il.name, ii.name FROM sqlite_master m, pragma_index_list(m.name) il,"
    " pragma_index_info(il.name) ii WHERE m.type = 'table' AND il.partial = 0"
    " ORDER BY 1, 2, ii.seqno";
static const char *FK_PG =
    "SELECT c.conrelid::regclass::text, c.conname::text, a.attname::text FROM pg_constraint c"
    " CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY k(attnum, ord)"
    " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum"
    " WHERE c.contype = 'f' ORDER BY 1, 2, k.ord";
static const char *INDEX_PG =
    "SELECT i.indrelid::regclass::text, i.indexrelid::regclass::text, a.attname::text"
    " FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)"
    " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
    " JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
    " WHERE i.indpred IS NULL AND n.nspname = current_schema() ORDER BY 1, 2, k.ord";

#define MAX_GROUPS 256
#define MAX_COLS   8

/* A foreign key's or an index's columns, in order. */
struct group {
    char table[64], name[128];
    char cols[MAX_COLS][64];
    int n;
};

static int load(struct store *db, const char *sql, struct group *out)
{
    struct store_stmt *st = store__query(db, sql, NULL, 0);
    cr_assert(st, "%s", sql);
    int n = 0;
    while (store__step(st) == STORE_ROW) {
        const char *table = store__text(st, 0), *name = store__text(st, 1);
        if (!n || strcmp(out[n - 1].table, table) || strcmp(out[n - 1].name, name)) {
            cr_assert_lt(n, MAX_GROUPS);
            memset(&out[n], 0, sizeof out[n]);
            snprintf(out[n].table, sizeof out[n].table, "%s", table);
            snprintf(out[n].name, sizeof out[n].name, "%s", name);
            n++;
        }
        struct group *g = &out[n - 1];
        cr_assert_lt(g->n, MAX_COLS);
        snprintf(g->cols[g->n++], sizeof g->cols[0], "%s", store__text(st, 2));
    }
    store__finish(st);
    return n;
}

/* The index's first columns are the key's, in any order. */
static int covers(const struct group *index, const struct group *key)
{
    if (strcmp(index->table, key->table) || index->n < key->n)
        return 0;
    for (int i = 0; i < key->n; i++) {
        int found = 0;
        for (int j = 0; j < key->n && !found; j++)
            found = !strcmp(key->cols[i], index->cols[j]);
        if (!found)
            return 0;
    }
    return 1;
}

Test(schema, every_foreign_key_has_an_index_that_starts_with_its_columns)
{
    struct test_database database;
    test_database_create(&database, "schema");
    struct store *db;
    cr_assert_eq(store_open(database.target, &db), STORE_DONE);
    cr_assert_gt(store_migrate(db), 0);
    int pg = !!getenv("PRACA_TEST_POSTGRES");
    static struct group keys[MAX_GROUPS], indexes[MAX_GROUPS];
    int nkeys = load(db, pg ? FK_PG : FK_SQLITE, keys);
    int nindexes = load(db, pg ? INDEX_PG : INDEX_SQLITE, indexes);
    cr_assert_gt(nkeys, 20, "the schema's foreign keys were listed");
    int missing = 0;
    for (int k = 0; k < nkeys; k++) {
        int found = 0;
        for (int i = 0; i < nindexes && !found; i++)
            found = covers(&indexes[i], &keys[k]);
        if (!found) {
            fprintf(stderr, "no index for %s(%s%s%s)\n", keys[k].table, keys[k].cols[0],
                    keys[k].n > 1 ? ", " : "", keys[k].n > 1 ? keys[k].cols[1] : "");
            missing++;
        }
    }
    store_close(db);
    test_database_remove(&database);
    cr_assert_eq(missing, 0, "%d foreign keys have no index (listed above)", missing);
}
