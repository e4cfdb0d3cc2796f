/* The operator's queries: see admin.h. */
#include "store/admin.h"

#include "store/people.h"
#include "store/rows.h"

json_t *store_admin_people(struct store *db, int64_t limit)
{
    static const char *SQL =
        "SELECT u.id, u.username, u.display_name, u.created_at, u.mfa_enabled,"
        " (SELECT COUNT(*) FROM tokens t WHERE t.user_id = u.id AND t.kind = 'session')"
        " FROM users u WHERE u.is_bot = 0 ORDER BY u.created_at DESC, u.id DESC LIMIT $1";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},        {"username", COL_TEXT},   {"displayName", COL_TEXT},
        {"createdAt", COL_TIME}, {"mfaEnabled", COL_BOOL}, {"sessions", COL_INT},
    };
    return store__list_json(db, SQL, SV_ARGS(SV_INT(limit)), STORE_COLS(COLS));
}

json_t *store_admin_apps(struct store *db, int64_t limit)
{
    static const char *SQL =
        "SELECT a.id, a.name, u.username, a.created_at,"
        " (SELECT COUNT(*) FROM installs i WHERE i.application_id = a.id), a.suspended"
        " FROM applications a JOIN users u ON u.id = a.owner_id"
        " ORDER BY a.created_at DESC, a.id DESC LIMIT $1";
    static const struct store_col COLS[] = {
        {"id", COL_TEXT},        {"name", COL_TEXT},    {"owner", COL_TEXT},
        {"createdAt", COL_TIME}, {"installs", COL_INT}, {"suspended", COL_BOOL},
    };
    return store__list_json(db, SQL, SV_ARGS(SV_INT(limit)), STORE_COLS(COLS));
}

/* The person named by ID or username into id: 1, 0 none (bots are not people here). */
static int person(struct store *db, const char *who, char id[64])
{
    static const char *SQL_FIND =
        "SELECT id FROM users WHERE (id = $1 OR username = $1) AND is_bot = 0";
    int found;
    struct store_stmt *st = store__row(db, SQL_FIND, who, &found);
    if (!st)
        return found;
    store__text_copy(st, 0, id, 64);
    store__finish(st);
    return 1;
}

int store_admin_revoke_sessions(struct store *db, const char *who, int64_t *revoked)
{
    static const char *SQL_REVOKE = "DELETE FROM tokens WHERE user_id = $1 AND kind = 'session'";
    char id[64];
    int found = person(db, who, id);
    if (found != 1)
        return found;
    int rc = store__exec(db, SQL_REVOKE, SV_ARGS(SV_STR(id)));
    *revoked = store__changes(db);
    return rc == STORE_DONE ? 1 : rc;
}

int store_admin_reset_mfa(struct store *db, const char *who)
{
    char id[64];
    int found = person(db, who, id);
    if (found != 1)
        return found;
    int rc = store__exec_script(db, "BEGIN");
    if (rc == STORE_DONE && (rc = store__mfa_disable_at(db, id)) == STORE_DONE)
        rc = store__exec_script(db, "COMMIT");
    else
        store__exec_script(db, "ROLLBACK");
    return rc == STORE_DONE ? 1 : rc;
}
