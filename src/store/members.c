/* Members, bans and invites. */
#include <string.h>

#include "core/clock.h"
#include "core/buf.h"
#include "store/avatars.h"
#include "store/rows.h"
#include "store/writer.h"
#include "store/members.h"

static const struct store_col MEMBER_COLS[] = {
    {"userId", COL_TEXT},       {"nickname", COL_TEXT},      {"joinedAt", COL_TIME},
    {"timeoutUntil", COL_TIME}, {"timeoutReason", COL_TEXT},
};
static const struct store_col MEMBER_USER_COLS[] = {
    {"id", COL_TEXT}, {"username", COL_TEXT}, {"displayName", COL_TEXT}, {"isBot", COL_BOOL}};
#define MEMBER_SELECT                                                                              \
    "SELECT m.user_id, m.nickname, m.joined_at,"                                                   \
    " CASE WHEN m.timeout_until > $3 THEN m.timeout_until END,"                                    \
    " CASE WHEN m.timeout_until > $3 THEN m.timeout_reason END,"                                   \
    " u.id, u.username, u.display_name, u.is_bot, " STORE_AVATAR_URL_SQL(                          \
        "u") ","                                                                                   \
             " (SELECT json_group_array(role_id) FROM (SELECT mr.role_id FROM member_roles mr"     \
             "   JOIN roles r ON r.id = mr.role_id WHERE mr.server_id = m.server_id"               \
             "   AND mr.user_id = m.user_id ORDER BY r.position) AS ids)"                          \
             ", u.imported FROM members m JOIN users u ON u.id = m.user_id"

/* faces: the user's avatarUrl and whether an import brought them, for a person's page (the
 * interface's Member object has neither). */
static json_t *member_row(struct store_stmt *st, int faces)
{
    json_t *m = store__row_json(st, 0, STORE_COLS(MEMBER_COLS));
    json_t *user = store__row_json(st, 5, STORE_COLS(MEMBER_USER_COLS));
    if (faces) {
        json_object_set_new(user, "avatarUrl",
                            store__is_null(st, 9) ? json_null() : json_string(store__text(st, 9)));
        json_object_set_new(user, "imported", json_boolean(store__int(st, 11)));
    }
    json_t *roles = json_loadb(store__text(st, 10), store__text_len(st, 10), 0, NULL);
    /* Reorder to the documented field order: userId, user, nickname, roleIds, … */
    json_t *o = json_object();
    json_object_set(o, "userId", json_object_get(m, "userId"));
    json_object_set_new(o, "user", user);
    json_object_set(o, "nickname", json_object_get(m, "nickname"));
    json_object_set_new(o, "roleIds", roles ? roles : json_array());
    json_object_set(o, "joinedAt", json_object_get(m, "joinedAt"));
    json_object_set(o, "timeoutUntil", json_object_get(m, "timeoutUntil"));
    json_object_set(o, "timeoutReason", json_object_get(m, "timeoutReason"));
    json_decref(m);
    return o;
}

json_t *store_member_json(struct store *db, const char *sid, const char *uid, int *rc)
{
    static const char *SQL = MEMBER_SELECT " WHERE m.server_id = $1 AND m.user_id = $2";
    struct store_stmt *st =
        store__query(db, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid), SV_INT(clock_now_ms())));
    if (!st) {
        *rc = STORE_ERR;
        return NULL;
    }
    json_t *o = NULL;
    if ((*rc = store__step(st)) == STORE_ROW)
        o = member_row(st, 0);
    store__finish(st);
    return o;
}

json_t *store_members_json(struct store *db, const char *sid, const char *after, int64_t limit,
                           int faces)
{
    static const char *SQL =
        MEMBER_SELECT " WHERE m.server_id = $1 AND m.user_id > $2 ORDER BY m.user_id LIMIT $4";
    struct store_stmt *st = store__query(
        db, SQL,
        SV_ARGS(SV_STR(sid), SV_STR(after ? after : ""), SV_INT(clock_now_ms()), SV_INT(limit)));
    if (!st)
        return NULL;
    json_t *list = json_array();
    int rc;
    while ((rc = store__step(st)) == STORE_ROW)
        json_array_append_new(list, member_row(st, faces));
    store__finish(st);
    if (rc != STORE_DONE) {
        json_decref(list);
        return NULL;
    }
    return list;
}

int store_is_banned(struct store *db, const char *sid, const char *uid)
{
    static const char *SQL = "SELECT 1 FROM bans WHERE server_id = $1 AND user_id = $2";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    store__finish(st);
    return store_found(rc);
}

int store_member_add(struct store_writer *w, const char *sid, const char *uid)
{
    static const char *SQL = "INSERT INTO members (server_id, user_id, joined_at)"
                             " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    int64_t changes = 0;
    int rc = store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid), SV_INT(clock_now_ms())),
                               &changes);
    return rc < 0 ? rc : changes == 1;
}

int store_member_remove(struct store_writer *w, const char *sid, const char *uid, int64_t *changes)
{
    static const char *SQL = "DELETE FROM members WHERE server_id = $1 AND user_id = $2";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid)), changes);
}

int store_member_update(struct store_writer *w, const char *sid, const char *uid, int set_timeout,
                        int64_t timeout_until, const char *timeout_reason, int set_nick,
                        const char *nickname)
{
    static const char *SQL = "UPDATE members SET"
                             " timeout_until = CASE WHEN $3 = 1 THEN $4 ELSE timeout_until END,"
                             " timeout_reason = CASE WHEN $3 = 1 THEN $5 ELSE timeout_reason END,"
                             " nickname = CASE WHEN $6 = 1 THEN $7 ELSE nickname END"
                             " WHERE server_id = $1 AND user_id = $2";
    return store__write_exec(w, SQL,
                             SV_ARGS(SV_STR(sid), SV_STR(uid), SV_INT(set_timeout),
                                     timeout_until ? SV_INT(timeout_until) : SV_NULLV,
                                     SV_STR(timeout_reason), SV_INT(set_nick), SV_STR(nickname)),
                             NULL);
}

struct ban_args {
    const char *sid, *uid, *reason, *by;
};

static int ban_fn(struct store *db, void *p)
{
    static const char *SQL_BAN =
        "INSERT INTO bans (server_id, user_id, reason, banned_by, created_at)"
        " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (server_id, user_id) DO UPDATE SET"
        " reason = excluded.reason, banned_by = excluded.banned_by";
    static const char *SQL_REMOVE = "DELETE FROM members WHERE server_id = $1 AND user_id = $2";
    struct ban_args *b = p;
    int rc = store__exec(db, SQL_BAN,
                         SV_ARGS(SV_STR(b->sid), SV_STR(b->uid), SV_STR(b->reason), SV_STR(b->by),
                                 SV_INT(clock_now_ms())));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_REMOVE, SV_ARGS(SV_STR(b->sid), SV_STR(b->uid)));
    return rc;
}

int store_ban(struct store_writer *w, const char *sid, const char *uid, const char *reason,
              const char *by)
{
    struct ban_args b = {sid, uid, reason, by};
    return store_write(w, ban_fn, &b);
}

int store_unban(struct store_writer *w, const char *sid, const char *uid, int64_t *changes)
{
    static const char *SQL = "DELETE FROM bans WHERE server_id = $1 AND user_id = $2";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid)), changes);
}

json_t *store_bans_json(struct store *db, const char *sid)
{
    static const char *SQL =
        "SELECT b.user_id, b.reason, b.banned_by, b.created_at, u.username, u.display_name"
        " FROM bans b JOIN users u ON u.id = b.user_id"
        " WHERE b.server_id = $1 ORDER BY b.created_at, b.user_id";
    static const struct store_col COLS[] = {{"userId", COL_TEXT},   {"reason", COL_TEXT},
                                            {"bannedBy", COL_TEXT}, {"createdAt", COL_TIME},
                                            {"username", COL_TEXT}, {"displayName", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(sid)), STORE_COLS(COLS));
}

int store_invite_create(struct store_writer *w, const char *code, const char *sid, const char *by,
                        int64_t max_uses, int64_t expires_at)
{
    static const char *SQL =
        "INSERT INTO invites (code, server_id, created_by, max_uses, expires_at, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6)";
    return store__write_exec(w, SQL,
                             SV_ARGS(SV_STR(code), SV_STR(sid), SV_STR(by), SV_INT(max_uses),
                                     expires_at ? SV_INT(expires_at) : SV_NULLV,
                                     SV_INT(clock_now_ms())),
                             NULL);
}

static const char *SQL_INVITE_VALID =
    "SELECT server_id, max_uses, uses FROM invites WHERE code = $1"
    " AND (expires_at IS NULL OR expires_at > $2) AND (max_uses = 0 OR uses < max_uses)";

static int invite_join_at(struct store *db, struct store_invite_join *j)
{
    static const char *SQL_USE = "UPDATE invites SET uses = uses + 1 WHERE code = $1";
    static const char *SQL_BANNED = "SELECT 1 FROM bans WHERE server_id = $1 AND user_id = $2";
    static const char *SQL_JOIN = "INSERT INTO members (server_id, user_id, joined_at)"
                                  " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    struct store_stmt *st =
        store__query(db, SQL_INVITE_VALID, SV_ARGS(SV_STR(j->code), SV_INT(j->now)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        store__text_copy(st, 0, j->server_id, sizeof j->server_id);
    store__finish(st);
    if (rc != STORE_ROW)
        return rc == STORE_DONE ? STORE_MISSING : rc;
    st = store__query(db, SQL_BANNED, SV_ARGS(SV_STR(j->server_id), SV_STR(j->user_id)));
    if (!st)
        return STORE_ERR;
    rc = store__step(st);
    store__finish(st);
    if (rc != STORE_DONE)
        return rc == STORE_ROW ? STORE_REFUSED : rc;
    rc = store__exec(db, SQL_JOIN,
                     SV_ARGS(SV_STR(j->server_id), SV_STR(j->user_id), SV_INT(j->now)));
    if (rc != STORE_DONE)
        return rc;
    if (store__changes(db) == 0)
        return 0; /* already a member: the invite is not used up */
    rc = store__exec(db, SQL_USE, SV_ARGS(SV_STR(j->code)));
    return rc == STORE_DONE ? 1 : rc;
}

STORE_WRITE_AS(store_invite_join, struct store_invite_join, invite_join_at)

json_t *store_invite_json(struct store *db, const char *code, int64_t now, int *rc)
{
    static const char *SQL =
        "SELECT i.code, i.max_uses, i.uses, i.expires_at, i.created_at, s.id, s.name, s.icon_url,"
        " (SELECT count(*) FROM members m WHERE m.server_id = s.id)"
        " FROM invites i JOIN servers s ON s.id = i.server_id WHERE i.code = $1"
        " AND (i.expires_at IS NULL OR i.expires_at > $2) AND (i.max_uses = 0 OR i.uses < "
        "i.max_uses)";
    static const struct store_col INVITE_COLS[] = {{"code", COL_TEXT},
                                                   {"maxUses", COL_INT},
                                                   {"uses", COL_INT},
                                                   {"expiresAt", COL_TIME},
                                                   {"createdAt", COL_TIME}};
    static const struct store_col SERVER_COLS[] = {
        {"id", COL_TEXT}, {"name", COL_TEXT}, {"iconUrl", COL_TEXT}, {"memberCount", COL_INT}};
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(code), SV_INT(now)));
    if (!st) {
        *rc = STORE_ERR;
        return NULL;
    }
    json_t *o = NULL;
    if ((*rc = store__step(st)) == STORE_ROW) {
        o = store__row_json(st, 0, STORE_COLS(INVITE_COLS));
        json_object_set_new(o, "server", store__row_json(st, 5, STORE_COLS(SERVER_COLS)));
    }
    store__finish(st);
    return o;
}

json_t *store_invites_json(struct store *db, const char *sid, int64_t now)
{
    static const char *SQL =
        "SELECT i.code, i.max_uses, i.uses, i.expires_at, i.created_at, u.id, u.username,"
        " u.display_name FROM invites i JOIN users u ON u.id = i.created_by"
        " WHERE i.server_id = $1 AND (i.expires_at IS NULL OR i.expires_at > $2)"
        " AND (i.max_uses = 0 OR i.uses < i.max_uses) ORDER BY i.created_at DESC, i.code LIMIT $3";
    static const struct store_col INVITE_COLS[] = {{"code", COL_TEXT},
                                                   {"maxUses", COL_INT},
                                                   {"uses", COL_INT},
                                                   {"expiresAt", COL_TIME},
                                                   {"createdAt", COL_TIME}};
    static const struct store_col USER_COLS[] = {
        {"id", COL_TEXT}, {"username", COL_TEXT}, {"displayName", COL_TEXT}};
    struct store_stmt *st =
        store__query(db, SQL, SV_ARGS(SV_STR(sid), SV_INT(now), SV_INT(STORE_INVITES_MAX)));
    json_t *list = st ? json_array() : NULL;
    int rc;
    while (list && (rc = store__step(st)) == STORE_ROW) {
        json_t *o = store__row_json(st, 0, STORE_COLS(INVITE_COLS));
        json_object_set_new(o, "createdBy", store__row_json(st, 5, STORE_COLS(USER_COLS)));
        json_array_append_new(list, o);
    }
    if (list && rc != STORE_DONE) {
        json_decref(list);
        list = NULL;
    }
    if (st)
        store__finish(st);
    return list;
}

int store_invite_delete(struct store_writer *w, const char *sid, const char *code)
{
    static const char *SQL = "DELETE FROM invites WHERE server_id = $1 AND code = $2";
    int64_t changes = 0;
    int rc = store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(code)), &changes);
    return rc < 0 ? rc : changes > 0;
}
