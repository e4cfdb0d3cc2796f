/*
 * Forwarded messages: the copy a forward keeps of the message it forwards (its text, embeds,
 * author and place), shown with the new message as `forwarded`. The files are the new message's
 * own attachment rows, naming the same blobs.
 */
#ifndef PRACA_STORE_FORWARDS_H
#define PRACA_STORE_FORWARDS_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"

struct store_new_forward {
    const char *source_id, *source_server_id, *source_channel_id, *source_thread_id;
    const char *author_id, *author_name, *content, *embeds_json;
    int64_t created_at;
    const char *view_json; /* the copy as the new message shows it (store__forward_row's shape) */
};
/* Inside the insert of message_id (its transaction). */
int store__forward_insert_at(struct store *db, const char *message_id,
                             const struct store_new_forward *f);

/* The `forwarded` object of a MESSAGE_SELECT-style row whose forward columns start at col (null
 * when the message forwards nothing): {messageId, serverId, channelId, threadId, fromId,
 * authorName, content, embeds, createdAt}. */
json_t *store__forward_row(struct store_stmt *st, int col);
/* The columns store__forward_row reads, for a select joined with forwards as f. */
#define STORE_FORWARD_COLS                                                                         \
    "f.source_id, f.source_server_id, f.source_channel_id, f.source_thread_id, f.author_id,"       \
    " f.author_name, f.content, f.embeds, f.created_at"

#endif
