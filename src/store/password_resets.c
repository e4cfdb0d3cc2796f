/* One-time links to set a new password: see password_resets.h. */
#include "store/password_resets.h"

#include <string.h>

#include "store/rows.h"

int store_password_reset_make(struct store *db, const char *who, const char *token_hash,
                              int64_t expires_at)
{
    static const char *SQL_FIND =
        "SELECT id FROM users WHERE (id = $1 OR username = $1) AND is_bot = 0";
    static const char *SQL = "INSERT INTO password_resets (token_hash, user_id, expires_at)"
                             " VALUES ($1, $2, $3)";
    char id[64];
    int found;
    struct store_stmt *st = store__row(db, SQL_FIND, who, &found);
    if (!st)
        return found;
    store__text_copy(st, 0, id, sizeof id);
    store__finish(st);
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(token_hash), SV_STR(id), SV_INT(expires_at)));
    return rc == STORE_DONE ? 1 : rc;
}

int store_password_reset_usable(struct store *db, const char *token_hash, int64_t now)
{
    static const char *SQL =
        "SELECT expires_at, used_at IS NOT NULL FROM password_resets WHERE token_hash = $1";
    int found;
    struct store_stmt *st = store__row(db, SQL, token_hash, &found);
    if (!st)
        return found < 0 ? found : STORE_RESET_UNKNOWN;
    int gone = store__int(st, 0) <= now || store__int(st, 1);
    store__finish(st);
    return gone ? STORE_RESET_GONE : STORE_RESET_DONE;
}

struct reset_use {
    const char *token_hash, *password_hash;
    int64_t now;
    char *user_id;
    int64_t *revoked;
};

static int use_at(struct store *db, struct reset_use *u)
{
    static const char *SQL_FIND = "SELECT user_id, expires_at, used_at IS NOT NULL FROM "
                                  "password_resets WHERE token_hash = $1";
    static const char *SQL_USED = "UPDATE password_resets SET used_at = $2 WHERE token_hash = $1";
    static const char *SQL_PASSWORD =
        "UPDATE users SET password_hash = $2 WHERE id = $1 AND is_bot = 0";
    static const char *SQL_SESSIONS = "DELETE FROM tokens WHERE user_id = $1 AND kind = 'session'";
    int found;
    struct store_stmt *st = store__row(db, SQL_FIND, u->token_hash, &found);
    if (!st)
        return found < 0 ? found : STORE_RESET_UNKNOWN;
    store__text_copy(st, 0, u->user_id, 64);
    int gone = store__int(st, 1) <= u->now || store__int(st, 2);
    store__finish(st);
    if (gone)
        return STORE_RESET_GONE;
    int rc = store__exec(db, SQL_USED, SV_ARGS(SV_STR(u->token_hash), SV_INT(u->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_PASSWORD, SV_ARGS(SV_STR(u->user_id), SV_STR(u->password_hash)));
    if (rc == STORE_DONE &&
        (rc = store__exec(db, SQL_SESSIONS, SV_ARGS(SV_STR(u->user_id)))) == STORE_DONE)
        *u->revoked = store__changes(db);
    return rc == STORE_DONE ? STORE_RESET_DONE : rc;
}

static int use_job(struct store *db, void *arg)
{
    return use_at(db, arg);
}

int store_password_reset_use(struct store_writer *w, const char *token_hash,
                             const char *password_hash, int64_t now, char user_id[64],
                             int64_t *revoked)
{
    struct reset_use u = {token_hash, password_hash, now, user_id, revoked};
    *revoked = 0;
    return store_write(w, use_job, &u);
}
