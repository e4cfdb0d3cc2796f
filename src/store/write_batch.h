/*
 * What the writer's open transaction holds back until a statement or the commit needs it:
 * new messages' rows (message_rows.h), events waiting for their positions (event_log.h) and
 * savepoints asked for but not yet opened (savepoints.h). Only the writer makes one, for its
 * own connection (store/writer.c), and only it commits or forgets what it holds; a connection
 * without one holds nothing back, so there each insert has happened when its call returns.
 */
#ifndef PRACA_STORE_WRITE_BATCH_H
#define PRACA_STORE_WRITE_BATCH_H
#include <stddef.h>

struct store;

struct store_write_batch {
    struct store_event_batch *events; /* event_log.c */
    struct store_row_batch *rows;     /* message_rows.c */
    /* Innermost last: whether each was opened yet, and how many rows were held when it was
     * asked for (savepoints.c). */
    struct store_savepoint {
        int opened;
        size_t rows;
    } savepoints[8];
    int nsavepoints;
    int deeper;        /* savepoints past those, each opened when asked for */
    int statement_due; /* inside store__before_statement: its own statements pass */
    int wrote;         /* the current job has written */
};

/* Gives db (the writer's connection) a batch of its own: STORE_DONE or STORE_ERR. */
int store__write_batch_new(struct store *db);
/* Inserts the rows held, gives the events their positions, then commits, the COMMIT going
 * with the last statement where the engine can: STORE_DONE or an error (nothing committed; the
 * caller rolls back and forgets). */
int store__write_batch_commit(struct store *db);
/* After a rollback: nothing held, no savepoint open. */
void store__write_batch_forget(struct store *db);
/* Frees db's batch (the connection closes). */
void store__write_batch_free(struct store *db);

#endif
