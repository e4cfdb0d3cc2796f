/* Group conversations: a DM channel with no pair key, its people in the order they joined. */
#include <string.h>

#include "store/avatars.h"
#include "store/dm_groups.h"
#include "store/rows.h"

static const char *SQL_SHARED =
    "SELECT 1 FROM members a JOIN members b ON b.server_id = a.server_id AND b.user_id = $2"
    " WHERE a.user_id = $1 LIMIT 1";
static const char *SQL_JOIN = "INSERT INTO dm_members (channel_id, user_id, joined_at)"
                              " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";

int store_people_share_server(struct store *db, const char *a, const char *b)
{
    return store__exists(db, SQL_SHARED, SV_ARGS(SV_STR(a), SV_STR(b)));
}

static int create_at(struct store *db, void *arg)
{
    struct store_dm_group_new *g = arg;
    static const char *SQL_CHANNEL = "INSERT INTO channels (id, type, name, owner_id, created_at)"
                                     " VALUES ($1, 'dm', $2, $3, $4)";
    if (g->n + 1 > STORE_DM_GROUP_MAX)
        return STORE_FULL;
    for (size_t i = 0; i < g->n; i++) {
        int rc = store_people_share_server(db, g->owner, g->people[i]);
        if (rc <= 0)
            return rc < 0 ? rc : STORE_REFUSED;
    }
    int rc = store__exec(db, SQL_CHANNEL,
                         SV_ARGS(SV_STR(g->id), SV_STR(g->name), SV_STR(g->owner), SV_INT(g->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_JOIN, SV_ARGS(SV_STR(g->id), SV_STR(g->owner), SV_INT(g->now)));
    for (size_t i = 0; rc == STORE_DONE && i < g->n; i++)
        rc =
            store__exec(db, SQL_JOIN, SV_ARGS(SV_STR(g->id), SV_STR(g->people[i]), SV_INT(g->now)));
    return rc;
}

int store_dm_group_create(struct store_writer *w, struct store_dm_group_new *arg)
{
    return store_write(w, create_at, arg);
}

int store_dm_group_of(struct store *db, const char *cid, char owner[40])
{
    static const char *SQL =
        "SELECT CASE WHEN dm_key IS NULL THEN 1 ELSE 0 END, owner_id FROM channels"
        " WHERE id = $1 AND type = 'dm'";
    int found;
    struct store_stmt *st = store__row(db, SQL, cid, &found);
    if (!st)
        return found < 0 ? found : STORE_MISSING;
    int group = store__int(st, 0) != 0;
    store__text_copy(st, 1, owner, 40);
    store__finish(st);
    return group;
}

struct member_change {
    const char *cid, *uid;
    int64_t now, changes;
};

static int add_at(struct store *db, void *arg)
{
    struct member_change *m = arg;
    static const char *SQL_IN = "SELECT 1 FROM dm_members WHERE channel_id = $1 AND user_id = $2";
    static const char *SQL_COUNT = "SELECT COUNT(*) FROM dm_members WHERE channel_id = $1";
    int rc = store__exists(db, SQL_IN, SV_ARGS(SV_STR(m->cid), SV_STR(m->uid)));
    if (rc != 0)
        return rc < 0 ? rc : STORE_DONE;
    int64_t n = store__number(db, SQL_COUNT, m->cid);
    if (n < 0)
        return STORE_ERR;
    if (n >= STORE_DM_GROUP_MAX)
        return STORE_FULL;
    return store__exec(db, SQL_JOIN, SV_ARGS(SV_STR(m->cid), SV_STR(m->uid), SV_INT(m->now)));
}

int store_dm_group_add(struct store_writer *w, const char *cid, const char *uid, int64_t now)
{
    struct member_change m = {cid, uid, now, 0};
    return store_write(w, add_at, &m);
}

static int remove_at(struct store *db, void *arg)
{
    struct member_change *m = arg;
    static const char *SQL_OUT = "DELETE FROM dm_members WHERE channel_id = $1 AND user_id = $2";
    static const char *SQL_HEIR =
        "UPDATE channels SET owner_id = (SELECT user_id FROM dm_members WHERE channel_id = $1"
        " ORDER BY joined_at, user_id LIMIT 1) WHERE id = $1 AND owner_id = $2";
    int rc = store__exec(db, SQL_OUT, SV_ARGS(SV_STR(m->cid), SV_STR(m->uid)));
    m->changes = rc == STORE_DONE ? store__changes(db) : 0;
    if (rc == STORE_DONE && m->changes)
        rc = store__exec(db, SQL_HEIR, SV_ARGS(SV_STR(m->cid), SV_STR(m->uid)));
    return rc;
}

int store_dm_group_remove(struct store_writer *w, const char *cid, const char *uid,
                          int64_t *changes)
{
    struct member_change m = {cid, uid, 0, 0};
    int rc = store_write(w, remove_at, &m);
    if (changes)
        *changes = m.changes;
    return rc;
}

int store_dm_group_rename(struct store_writer *w, const char *cid, const char *name)
{
    static const char *SQL = "UPDATE channels SET name = $2 WHERE id = $1 AND dm_key IS NULL";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(cid), SV_STR(name)), NULL);
}

int store__dm_group_people(struct store *db, json_t *dm, const char *me)
{
    static const char *SQL = "SELECT u.id, u.username, u.display_name, " STORE_AVATAR_URL_SQL(
        "u") " FROM dm_members d JOIN users u ON u.id = d.user_id"
             " WHERE d.channel_id = $1 AND d.user_id <> $2"
             " ORDER BY d.joined_at, u.id";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},
        {"username", COL_TEXT},
        {"displayName", COL_TEXT},
        {"avatarUrl", COL_TEXT},
    };
    const char *cid = json_string_value(json_object_get(dm, "id"));
    json_t *people = store__list_json(db, SQL, SV_ARGS(SV_STR(cid), SV_STR(me)), STORE_COLS(COLS));
    if (!people)
        return STORE_ERR;
    for (const char *const *k = (const char *const[]){"userId", "username", "displayName",
                                                      "avatarUrl", "deleted", NULL};
         *k; k++)
        json_object_del(dm, *k);
    json_object_set_new(dm, "people", people);
    return STORE_DONE;
}
