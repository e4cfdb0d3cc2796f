/* A fresh database for a unit test: with PRACA_TEST_POSTGRES (scripts/with-postgres.sh) a new
 * PostgreSQL database on that cluster, else a new SQLite file under /tmp. */
#ifndef PRACA_TEST_DATABASE_H
#define PRACA_TEST_DATABASE_H

struct test_database {
    char target[1100]; /* what store_open takes: the file's path or the database's URL */
    char pg_name[64];  /* "" with SQLite */
};

/* name: a word that tells the tests' databases apart (the process ID is added). */
void test_database_create(struct test_database *t, const char *name);
void test_database_remove(struct test_database *t);

#endif
