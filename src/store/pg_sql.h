/*
 * The rules by which PostgreSQL reads the SQL written for both engines: pure text functions,
 * kept apart from libpq so they can be tested alone.
 */
#ifndef PRACA_STORE_PG_SQL_H
#define PRACA_STORE_PG_SQL_H
#include <stddef.h>

/* A migration as PostgreSQL must read it: SQLite's INTEGER is 64-bit, so it is BIGINT here,
 * and an INTEGER PRIMARY KEY (SQLite's row ID, numbered by the database) is an identity
 * column. Only whole words in capitals, as the migrations write them. NULL when out of memory
 * or past max bytes; the caller frees the text. */
char *store__pg_sql_from_sqlite_ddl(const char *sql, size_t max);

/* Which of $1..$cap the SQL names outside quoted text: used[k - 1] = 1 for each $k. Returns the
 * highest k (0 for none), or -1 when a parameter passes cap. */
int store__pg_sql_params(const char *sql, int *used, int cap);

/* The N of the "$N" that text starts with (PostgreSQL's messages name a parameter so), else 0. */
int store__pg_sql_param_number(const char *text);

#endif
