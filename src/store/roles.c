/* Roles and the roles members hold. New roles go just above @everyone (rank 1), as in
 * Discord, so whoever made one stays above it; see roles.h for keys and ranks. */
#include "core/buf.h"
#include "core/uuid.h"
#include "store/fields.h"
#include "store/rows.h"
#include "store/writer.h"
#include "store/roles.h"

#include <stdlib.h>
#include <string.h>

static const struct store_col ROLE_COLS[] = {
    {"id", COL_TEXT},      {"serverId", COL_TEXT},    {"name", COL_TEXT},  {"permissions", COL_INT},
    {"color", COL_INT},    {"mentionable", COL_BOOL}, {"hoist", COL_BOOL}, {"position", COL_INT},
    {"managed", COL_BOOL}, {"createdAt", COL_TIME},
};
#define ROLE_SELECT(rank)                                                                          \
    "SELECT id, server_id, name, permissions, color, mentionable, hoist, " rank ", managed,"       \
    " created_at FROM roles"

json_t *store_roles_json(struct store *db, const char *sid)
{
    /* Lowest first, so the row number is the rank. */
    static const char *SQL = ROLE_SELECT("row_number() OVER (ORDER BY id <> server_id, position, "
                                         "id DESC) - 1") " WHERE server_id = $1 ORDER BY id <> "
                                                         "server_id, position, id DESC";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(sid)), STORE_COLS(ROLE_COLS));
}

json_t *store_role_json(struct store *db, const char *rid, int *rc)
{
    static const char *SQL = ROLE_SELECT(STORE_ROLE_RANK("roles")) " WHERE id = $1";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(rid)), STORE_COLS(ROLE_COLS), rc);
}

/* One integer from one row: 1 a row, 0 none, < 0 an error. */
static int one_int(struct store *db, const char *sql, const struct store_val *args, size_t n,
                   int64_t *out)
{
    struct store_stmt *st = store__query(db, sql, args, n);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        *out = store__int(st, 0);
    store__finish(st);
    return rc == STORE_ROW ? 1 : rc == STORE_DONE ? 0 : rc;
}

int store_role_key(struct store *db, const char *rid, int64_t *key)
{
    static const char *SQL = "SELECT position FROM roles WHERE id = $1";
    return one_int(db, SQL, SV_ARGS(SV_STR(rid)), key);
}

int store_role_ref(struct store *db, const char *rid, struct store_role_ref *out)
{
    static const char *SQL = "SELECT server_id, managed, position FROM roles WHERE id = $1";
    static const struct store_field FIELDS[] = {
        STORE_FIELD_TEXT(struct store_role_ref, server_id),
        STORE_FIELD_INT(struct store_role_ref, managed),
        STORE_FIELD_INT(struct store_role_ref, key),
    };
    return store__row_fields(db, SQL, rid, STORE_FIELDS(FIELDS), out, sizeof *out);
}

int store_role_rank_of_key(struct store *db, const char *sid, int64_t key, int64_t *rank)
{
    static const char *SQL = "SELECT count(*) FROM roles WHERE server_id = $1 AND position < $2";
    int rc = one_int(db, SQL, SV_ARGS(SV_STR(sid), SV_INT(key)), rank);
    return rc == 1 ? STORE_DONE : rc < 0 ? rc : STORE_ERR;
}

static int role_create_at(struct store *db, struct store_new_role *r)
{
    static const char *SQL_INSERT =
        "INSERT INTO roles (id, server_id, name, permissions, color, mentionable, position,"
        " created_at, hoist) VALUES ($1, $2, $3, $4, $5, $6, " STORE_ROLE_NEW_KEY("$2") ", $7, $8)";
    return store__exec(db, SQL_INSERT,
                       SV_ARGS(SV_STR(r->id), SV_STR(r->server_id), SV_STR(r->name),
                               SV_INT(r->permissions), SV_INT(r->color), SV_INT(r->mentionable),
                               SV_INT(r->now), SV_INT(r->hoist)));
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
    static const char *SQL_DELETE = "DELETE FROM roles WHERE id = $1";
    static const char *SQL_OVERWRITES = "DELETE FROM overwrites WHERE target_id = $1";
    const char *rid = ((const struct role_ref *)arg)->id;
    int rc = store__exec(db, SQL_DELETE, SV_ARGS(SV_STR(rid)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_OVERWRITES, SV_ARGS(SV_STR(rid)));
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

/* One role of the server being reordered: its ID and key as read. */
struct role_key {
    char id[UUID_LEN + 1];
    int64_t key;
};

/* The server's roles but @everyone, lowest first (as ranked), into *out (malloc'd). */
static int role_keys(struct store *db, const char *rid, struct role_key **out, size_t *n)
{
    static const char *SQL = "SELECT b.id, b.position FROM roles r JOIN roles b"
                             " ON b.server_id = r.server_id AND b.id <> b.server_id"
                             " WHERE r.id = $1 ORDER BY b.position, b.id DESC";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(rid)));
    if (!st)
        return STORE_ERR;
    struct role_key *keys = NULL;
    size_t len = 0, cap = 0;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        if (len == cap) {
            struct role_key *more = realloc(keys, (cap = cap ? 2 * cap : 16) * sizeof *keys);
            if (!more) {
                rc = STORE_ERR;
                break;
            }
            keys = more;
        }
        store__text_copy(st, 0, keys[len].id, sizeof keys[len].id);
        keys[len++].key = store__int(st, 1);
    }
    store__finish(st);
    if (rc != STORE_DONE) {
        free(keys);
        return rc;
    }
    *out = keys;
    *n = len;
    return STORE_DONE;
}

/* Ranks are 1…n among the roles but @everyone: the moved role is taken out and put back at
 * its new rank (clamped to the top), then every role whose key is not its rank gets it. */
static int role_move(struct store *db, void *arg)
{
    static const char *SQL_SET = "UPDATE roles SET position = $2 WHERE id = $1";
    struct role_move *m = arg;
    struct role_key *keys;
    size_t n;
    int rc = role_keys(db, m->id, &keys, &n);
    if (rc != STORE_DONE)
        return rc;
    size_t from = 0;
    while (from < n && strcmp(keys[from].id, m->id))
        from++;
    if (from == n) {
        free(keys);
        return STORE_MISSING;
    }
    if (m->to > (int64_t)n)
        m->to = (int64_t)n;
    size_t to = (size_t)m->to - 1;
    struct role_key moved = keys[from];
    if (to < from)
        memmove(&keys[to + 1], &keys[to], (from - to) * sizeof *keys);
    else
        memmove(&keys[from], &keys[from + 1], (to - from) * sizeof *keys);
    keys[to] = moved;
    for (size_t i = 0; i < n && rc == STORE_DONE; i++)
        if (keys[i].key != (int64_t)i + 1)
            rc = store__exec(db, SQL_SET, SV_ARGS(SV_STR(keys[i].id), SV_INT((int64_t)i + 1)));
    free(keys);
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
