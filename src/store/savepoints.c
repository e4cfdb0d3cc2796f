/* The writer's savepoints, opened when first needed: see savepoints.h. */
#include "store/savepoints.h"

#include "store/engine.h"
#include "store/message_rows.h"
#include "store/write_batch.h"

/* Prepared once on the writer's connection (store__exec caches by SQL address). */
static const char *SQL_SAVEPOINT = "SAVEPOINT w";
static const char *SQL_ROLLBACK_TO = "ROLLBACK TO w";
static const char *SQL_RELEASE = "RELEASE w";

#define DEPTH                                                                                      \
    (int)(sizeof((struct store_write_batch *)0)->savepoints / sizeof(struct store_savepoint))

/* Inserts the rows held before row `upto`, with this function's own statements let through. */
static int insert_rows(struct store *db, size_t upto)
{
    db->batch->statement_due = 1;
    int rc = store__message_rows_insert(db, upto);
    db->batch->statement_due = 0;
    return rc;
}

void store__before_statement(struct store *db)
{
    struct store_write_batch *b = db->batch;
    if (!b || b->statement_due || (!b->nsavepoints && !b->rows))
        return;
    size_t inserted = 0;
    for (int i = 0; i < b->nsavepoints; i++) {
        struct store_savepoint *s = &b->savepoints[i];
        if (s->opened)
            continue;
        /* the rows held before it go in first, outside it */
        if (s->rows > inserted) {
            insert_rows(db, s->rows - inserted);
            inserted = s->rows;
        }
        b->statement_due = 1;
        store__exec_later(db, SQL_SAVEPOINT);
        b->statement_due = 0;
        s->opened = 1;
    }
    if (store__message_rows_held(db))
        insert_rows(db, store__message_rows_held(db));
    for (int i = 0; i < b->nsavepoints; i++)
        b->savepoints[i].rows = 0; /* every row held before each is in */
}

void store__savepoint_open(struct store *db)
{
    struct store_write_batch *b = db->batch;
    if (b->nsavepoints < DEPTH) {
        b->savepoints[b->nsavepoints++] =
            (struct store_savepoint){.opened = 0, .rows = store__message_rows_held(db)};
        return;
    }
    /* Deeper than any job nests: opened at once, after the rows held before it. */
    store__before_statement(db);
    b->statement_due = 1;
    store__exec_later(db, SQL_SAVEPOINT);
    b->statement_due = 0;
    b->deeper++;
}

void store__savepoint_close(struct store *db, int keep)
{
    struct store_write_batch *b = db->batch;
    struct store_savepoint s = {.opened = 1, .rows = 0};
    if (b->deeper)
        b->deeper--;
    else if (b->nsavepoints)
        s = b->savepoints[--b->nsavepoints];
    else
        return;
    if (!keep)
        store__message_rows_forget(db, s.rows);
    if (!s.opened)
        return;
    b->statement_due = 1;
    if (!keep)
        store__exec(db, SQL_ROLLBACK_TO, NULL, 0);
    store__exec_later(db, SQL_RELEASE);
    b->statement_due = 0;
}

void store__savepoints_forget(struct store *db)
{
    db->batch->nsavepoints = db->batch->deeper = 0;
    store__message_rows_forget(db, 0);
}

int store__rows_flush(struct store *db)
{
    return insert_rows(db, store__message_rows_held(db));
}
