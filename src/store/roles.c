/* Roles and the roles members hold. New roles go just above @everyone (position 1), as in
 * Discord, so whoever made one stays above it. */
#include "core/buf.h"
#include "store/rows.h"
#include "store/writer.h"
#include "store/roles.h"

static const struct store_col ROLE_COLS[] = {
    {"id", COL_TEXT},      {"serverId", COL_TEXT},    {"name", COL_TEXT},  {"permissions", COL_INT},
    {"color", COL_INT},    {"mentionable", COL_BOOL}, {"hoist", COL_BOOL}, {"position", COL_INT},
    {"managed", COL_BOOL}, {"createdAt", COL_TIME},
};
#define ROLE_SELECT                                                                                \
    "SELECT id, server_id, name, permissions, color, mentionable, hoist, position, managed,"       \
    " created_at FROM roles"

json_t *store_roles_json(struct store *db, const char *sid)
{
    static const char *SQL = ROLE_SELECT " WHERE server_id = $1 ORDER BY position, id";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(sid)), STORE_COLS(ROLE_COLS));
}

json_t *store_role_json(struct store *db, const char *rid, int *rc)
{
    static const char *SQL = ROLE_SELECT " WHERE id = $1";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(rid)), STORE_COLS(ROLE_COLS), rc);
}

static int role_create_at(struct store *db, struct store_new_role *r)
{
    static const char *SQL_SHIFT =
        "UPDATE roles SET position = position + 1 WHERE server_id = $1 AND position >= 1";
    static const char *SQL_INSERT = "INSERT INTO roles (id, server_id, name, permissions, color, "
                                    "mentionable, position, created_at, hoist)"
                                    " VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8)";
    int rc = store__exec(db, SQL_SHIFT, SV_ARGS(SV_STR(r->server_id)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_INSERT,
                         SV_ARGS(SV_STR(r->id), SV_STR(r->server_id), SV_STR(r->name),
                                 SV_INT(r->permissions), SV_INT(r->color), SV_INT(r->mentionable),
                                 SV_INT(r->now), SV_INT(r->hoist)));
    return rc;
}

STORE_WRITE_AS(store_role_create, struct store_new_role, role_create_at)

int store_role_update(struct store_writer *w, const char *rid, const struct store_role_change *ch)
{
    static const char *SQL = "UPDATE roles SET name = COALESCE($2, name),"
                             " permissions = CASE WHEN $3 >= 0 THEN $3 ELSE permissions END,"
                             " color = CASE WHEN $4 >= 0 THEN $4 ELSE color END,"
                             " mentionable = CASE WHEN $5 >= 0 THEN $5 ELSE mentionable END,"
                             " hoist = CASE WHEN $6 >= 0 THEN $6 ELSE hoist END"
                             " WHERE id = $1";
    return store__write_exec(w, SQL,
                             SV_ARGS(SV_STR(rid), SV_STR(ch->name), SV_INT(ch->permissions),
                                     SV_INT(ch->color), SV_INT(ch->mentionable), SV_INT(ch->hoist)),
                             NULL);
}

/* The role to delete, for the writer's job. */
struct role_ref {
    const char *id;
};

static int role_delete(struct store *db, void *arg)
{
    static const char *SQL_POS = "SELECT server_id, position FROM roles WHERE id = $1";
    static const char *SQL_DELETE = "DELETE FROM roles WHERE id = $1";
    static const char *SQL_OVERWRITES = "DELETE FROM overwrites WHERE target_id = $1";
    static const char *SQL_SHIFT =
        "UPDATE roles SET position = position - 1 WHERE server_id = $1 AND position > $2";
    const char *rid = ((const struct role_ref *)arg)->id;
    struct store_stmt *st = store__query(db, SQL_POS, SV_ARGS(SV_STR(rid)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    char sid[40] = "";
    int64_t pos = 0;
    if (rc == STORE_ROW) {
        store__text_copy(st, 0, sid, sizeof sid);
        pos = store__int(st, 1);
    }
    store__finish(st);
    if (rc != STORE_ROW)
        return rc;
    rc = store__exec(db, SQL_DELETE, SV_ARGS(SV_STR(rid)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_OVERWRITES, SV_ARGS(SV_STR(rid)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_SHIFT, SV_ARGS(SV_STR(sid), SV_INT(pos)));
    return rc;
}

int store_role_delete(struct store_writer *w, const char *rid)
{
    struct role_ref r = {rid};
    return store_write(w, role_delete, &r);
}

/* The role to move and where, for the writer's job. */
struct role_move {
    const char *id;
    int64_t to;
};

/* The roles between the old and the new place shift by one toward the old one, so positions
 * stay 1..n without gaps; the new place is clamped to the top. */
static int role_move(struct store *db, void *arg)
{
    static const char *SQL_POS =
        "SELECT server_id, position,"
        " (SELECT max(position) FROM roles r WHERE r.server_id = roles.server_id)"
        " FROM roles WHERE id = $1";
    static const char *SQL_DOWN = "UPDATE roles SET position = position + 1"
                                  " WHERE server_id = $1 AND position >= $2 AND position < $3";
    static const char *SQL_UP = "UPDATE roles SET position = position - 1"
                                " WHERE server_id = $1 AND position > $3 AND position <= $2";
    static const char *SQL_SET = "UPDATE roles SET position = $2 WHERE id = $1";
    struct role_move *m = arg;
    struct store_stmt *st = store__query(db, SQL_POS, SV_ARGS(SV_STR(m->id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    char sid[40] = "";
    int64_t from = 0, top = 0;
    if (rc == STORE_ROW) {
        store__text_copy(st, 0, sid, sizeof sid);
        from = store__int(st, 1);
        top = store__int(st, 2);
    }
    store__finish(st);
    if (rc != STORE_ROW)
        return rc;
    if (m->to > top)
        m->to = top;
    if (m->to == from)
        return STORE_DONE;
    rc = store__exec(db, m->to < from ? SQL_DOWN : SQL_UP,
                     SV_ARGS(SV_STR(sid), SV_INT(m->to), SV_INT(from)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_SET, SV_ARGS(SV_STR(m->id), SV_INT(m->to)));
    return rc;
}

int store_role_move(struct store_writer *w, const char *rid, int64_t *position)
{
    struct role_move m = {rid, *position};
    int rc = store_write(w, role_move, &m);
    *position = m.to;
    return rc;
}

int store_member_role_add(struct store_writer *w, const char *sid, const char *uid, const char *rid)
{
    static const char *SQL = "INSERT INTO member_roles (server_id, user_id, role_id)"
                             " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid), SV_STR(rid)), NULL);
}

int store_member_role_remove(struct store_writer *w, const char *sid, const char *uid,
                             const char *rid, int64_t *changes)
{
    static const char *SQL =
        "DELETE FROM member_roles WHERE server_id = $1 AND user_id = $2 AND role_id = $3";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid), SV_STR(rid)), changes);
}
