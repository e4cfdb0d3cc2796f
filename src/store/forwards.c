/* Forwarded messages: see forwards.h. */
#include "store/forwards.h"

#include "store/rows.h"

int store__forward_insert_at(struct store *db, const char *message_id,
                             const struct store_new_forward *f)
{
    static const char *SQL =
        "INSERT INTO forwards (message_id, source_id, source_server_id, source_channel_id,"
        " source_thread_id, author_id, author_name, content, embeds, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(message_id), SV_STR(f->source_id),
                               SV_STR(f->source_server_id), SV_STR(f->source_channel_id),
                               SV_STR(f->source_thread_id), SV_STR(f->author_id),
                               SV_STR(f->author_name), SV_STR(f->content), SV_STR(f->embeds_json),
                               SV_INT(f->created_at)));
}

json_t *store__forward_row(struct store_stmt *st, int col)
{
    static const struct store_col COLS[] = {
        {"messageId", COL_TEXT}, {"serverId", COL_TEXT}, {"channelId", COL_TEXT},
        {"threadId", COL_TEXT},  {"fromId", COL_TEXT},   {"authorName", COL_TEXT},
        {"content", COL_TEXT},   {"embeds", COL_JSON},   {"createdAt", COL_TIME},
    };
    if (store__is_null(st, col))
        return json_null();
    return store__row_json(st, col, STORE_COLS(COLS));
}
