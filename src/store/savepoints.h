/*
 * The writer's savepoints, opened only when a statement needs one: a job that runs no statement
 * of its own (a send whose row waits, store/message_rows.h) costs the database no SAVEPOINT and
 * no RELEASE. Before each statement, store__query calls store__before_statement, which inserts
 * the rows held and opens the savepoints due, in the order the job asked for them, so a row
 * held inside a savepoint is inserted inside it.
 */
#ifndef PRACA_STORE_SAVEPOINTS_H
#define PRACA_STORE_SAVEPOINTS_H

struct store;

/* Asks for a savepoint around what follows (opened by the next statement, if any). */
void store__savepoint_open(struct store *db);
/* Ends the innermost one: kept (released) when keep, else rolled back, with the rows held
 * since it was asked for. */
void store__savepoint_close(struct store *db, int keep);
/* Before a statement on db: the rows held are inserted and the savepoints asked for opened. */
void store__before_statement(struct store *db);
/* After a transaction rolled back: no savepoint is open and no row held. */
void store__savepoints_forget(struct store *db);
/* Inserts every row held (before the commit): STORE_DONE or an error. */
int store__rows_flush(struct store *db);

#endif
