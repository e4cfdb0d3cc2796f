/* A fresh database for a unit test: see test_database.h. */
#include "test_database.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "store/db.h"

static void pg_admin(const struct test_database *t, const char *fmt)
{
    char url[1100], sql[160];
    snprintf(url, sizeof url, "%s/postgres", getenv("PRACA_TEST_POSTGRES"));
    snprintf(sql, sizeof sql, fmt, t->pg_name);
    struct store *admin;
    cr_assert_eq(store_open(url, &admin), STORE_DONE);
    cr_assert_eq(store__exec_script(admin, sql), STORE_DONE, "%s", sql);
    store_close(admin);
}

void test_database_create(struct test_database *t, const char *name)
{
    const char *pg = getenv("PRACA_TEST_POSTGRES");
    t->pg_name[0] = '\0';
    if (!pg) {
        snprintf(t->target, sizeof t->target, "/tmp/praca-%s-%d.db", name, getpid());
        test_database_remove(t);
        return;
    }
    snprintf(t->pg_name, sizeof t->pg_name, "praca_%s_%d", name, getpid());
    pg_admin(t, "DROP DATABASE IF EXISTS %s");
    pg_admin(t, "CREATE DATABASE %s");
    snprintf(t->target, sizeof t->target, "%s/%s", pg, t->pg_name);
}

void test_database_remove(struct test_database *t)
{
    if (t->pg_name[0]) {
        pg_admin(t, "DROP DATABASE %s WITH (FORCE)");
        return;
    }
    static const char *suffixes[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        char p[1200];
        snprintf(p, sizeof p, "%s%s", t->target, suffixes[i]);
        unlink(p);
    }
}
