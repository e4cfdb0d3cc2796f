/* Channels, their permission overwrites, and direct-message channels. */
#include <string.h>

#include "core/buf.h"
#include "store/avatars.h"
#include "store/rows.h"
#include "store/writer.h"
#include "store/channels.h"
#include "store/dm_groups.h"

/* A channel's parentId is its category (a thread's, its channel); a category is listed with the
 * channels as one of type "category". */
static const struct store_col CHANNEL_COLS[] = {
    {"id", COL_TEXT},      {"serverId", COL_TEXT},  {"parentId", COL_TEXT},
    {"type", COL_TEXT},    {"name", COL_TEXT},      {"topic", COL_TEXT},
    {"position", COL_INT}, {"createdAt", COL_TIME}, {"permissionsSynced", COL_BOOL},
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
    "SELECT id, server_id, COALESCE(parent_id, category_id), type, name, topic, position,"         \
    " created_at, synced FROM channels"
#define CATEGORY_SELECT                                                                            \
    "SELECT id, server_id, NULL, 'category', name, NULL, position, created_at, 0 FROM categories"

static const char *SQL_OVERWRITES_OF = "SELECT target_id, type, allow, deny FROM overwrites"
                                       " WHERE channel_id = $1 ORDER BY target_id";
static const char *SQL_CATEGORY_OVERWRITES_OF =
    "SELECT target_id, type, allow, deny FROM category_overwrites"
    " WHERE category_id = $1 ORDER BY target_id";

static int attach_overwrites(struct store *db, json_t *channel)
{
    const char *cid = json_string_value(json_object_get(channel, "id"));
    const char *type = json_string_value(json_object_get(channel, "type"));
    json_t *ow = store__list_json(
        db, type && !strcmp(type, "category") ? SQL_CATEGORY_OVERWRITES_OF : SQL_OVERWRITES_OF,
        SV_ARGS(SV_STR(cid)), STORE_COLS(OVERWRITE_COLS));
    if (!ow)
        return STORE_ERR;
    json_object_set_new(channel, "overwrites", ow);
    return STORE_DONE;
}

json_t *store_channels_json(struct store *db, const char *sid)
{
    static const char *SQL = CHANNEL_SELECT " WHERE server_id = $1 AND parent_id IS NULL"
                                            " UNION ALL " CATEGORY_SELECT " WHERE server_id = $1"
                                            " ORDER BY 7, 1";
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
    static const char *SQL =
        CHANNEL_SELECT " WHERE id = $1 UNION ALL " CATEGORY_SELECT " WHERE id = $1";
    json_t *ch = store__get_json(db, SQL, SV_ARGS(SV_STR(cid)), STORE_COLS(CHANNEL_COLS), rc);
    if (ch && attach_overwrites(db, ch) != STORE_DONE) {
        json_decref(ch);
        *rc = STORE_ERR;
        return NULL;
    }
    return ch;
}

/* Channel cid (or every synced channel of category cat, cid NULL) takes its category's
 * overwrites, in place of its own. */
static int copy_category_overwrites(struct store *db, const char *cid, const char *cat)
{
    static const char *SQL_DROP = "DELETE FROM overwrites WHERE channel_id IN (SELECT id FROM"
                                  " channels WHERE category_id = $2 AND synced = 1"
                                  " AND ($1 = '' OR id = $1))";
    static const char *SQL_COPY =
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny)"
        " SELECT c.id, o.target_id, o.type, o.allow, o.deny FROM channels c"
        " JOIN category_overwrites o ON o.category_id = c.category_id"
        " WHERE c.category_id = $2 AND c.synced = 1 AND ($1 = '' OR c.id = $1)";
    const char *one = cid ? cid : "";
    int rc = store__exec(db, SQL_DROP, SV_ARGS(SV_STR(one), SV_STR(cat)));
    return rc == STORE_DONE ? store__exec(db, SQL_COPY, SV_ARGS(SV_STR(one), SV_STR(cat))) : rc;
}

static int channel_create_at(struct store *db, struct store_new_channel *c)
{
    static const char *SQL =
        "INSERT INTO channels (id, server_id, type, name, topic, position, created_at,"
        " category_id, synced) VALUES ($1, $2, $3, $4, $5,"
        " (SELECT COALESCE(MAX(position), -1) + 1 FROM channels WHERE server_id = $2), $6, $7,"
        " $8)";
    static const char *SQL_CATEGORY =
        "INSERT INTO categories (id, server_id, name, position, created_at) VALUES ($1, $2, $3,"
        " (SELECT COALESCE(MAX(position), -1) + 1 FROM categories WHERE server_id = $2), $4)";
    if (!strcmp(c->type, "category"))
        return store__exec(
            db, SQL_CATEGORY,
            SV_ARGS(SV_STR(c->id), SV_STR(c->server_id), SV_STR(c->name), SV_INT(c->now)));
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(c->id), SV_STR(c->server_id), SV_STR(c->type),
                                 SV_STR(c->name), SV_STR(c->topic), SV_INT(c->now),
                                 SV_STR(c->category_id), SV_INT(c->category_id != NULL)));
    /* A new channel in a category starts with its permissions, synced, as on Discord. */
    return rc == STORE_DONE && c->category_id ? copy_category_overwrites(db, c->id, c->category_id)
                                              : rc;
}

STORE_WRITE_AS(store_channel_create, struct store_new_channel, channel_create_at)

static int channel_update_at(struct store *db, struct store_channel_patch *p)
{
    static const char *SQL = "UPDATE channels SET name = COALESCE($2, name),"
                             " topic = CASE WHEN $3 = 1 THEN $4 ELSE topic END,"
                             " position = CASE WHEN $5 >= 0 THEN $5 ELSE position END,"
                             " category_id = CASE WHEN $6 = 1 THEN $7 ELSE category_id END,"
                             " synced = CASE WHEN $6 = 1 OR $8 = 1 THEN $8 ELSE synced END"
                             " WHERE id = $1";
    static const char *SQL_CATEGORY =
        "UPDATE categories SET name = COALESCE($2, name),"
        " position = CASE WHEN $3 >= 0 THEN $3 ELSE position END WHERE id = $1";
    if (p->is_category)
        return store__exec(db, SQL_CATEGORY,
                           SV_ARGS(SV_STR(p->id), SV_STR(p->name), SV_INT(p->position)));
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(p->id), SV_STR(p->name), SV_INT(p->set_topic),
                                 SV_STR(p->topic), SV_INT(p->position), SV_INT(p->set_parent),
                                 SV_STR(p->parent_id), SV_INT(p->sync)));
    return rc == STORE_DONE && p->sync && p->parent_id
               ? copy_category_overwrites(db, p->id, p->parent_id)
               : rc;
}

STORE_WRITE_AS(store_channel_update, struct store_channel_patch, channel_update_at)

static int positions_at(struct store *db, struct store_channel_positions *p)
{
    static const char *SQL =
        "UPDATE channels SET position = $3,"
        " category_id = CASE WHEN $4 = 1 THEN $5 ELSE category_id END,"
        " synced = CASE WHEN $4 = 1 AND ($5 IS NULL OR category_id IS NULL OR category_id <> $5)"
        " THEN 0 ELSE synced END WHERE id = $1 AND server_id = $2 AND parent_id IS NULL";
    static const char *SQL_CATEGORY =
        "UPDATE categories SET position = $3 WHERE id = $1 AND server_id = $2";
    for (size_t i = 0; i < p->n; i++) {
        const struct store_channel_position *x = &p->list[i];
        int rc =
            x->is_category
                ? store__exec(db, SQL_CATEGORY,
                              SV_ARGS(SV_STR(x->id), SV_STR(p->server_id), SV_INT(x->position)))
                : store__exec(db, SQL,
                              SV_ARGS(SV_STR(x->id), SV_STR(p->server_id), SV_INT(x->position),
                                      SV_INT(x->set_parent), SV_STR(x->parent_id)));
        if (rc != STORE_DONE)
            return rc;
    }
    return STORE_DONE;
}

STORE_WRITE_AS(store_channel_positions_set, struct store_channel_positions, positions_at)

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
    /* A category: its channels stay, in no category (the key sets it null), no longer synced. */
    static const char *SQL_UNSYNC = "UPDATE channels SET synced = 0 WHERE category_id = $1";
    static const char *SQL_CATEGORY = "DELETE FROM categories WHERE id = $1";
    int rc;
    if ((rc = store__write_exec(w, SQL_UNSYNC, SV_ARGS(SV_STR(cid)), NULL)) < 0 ||
        (rc = store__write_exec(w, SQL_CATEGORY, SV_ARGS(SV_STR(cid)), NULL)) < 0 ||
        (rc = store__write_delete_chunks(w, SQL_MESSAGES, cid)) < 0 ||
        (rc = store__write_delete_chunks(w, SQL_CHILDREN, cid)) < 0)
        return rc;
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(cid)), NULL);
}

/* Whether id is a category: 1, 0, < 0 an error. */
static int is_category(struct store *db, const char *id)
{
    static const char *SQL = "SELECT 1 FROM categories WHERE id = $1";
    return store__exists(db, SQL, SV_ARGS(SV_STR(id)));
}

/* After a change to one's overwrites: a category's synced channels copy them again; a channel
 * is no longer synced (its own now differ). */
static int after_overwrites(struct store *db, const char *id, int category)
{
    static const char *SQL_UNSYNC = "UPDATE channels SET synced = 0 WHERE id = $1";
    return category ? copy_category_overwrites(db, NULL, id)
                    : store__exec(db, SQL_UNSYNC, SV_ARGS(SV_STR(id)));
}

static int overwrite_put_at(struct store *db, struct store_overwrite *o)
{
    static const char *SQL =
        "INSERT INTO overwrites (channel_id, target_id, type, allow, deny) VALUES ($1, $2, $3, $4,"
        " $5) ON CONFLICT (channel_id, target_id) DO UPDATE SET type = excluded.type,"
        " allow = excluded.allow, deny = excluded.deny";
    static const char *SQL_CATEGORY =
        "INSERT INTO category_overwrites (category_id, target_id, type, allow, deny)"
        " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (category_id, target_id) DO UPDATE SET"
        " type = excluded.type, allow = excluded.allow, deny = excluded.deny";
    int category = is_category(db, o->channel_id);
    if (category < 0)
        return category;
    int rc = store__exec(db, category ? SQL_CATEGORY : SQL,
                         SV_ARGS(SV_STR(o->channel_id), SV_STR(o->target_id), SV_STR(o->type),
                                 SV_INT(o->allow), SV_INT(o->deny)));
    return rc == STORE_DONE ? after_overwrites(db, o->channel_id, category) : rc;
}

STORE_WRITE_AS(store_overwrite_put, struct store_overwrite, overwrite_put_at)

static int overwrite_delete_at(struct store *db, struct store_overwrite *o)
{
    static const char *SQL = "DELETE FROM overwrites WHERE channel_id = $1 AND target_id = $2";
    static const char *SQL_CATEGORY =
        "DELETE FROM category_overwrites WHERE category_id = $1 AND target_id = $2";
    int category = is_category(db, o->channel_id);
    if (category < 0)
        return category;
    int rc = store__exec(db, category ? SQL_CATEGORY : SQL,
                         SV_ARGS(SV_STR(o->channel_id), SV_STR(o->target_id)));
    o->changes = rc == STORE_DONE ? store__changes(db) : 0;
    return rc == STORE_DONE && o->changes ? after_overwrites(db, o->channel_id, category) : rc;
}

STORE_WRITE_AS(store_overwrite_delete, struct store_overwrite, overwrite_delete_at)

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
