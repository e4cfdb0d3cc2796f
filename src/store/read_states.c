/* Read marks: see read_states.h. Each channel's newest message by someone else comes from
 * messages_by_channel, walked from the newest down past the person's own. */
#include "store/read_states.h"

#include "store/rows.h"

/* Over a table c of channel IDs (cid), for person $2. */
#define LAST_BY_OTHERS                                                                             \
    "(SELECT m.id FROM messages m WHERE m.channel_id = c.cid AND m.author_id <> $2"                \
    " ORDER BY m.id DESC LIMIT 1)"
#define READ_MARK                                                                                  \
    "(SELECT r.last_read_id FROM read_states r WHERE r.user_id = $2 AND r.channel_id = c.cid)"
/* How many of the newest MENTIONS_SCANNED messages after the mark (by others) mention $2: by
 * name, @everyone or @here, or a role $2 holds in that server. Bounded whatever the backlog: a
 * page shows "99+" past what it was told. */
#define MENTIONS_SCANNED "200"
#define MENTIONS_OF_ME                                                                             \
    "(SELECT count(*) FROM (SELECT m.mentions, m.mentions_everyone, m.mentioned_role_ids,"         \
    " m.server_id FROM messages m WHERE m.channel_id = t.cid AND m.author_id <> $2"                \
    " AND (t.read_id IS NULL OR m.id > t.read_id) ORDER BY m.id DESC LIMIT " MENTIONS_SCANNED      \
    ") AS n WHERE n.mentions_everyone <> 0 OR n.mentions LIKE '%\"' || $2 || '\"%'"                \
    " OR (n.mentioned_role_ids <> '[]' AND EXISTS (SELECT 1 FROM member_roles mr"                  \
    " WHERE mr.server_id = n.server_id AND mr.user_id = $2"                                        \
    " AND n.mentioned_role_ids LIKE '%\"' || mr.role_id || '\"%')))"
/* In a DM every message is for $2, as Discord counts them. */
#define UNREAD_COUNT                                                                               \
    "(SELECT count(*) FROM (SELECT 1 AS x FROM messages m WHERE m.channel_id = t.cid"              \
    " AND m.author_id <> $2 AND (t.read_id IS NULL OR m.id > t.read_id)"                           \
    " ORDER BY m.id DESC LIMIT " MENTIONS_SCANNED ") AS n)"
#define UNREAD_OF(channels, mentions)                                                              \
    "SELECT t.*, " mentions " AS mention_count FROM (SELECT c.*, " LAST_BY_OTHERS                  \
    " AS last_id, " READ_MARK " AS read_id FROM (" channels ") AS c) AS t"                         \
    " WHERE last_id IS NOT NULL AND (read_id IS NULL OR last_id > read_id)"

int store_read_mark(struct store_writer *w, const char *uid, const char *cid, const char *mid,
                    int64_t now)
{
    static const char *SQL =
        "INSERT INTO read_states (user_id, channel_id, last_read_id, updated_at)"
        " VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, channel_id) DO UPDATE"
        " SET last_read_id = excluded.last_read_id, updated_at = excluded.updated_at"
        " WHERE read_states.last_read_id < excluded.last_read_id";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(uid), SV_STR(cid), SV_STR(mid), SV_INT(now)),
                             NULL);
}

json_t *store_unread_in_server(struct store *db, const char *sid, const char *uid)
{
    static const char *SQL = UNREAD_OF("SELECT id AS cid, parent_id FROM channels"
                                       " WHERE server_id = $1 AND type IN ('text', 'thread')",
                                       MENTIONS_OF_ME);
    static const struct store_col COLS[] = {{"id", COL_TEXT},
                                            {"parentId", COL_TEXT},
                                            {"lastMessageId", COL_TEXT},
                                            {"lastReadId", COL_TEXT},
                                            {"mentionCount", COL_INT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid)), STORE_COLS(COLS));
}

json_t *store_unread_dms(struct store *db, const char *uid)
{
    static const char *SQL =
        UNREAD_OF("SELECT channel_id AS cid FROM dm_members WHERE user_id = $1", /* $1 = $2 */
                  UNREAD_COUNT);
    static const struct store_col COLS[] = {{"id", COL_TEXT},
                                            {"lastMessageId", COL_TEXT},
                                            {"lastReadId", COL_TEXT},
                                            {"mentionCount", COL_INT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(uid), SV_STR(uid)), STORE_COLS(COLS));
}
