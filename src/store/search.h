/* Message search: the IDs of messages matching words and filters, newest first, among the
 * channels the caller may read now; SQLite's FTS5 index or PostgreSQL's full-text search. */
#ifndef PRACA_STORE_SEARCH_H
#define PRACA_STORE_SEARCH_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

struct store_search {
    const char *channels_json; /* a JSON array of the channel (and thread) IDs to look in */
    const char *text;          /* words and "phrases" as typed; "" for none */
    const char *author_id, *mentions_id; /* NULL: any */
    int has_link, has_embed, has_file;
    int64_t after_ms, before_ms; /* 0: none */
    const char *before_id;       /* paging: older than this message; NULL: the newest */
    int64_t limit;
    /* Without words: the messages examined in one call, at most (over all the channels, each
     * at least SEARCH_SCAN_PER_CHANNEL_MIN), newest first below before_id. */
    int64_t scan_rows;
};
#define SEARCH_SCAN_PER_CHANNEL_MIN 10

/* [message ID], at most limit, newest first. *next is where the next call goes on (the ID to
 * pass as before_id), "" when nothing older can match: the last ID given when more matched, or,
 * without words, the oldest message examined when the scan stopped at scan_rows. NULL on
 * error. */
json_t *store_search_ids(struct store *db, const struct store_search *q, char next[UUID_LEN + 1]);

/* SQLite: indexes up to `limit` messages sent since the index last caught up, on the writer's
 * connection inside its transaction (sends write nothing to the index: this is how it follows
 * them). How many were indexed, or < 0 on an error; 0 on PostgreSQL, whose index follows the
 * table by itself. */
int store_search_catch_up_at(struct store *db, long limit);
/* Whether db's index follows the messages through store_search_catch_up (SQLite). */
int store_search_indexed_by_writer(const struct store *db);
/* The same as a write of its own, so a search finds what was sent just before it. */
int store_search_catch_up(struct store_writer *w);
#define STORE_SEARCH_BATCH 5000 /* messages indexed per catch-up at most */

/* The channel of the server named so (case aside), or whose ID it is: 1 found, 0 not, < 0 error. */
int store_channel_named(struct store *db, const char *server_id, const char *name,
                        char out[UUID_LEN + 1]);

#endif
