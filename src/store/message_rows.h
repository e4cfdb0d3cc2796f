/*
 * New messages' rows held back until the next statement or the commit (engines that set
 * rows_at_commit: PostgreSQL), then inserted by one statement: a send is otherwise one round
 * trip of its own to the database, while its row is read by nobody before the commit. Any
 * statement on the connection inserts the rows held before it runs (store/savepoints.c), so
 * every read and every later write sees them as if inserted at once.
 */
#ifndef PRACA_STORE_MESSAGE_ROWS_H
#define PRACA_STORE_MESSAGE_ROWS_H
#include <stddef.h>

#include "store/messages.h"

/* 1 when m's row may wait: the engine holds rows back, and the row stands alone (no nonce to
 * enforce now, no attachment, poll or forward rows that refer to it). */
int store__message_row_may_wait(const struct store *db, const struct store_new_message *m);
/* STORE_DONE with m's row held, or STORE_ERR (out of memory). */
int store__message_row_hold(struct store *db, const struct store_new_message *m);
size_t store__message_rows_held(const struct store *db);
/* Forgets the rows held after the first keep (a savepoint rolled back). */
void store__message_rows_forget(struct store *db, size_t keep);
/* Inserts the first n rows held (all of them when n is more) and forgets them; on PostgreSQL
 * the insert goes with the next statement (store__exec_later_args), whose outcome is its own.
 * A row whose channel was deleted meanwhile (by another node) is left out, as if that delete
 * had removed it with the channel's other messages (logged where the insert runs at once).
 * STORE_DONE or an error. */
int store__message_rows_insert(struct store *db, size_t n);

/* Frees what was held (the connection closes). */
void store__message_rows_free(struct store *db);

#endif
