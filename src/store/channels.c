/* Channels, their permission overwrites, and direct-message channels. */
#include <string.h>

#include "core/buf.h"
#include "store/avatars.h"
#include "store/rows.h"
#include "store/writer.h"
#include "store/channels.h"
#include "store/dm_groups.h"

static const struct store_col CHANNEL_COLS[] = {
    {"id", COL_TEXT},   {"serverId", COL_TEXT}, {"parentId", COL_TEXT}, {"type", COL_TEXT},
    {"name", COL_TEXT}, {"topic", COL_TEXT},    {"position", COL_INT},  {"createdAt", COL_TIME},
};
/* A thread is a channel that also names the message it began from (none for a forum post). */
static const struct store_col THREAD_COLS[] = {
    {"id", COL_TEXT},      {"serverId", COL_TEXT},  {"parentId", COL_TEXT},
    {"type", COL_TEXT},    {"name", COL_TEXT},      {"topic", COL_TEXT},
    {"position", COL_INT}, {"createdAt", COL_TIME}, {"originMessageId", COL_TEXT},
};
static const struct store_col OVERWRITE_COLS[] = {
    {"targetId", COL_TEXT}, {"type", COL_TEXT}, {"allow", COL_INT}, {"deny", COL_INT}};
#define CHANNEL_SELECT                                                                             \
    "SELECT id, server_id, parent_id, type, name, topic, position, created_at FROM channels"

static const char *SQL_OVERWRITES_OF = "SELECT target_id, type, allow, deny FROM overwrites"
                                       " WHERE channel_id = $1 ORDER BY target_id";

static int attach_overwrites(struct store *db, json_t *channel)
{
    const char *cid = json_string_value(json_object_get(channel, "id"));
    json_t *ow =
        store__list_json(db, SQL_OVERWRITES_OF, SV_ARGS(SV_STR(cid)), STORE_COLS(OVERWRITE_COLS));
    if (!ow)
        return STORE_ERR;
    json_object_set_new(channel, "overwrites", ow);
    return STORE_DONE;
}

json_t *store_channels_json(struct store *db, const char *sid)
{
    static const char *SQL = CHANNEL_SELECT " WHERE server_id = $1 AND parent_id IS NULL"
                                            " ORDER BY position, id";
    json_t *list = store__list_json(db, SQL, SV_ARGS(SV_STR(sid)), STORE_COLS(CHANNEL_COLS));
    size_t i;
    json_t *ch;
    json_array_foreach(list, i, ch)
    {
        if (attach_overwrites(db, ch) != STORE_DONE) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

json_t *store_threads_json(struct store *db, const char *cid, int64_t limit)
{
    static const char *SQL =
        "SELECT id, server_id, parent_id, type, name, topic, position, created_at,"
        " origin_message_id FROM channels WHERE parent_id = $1"
        " ORDER BY created_at DESC, id DESC LIMIT $2";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(cid), SV_INT(limit)), STORE_COLS(THREAD_COLS));
}

json_t *store_channel_json(struct store *db, const char *cid, int *rc)
{
    static const char *SQL = CHANNEL_SELECT " WHERE id = $1";
    json_t *ch = store__get_json(db, SQL, SV_ARGS(SV_STR(cid)), STORE_COLS(CHANNEL_COLS), rc);
    if (ch && attach_overwrites(db, ch) != STORE_DONE) {
        json_decref(ch);
        *rc = STORE_ERR;
        return NULL;
    }
    return ch;
}

static int channel_create_at(struct store *db, struct store_new_channel *c)
{
    static const char *SQL =
        "INSERT INTO channels (id, server_id, type, name, topic, position, created_at)"
        " VALUES ($1, $2, $3, $4, $5,"
        " (SELECT COALESCE(MAX(position), -1) + 1 FROM channels WHERE server_id = $2), $6)";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(c->id), SV_STR(c->server_id), SV_STR(c->type),
                               SV_STR(c->name), SV_STR(c->topic), SV_INT(c->now)));
}

STORE_WRITE_AS(store_channel_create, struct store_new_channel, channel_create_at)

int store_channel_update(struct store_writer *w, const char *cid, const char *name, int set_topic,
                         const char *topic, int64_t position)
{
    static const char *SQL = "UPDATE channels SET name = COALESCE($2, name),"
                             " topic = CASE WHEN $3 = 1 THEN $4 ELSE topic END,"
                             " position = CASE WHEN $5 >= 0 THEN $5 ELSE position END"
                             " WHERE id = $1";
    return store__write_exec(
        w, SQL,
        SV_ARGS(SV_STR(cid), SV_STR(name), SV_INT(set_topic), SV_STR(topic), SV_INT(position)),
        NULL);
}

int store_channel_delete(struct store_writer *w, const char *cid)
{
    /* A forum of thousands of posts, or a channel of a million messages, goes in chunks: the
     * messages of the channel and of its threads and posts, then those, then the channel. */
    static const char *SQL_MESSAGES =
        "DELETE FROM messages WHERE id IN (SELECT m.id FROM channels c JOIN messages m"
        " ON m.channel_id = c.id WHERE c.id = $1 OR c.parent_id = $1 LIMIT 1000)";
    static const char *SQL_CHILDREN =
        "DELETE FROM channels WHERE id IN (SELECT id FROM channels WHERE parent_id = $1 LIMIT 200)";
    static const char *SQL = "DELETE FROM channels WHERE id = $1";
    int rc;
    if ((rc = store__write_delete_chunks(w, SQL_MESSAGES, cid)) < 0 ||
        (rc = store__write_delete_chunks(w, SQL_CHILDREN, cid)) < 0)
        return rc;
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(cid)), NULL);
}

int store_overwrite_put(struct store_writer *w, const char *cid, const char *target,
                        const char *type, int64_t allow, int64_t deny)
{
    static const char *SQL =
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny) VALUES ($1, $2, $3, $4, "
        "$5)"
        " ON CONFLICT (channel_id, target_id) DO UPDATE SET type = excluded.type,"
        " allow = excluded.allow, deny = excluded.deny";
    return store__write_exec(
        w, SQL, SV_ARGS(SV_STR(cid), SV_STR(target), SV_STR(type), SV_INT(allow), SV_INT(deny)),
        NULL);
}

int store_overwrite_delete(struct store_writer *w, const char *cid, const char *target,
                           int64_t *changes)
{
    static const char *SQL = "DELETE FROM overwrites WHERE channel_id = $1 AND target_id = $2";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(cid), SV_STR(target)), changes);
}

json_t *store_dm_json(struct store *db, const char *cid, int *rc)
{
    static const char *SQL_RECIPIENTS =
        "SELECT user_id FROM dm_members WHERE channel_id = $1 ORDER BY joined_at, user_id";
    json_t *ch = store_channel_json(db, cid, rc);
    if (!ch)
        return NULL;
    json_t *ids = store__ids_json(db, SQL_RECIPIENTS, SV_ARGS(SV_STR(cid)));
    if (!ids) {
        json_decref(ch);
        *rc = STORE_ERR;
        return NULL;
    }
    json_object_del(ch, "overwrites");
    json_object_set_new(ch, "recipientIds", ids);
    char owner[40];
    int group = store_dm_group_of(db, cid, owner);
    if (group < 0) {
        json_decref(ch);
        *rc = group;
        return NULL;
    }
    if (group)
        json_object_set_new(ch, "ownerId", owner[0] ? json_string(owner) : json_null());
    return ch;
}

static int dm_open_at(struct store *db, struct store_dm_open *dm)
{
    static const char *SQL_FIND = "SELECT id FROM channels WHERE dm_key = $1";
    static const char *SQL_CHANNEL =
        "INSERT INTO channels (id, type, name, dm_key, created_at) VALUES ($1, 'dm', '', $2, $3)";
    static const char *SQL_MEMBER = "INSERT INTO dm_members (channel_id, user_id) VALUES ($1, $2)";
    const char *lo = strcmp(dm->a, dm->b) < 0 ? dm->a : dm->b;
    const char *hi = lo == dm->a ? dm->b : dm->a;
    char key[96];
    size_t ll = strlen(lo), hl = strlen(hi);
    if (ll + hl + 2 > sizeof key)
        return STORE_ERR;
    memcpy(key, lo, ll);
    key[ll] = ':';
    memcpy(key + ll + 1, hi, hl + 1);
    struct store_stmt *st = store__query(db, SQL_FIND, SV_ARGS(SV_STR(key)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        store__text_copy(st, 0, dm->channel_id, sizeof dm->channel_id);
    store__finish(st);
    if (rc != STORE_DONE)
        return rc == STORE_ROW ? STORE_DONE : rc;
    /* A new conversation needs a server the two share: nobody is written to by strangers. */
    rc = store_people_share_server(db, dm->a, dm->b);
    if (rc <= 0)
        return rc < 0 ? rc : STORE_REFUSED;
    rc = store__exec(db, SQL_CHANNEL, SV_ARGS(SV_STR(dm->id), SV_STR(key), SV_INT(dm->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_MEMBER, SV_ARGS(SV_STR(dm->id), SV_STR(dm->a)));
    if (rc == STORE_DONE && strcmp(dm->a, dm->b) != 0)
        rc = store__exec(db, SQL_MEMBER, SV_ARGS(SV_STR(dm->id), SV_STR(dm->b)));
    if (rc == STORE_DONE)
        slice_copy(slice_from(dm->id), dm->channel_id, sizeof dm->channel_id);
    return rc;
}

STORE_WRITE_AS(store_dm_open, struct store_dm_open, dm_open_at)

int store_people_acquainted(struct store *db, const char *a, const char *b)
{
    static const char *SQL_DM =
        "SELECT 1 FROM dm_members x JOIN dm_members y ON y.channel_id = x.channel_id"
        " AND y.user_id = $2 WHERE x.user_id = $1 LIMIT 1";
    static const char *SQL_GONE = "SELECT 1 FROM users WHERE id = $1 AND deleted_at IS NOT NULL";
    if (!strcmp(a, b))
        return 1;
    int rc = store_people_share_server(db, a, b);
    rc = rc ? rc : store__exists(db, SQL_DM, SV_ARGS(SV_STR(a), SV_STR(b)));
    return rc ? rc : store__exists(db, SQL_GONE, SV_ARGS(SV_STR(b)));
}

#define DM_AVATAR STORE_AVATAR_URL_SQL("u")

json_t *store_dm_list_json(struct store *db, const char *uid)
{
    /* Each DM's newest message through messages_by_channel; a DM without one sorts by when it
     * was opened. A pair's row names the other person; a group's, its name and owner. */
#define DM_LAST                                                                                    \
    " (SELECT m.id FROM messages m WHERE m.channel_id = c.id ORDER BY m.id DESC LIMIT 1) AS "      \
    "last_id,"                                                                                     \
    " (SELECT m.created_at FROM messages m WHERE m.channel_id = c.id ORDER BY m.id DESC LIMIT 1)"  \
    " AS last_at"
    static const char *SQL =
        "SELECT id, is_group, name, owner_id, user_id, username, display_name, avatar_url, deleted,"
        " last_id, last_at FROM ("
        " SELECT c.id, 0 AS is_group, NULL AS name, NULL AS owner_id, u.id AS user_id, u.username,"
        " u.display_name, c.created_at, " DM_AVATAR " AS avatar_url,"
        " CASE WHEN u.deleted_at IS NULL THEN 0 ELSE 1 END AS deleted," DM_LAST
        " FROM dm_members me JOIN channels c ON c.id = me.channel_id AND c.dm_key IS NOT NULL"
        " JOIN dm_members other ON other.channel_id = c.id AND other.user_id <> me.user_id"
        " JOIN users u ON u.id = other.user_id WHERE me.user_id = $1"
        " UNION ALL"
        " SELECT c.id, 1, c.name, c.owner_id, NULL, NULL, NULL, c.created_at, NULL, 0," DM_LAST
        " FROM dm_members me JOIN channels c ON c.id = me.channel_id AND c.dm_key IS NULL"
        " WHERE me.user_id = $1) AS dms"
        " ORDER BY COALESCE(last_at, created_at) DESC, id DESC LIMIT $2";
#undef DM_LAST
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},
        {"group", COL_BOOL},
        {"name", COL_TEXT},
        {"ownerId", COL_TEXT},
        {"userId", COL_TEXT},
        {"username", COL_TEXT},
        {"displayName", COL_TEXT},
        {"avatarUrl", COL_TEXT},
        {"deleted", COL_BOOL},
        {"lastMessageId", COL_TEXT},
        {"lastMessageAt", COL_TIME},
    };
    json_t *list =
        store__list_json(db, SQL, SV_ARGS(SV_STR(uid), SV_INT(STORE_DMS_MAX)), STORE_COLS(COLS));
    size_t i;
    json_t *dm;
    json_array_foreach(list, i, dm)
    {
        if (json_is_true(json_object_get(dm, "group")) && store__dm_group_people(db, dm, uid)) {
            json_decref(list);
            return NULL;
        }
        if (!json_is_true(json_object_get(dm, "group"))) {
            json_object_del(dm, "name");
            json_object_del(dm, "ownerId");
        }
    }
    return list;
}

struct idset *store_dm_people(struct store *db, const char *cid)
{
    static const char *SQL = "SELECT user_id FROM dm_members WHERE channel_id = $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(cid)));
    struct idset *to = st ? idset_new(STORE_DM_GROUP_MAX) : NULL;
    int rc = STORE_ERR;
    while (to && (rc = store__step(st)) == STORE_ROW)
        if (idset_add(to, store__text(st, 0))) {
            rc = STORE_ERR;
            break;
        }
    if (to && rc != STORE_DONE) {
        idset_unref(to);
        to = NULL;
    }
    if (st)
        store__finish(st);
    return to;
}

int store_dm_member(struct store *db, const char *cid, const char *uid)
{
    static const char *SQL = "SELECT 1 FROM dm_members WHERE channel_id = $1 AND user_id = $2";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(cid), SV_STR(uid)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    store__finish(st);
    return store_found(rc);
}
