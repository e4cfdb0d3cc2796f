/* Message search: see search.h. The filters are the same SQL for both engines (times cast to
 * BIGINT: PostgreSQL would read "$8 = 0" as a 32-bit integer); the words are
 * FTS5's MATCH on SQLite and to_tsvector @@ websearch_to_tsquery ('portuguese') on PostgreSQL. */
#include "store/search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/search_rules.h"
#include "store/rows.h"

#define FILTERS_COMMON                                                                             \
    " AND ($3 = '' OR m.author_id = $3)"                                                           \
    " AND ($4 = '' OR m.mentions LIKE '%\"' || $4 || '\"%')"                                       \
    " AND ($5 = 0 OR m.content LIKE '%http://%' OR m.content LIKE '%https://%')"                   \
    " AND ($6 = 0 OR (m.embeds IS NOT NULL AND m.embeds <> '[]'))"                                 \
    " AND ($7 = 0 OR (m.attachments IS NOT NULL AND m.attachments <> '[]'))"                       \
    " AND (CAST($8 AS BIGINT) = 0 OR m.created_at >= CAST($8 AS BIGINT))"                          \
    " AND (CAST($9 AS BIGINT) = 0 OR m.created_at < CAST($9 AS BIGINT))"
/* With words the index says which messages; without, the window's bounds must be plain ranges
 * on messages_by_channel (an "x = '' OR" around them would read the channel from its newest). */
#define FILTERS       FILTERS_COMMON " AND ($10 = '' OR m.id < $10) AND ($12 = '' OR m.id >= $12)"
#define WINDOW        " AND $10 = ''" FILTERS_COMMON " AND m.id >= $12 ORDER BY m.id DESC LIMIT $11"
#define WINDOW_BEFORE FILTERS_COMMON " AND m.id < $10 AND m.id >= $12 ORDER BY m.id DESC LIMIT $11"

/* Without words, each call looks at a window of the channels' newest messages below before_id:
 * per channel, at most per_channel of them (an index range of messages_by_channel), so its cost
 * never grows with the history. The window's floor is the highest of the per_channel-th newest
 * message of the channels that have that many: below it some channel was not looked at, so the
 * next call starts there. "" when every channel was looked at to its start. */
static int scan_floor(struct store *db, const struct store_search *q, char floor[UUID_LEN + 1])
{
    static const char *SQL = "SELECT id FROM messages WHERE channel_id = $1"
                             " AND ($2 = '' OR id < $2) ORDER BY id DESC LIMIT 1 OFFSET $3";
    floor[0] = '\0';
    json_t *channels = json_loads(q->channels_json, 0, NULL);
    size_t n = json_array_size(channels);
    if (!n) {
        json_decref(channels);
        return channels ? 0 : STORE_ERR;
    }
    int64_t per_channel = q->scan_rows / (int64_t)n;
    if (per_channel < SEARCH_SCAN_PER_CHANNEL_MIN)
        per_channel = SEARCH_SCAN_PER_CHANNEL_MIN;
    int rc = 0;
    for (size_t i = 0; i < n && rc >= 0; i++) {
        struct store_stmt *st = store__query(
            db, SQL,
            SV_ARGS(SV_STR(json_string_value(json_array_get(channels, i))),
                    SV_STR(q->before_id ? q->before_id : ""), SV_INT(per_channel - 1)));
        int step = st ? store__step(st) : STORE_ERR;
        char id[UUID_LEN + 1] = "";
        if (step == STORE_ROW)
            store__text_copy(st, 0, id, sizeof id);
        store__finish(st);
        if (step != STORE_ROW && step != STORE_DONE)
            rc = STORE_ERR;
        else if (id[0] && strcmp(id, floor) > 0)
            memcpy(floor, id, sizeof id);
    }
    json_decref(channels);
    return rc;
}

json_t *store_search_ids(struct store *db, const struct store_search *q, char next[UUID_LEN + 1])
{
    /* With words, SQLite walks the FTS5 index newest first (its rowids follow the messages'
     * order) and stops at the page: a rare word costs its few matches, not the table. */
    static const char *SQLITE_WORDS =
        "SELECT m.id FROM message_search s JOIN messages m ON m.rowid = s.rowid"
        " WHERE message_search MATCH $2 AND $2 <> ''"
        " AND m.channel_id IN (SELECT value FROM json_each($1))" FILTERS
        " ORDER BY s.rowid DESC LIMIT $11";
#define SQLITE_WINDOW                                                                              \
    "SELECT m.id FROM messages m WHERE m.channel_id IN (SELECT value FROM json_each($1))"          \
    " AND $2 = ''"
    static const char *SQLITE = SQLITE_WINDOW WINDOW;
    static const char *SQLITE_BEFORE = SQLITE_WINDOW WINDOW_BEFORE;
    /* With words, PostgreSQL first takes every match through the GIN index, then the newest:
     * left to itself it would walk the messages newest first and compute each one's tsvector,
     * seconds for a rare word in a large server. */
    static const char *POSTGRES_WORDS =
        "WITH hits AS MATERIALIZED (SELECT m.id FROM messages m"
        " WHERE to_tsvector('portuguese', m.content) @@ websearch_to_tsquery('portuguese', $2)"
        " AND m.channel_id IN (SELECT json_array_elements_text($1::json))" FILTERS ")"
        " SELECT id FROM hits ORDER BY id DESC LIMIT $11";
#define POSTGRES_WINDOW                                                                            \
    "SELECT m.id FROM messages m WHERE m.channel_id IN"                                            \
    " (SELECT json_array_elements_text($1::json)) AND $2 = ''"
    static const char *POSTGRES = POSTGRES_WINDOW WINDOW;
    static const char *POSTGRES_BEFORE = POSTGRES_WINDOW WINDOW_BEFORE;
    static const struct store_col COLS[] = {{"id", COL_TEXT}};
    int pg = !strcmp(store__engine_name(db), "postgres");
    char floor[UUID_LEN + 1] = "";
    if (!q->text[0] && scan_floor(db, q, floor) < 0)
        return NULL;
    size_t cap = 2 * strlen(q->text) + 3;
    char *words = malloc(cap);
    if (!words)
        return NULL;
    if (pg)
        memcpy(words, q->text, strlen(q->text) + 1);
    else
        rule_search_fts5(q->text, words, cap);
    json_t *rows = store__list_json(
        db,
        pg             ? (words[0]       ? POSTGRES_WORDS
                          : q->before_id ? POSTGRES_BEFORE
                                         : POSTGRES)
        : words[0]     ? SQLITE_WORDS
        : q->before_id ? SQLITE_BEFORE
                       : SQLITE,
        SV_ARGS(SV_STR(q->channels_json), SV_STR(words), SV_STR(q->author_id ? q->author_id : ""),
                SV_STR(q->mentions_id ? q->mentions_id : ""), SV_INT(q->has_link),
                SV_INT(q->has_embed), SV_INT(q->has_file), SV_INT(q->after_ms),
                SV_INT(q->before_ms), SV_STR(q->before_id ? q->before_id : ""),
                SV_INT(q->limit + 1), SV_STR(floor)),
        STORE_COLS(COLS));
    free(words);
    if (!rows)
        return NULL;
    json_t *ids = json_array();
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        if ((int64_t)i < q->limit)
            json_array_append(ids, json_object_get(r, "id"));
    }
    next[0] = '\0';
    if ((int64_t)json_array_size(rows) > q->limit)
        snprintf(next, UUID_LEN + 1, "%s",
                 json_string_value(json_array_get(ids, json_array_size(ids) - 1)));
    else if (floor[0])
        memcpy(next, floor, UUID_LEN + 1);
    json_decref(rows);
    return ids;
}

int store_search_indexed_by_writer(const struct store *db)
{
    return !strcmp(store__engine_name(db), "sqlite");
}

int store_search_catch_up_at(struct store *db, long limit)
{
    static const char *SQL_MARK = "SELECT indexed_rowid FROM message_search_state WHERE id = 1";
    static const char *SQL_UPTO = "SELECT COALESCE(MAX(r), $1) FROM (SELECT rowid AS r FROM"
                                  " messages WHERE rowid > $1 ORDER BY rowid LIMIT $2)";
    static const char *SQL_INDEX = "INSERT INTO message_search(rowid, content) SELECT rowid,"
                                   " content FROM messages WHERE rowid > $1 AND rowid <= $2";
    static const char *SQL_MOVE = "UPDATE message_search_state SET indexed_rowid = $1 WHERE id = 1";
    if (!store_search_indexed_by_writer(db))
        return 0;
    int64_t from = 0, upto = 0;
    struct store_stmt *st = store__query(db, SQL_MARK, NULL, 0);
    int rc = st ? store__step(st) : STORE_ERR;
    if (rc == STORE_ROW)
        from = store__int(st, 0);
    store__finish(st);
    if (rc != STORE_ROW)
        return STORE_ERR;
    st = store__query(db, SQL_UPTO, SV_ARGS(SV_INT(from), SV_INT(limit)));
    rc = st ? store__step(st) : STORE_ERR;
    if (rc == STORE_ROW)
        upto = store__int(st, 0);
    store__finish(st);
    if (rc != STORE_ROW)
        return STORE_ERR;
    if (upto <= from)
        return 0;
    if ((rc = store__exec(db, SQL_INDEX, SV_ARGS(SV_INT(from), SV_INT(upto)))) != STORE_DONE)
        return rc;
    long indexed = (long)store__changes(db);
    rc = store__exec(db, SQL_MOVE, SV_ARGS(SV_INT(upto)));
    return rc == STORE_DONE ? (int)indexed : rc;
}

static int catch_up_job(struct store *db, void *arg)
{
    (void)arg;
    return store_search_catch_up_at(db, STORE_SEARCH_BATCH);
}

int store_search_catch_up(struct store_writer *w)
{
    return store_write(w, catch_up_job, NULL);
}

int store_channel_named(struct store *db, const char *server_id, const char *name,
                        char out[UUID_LEN + 1])
{
    static const char *SQL = "SELECT id FROM channels WHERE server_id = $1"
                             " AND (lower(name) = lower($2) OR id = $2) LIMIT 1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(server_id), SV_STR(name)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        store__text_copy(st, 0, out, UUID_LEN + 1);
    store__finish(st);
    return store_found(rc);
}
