/* How far people have read: one mark per person and channel (a server channel, a thread or a
 * DM), the newest message seen there; unread is a newer message by someone else. */
#ifndef PRACA_STORE_READ_STATES_H
#define PRACA_STORE_READ_STATES_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

/* Moves uid's mark in cid forward to message mid (never back). STORE_DONE or an error. */
int store_read_mark(struct store_writer *w, const char *uid, const char *cid, const char *mid,
                    int64_t now);
/* The text channels and threads of server sid with a message by someone else after uid's mark
 * (or any, without one): [{id, parentId, lastMessageId, lastReadId}] (lastReadId: uid's mark or
 * null), visibility unchecked; NULL on error. */
json_t *store_unread_in_server(struct store *db, const char *sid, const char *uid);
/* The same for uid's DMs: [{id, lastMessageId, lastReadId}]. */
json_t *store_unread_dms(struct store *db, const char *uid);

#endif
