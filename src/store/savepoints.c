/* The writer's savepoints, opened when first needed: see savepoints.h. */
#include "store/savepoints.h"

#include "store/engine.h"
#include "store/message_rows.h"

/* Prepared once on the writer's connection (store__exec caches by SQL address). */
static const char *SQL_SAVEPOINT = "SAVEPOINT w";
static const char *SQL_ROLLBACK_TO = "ROLLBACK TO w";
static const char *SQL_RELEASE = "RELEASE w";

#define DEPTH                                                                                      \
    (int)(sizeof((struct store *)0)->savepoints / sizeof((struct store *)0)->savepoints[0])

/* Inserts the rows held before row `upto`, with this function's own statements let through. */
static int insert_rows(struct store *db, size_t upto)
{
    db->statement_due = 1;
    int rc = store__message_rows_insert(db, upto);
    db->statement_due = 0;
    return rc;
}

void store__before_statement(struct store *db)
{
    if (db->statement_due || (!db->nsavepoints && !db->rows))
        return;
    size_t inserted = 0;
    for (int i = 0; i < db->nsavepoints; i++) {
        struct store_savepoint *s = &db->savepoints[i];
        if (s->opened)
            continue;
        /* the rows held before it go in first, outside it */
        if (s->rows > inserted) {
            insert_rows(db, s->rows - inserted);
            inserted = s->rows;
        }
        db->statement_due = 1;
        store__exec_later(db, SQL_SAVEPOINT);
        db->statement_due = 0;
        s->opened = 1;
    }
    if (store__message_rows_held(db))
        insert_rows(db, store__message_rows_held(db));
    for (int i = 0; i < db->nsavepoints; i++)
        db->savepoints[i].rows = 0; /* every row held before each is in */
}

void store__savepoint_open(struct store *db)
{
    if (db->nsavepoints < DEPTH) {
        db->savepoints[db->nsavepoints++] =
            (struct store_savepoint){.opened = 0, .rows = store__message_rows_held(db)};
        return;
    }
    /* Deeper than any job nests: opened at once, after the rows held before it. */
    store__before_statement(db);
    db->statement_due = 1;
    store__exec_later(db, SQL_SAVEPOINT);
    db->statement_due = 0;
    db->deeper++;
}

void store__savepoint_close(struct store *db, int keep)
{
    struct store_savepoint s = {.opened = 1, .rows = 0};
    if (db->deeper)
        db->deeper--;
    else if (db->nsavepoints)
        s = db->savepoints[--db->nsavepoints];
    else
        return;
    if (!keep)
        store__message_rows_forget(db, s.rows);
    if (!s.opened)
        return;
    db->statement_due = 1;
    if (!keep)
        store__exec(db, SQL_ROLLBACK_TO, NULL, 0);
    store__exec_later(db, SQL_RELEASE);
    db->statement_due = 0;
}

void store__savepoints_forget(struct store *db)
{
    db->nsavepoints = db->deeper = 0;
    store__message_rows_forget(db, 0);
}

int store__rows_flush(struct store *db)
{
    return insert_rows(db, store__message_rows_held(db));
}
