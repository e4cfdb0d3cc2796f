/* People and tokens: see people.h. */
#include "store/people.h"
#include "store/fields.h"

#include "core/clock.h"
#include "core/buf.h"
#include "store/accounts.h"
#include "store/avatars.h"
#include "store/rows.h"
#include "store/writer.h"

static const struct store_col USER_COLS[] = {
    {"id", COL_TEXT},    {"username", COL_TEXT},   {"displayName", COL_TEXT},
    {"isBot", COL_BOOL}, {"mfaEnabled", COL_BOOL}, {"createdAt", COL_TIME},
};

int store_token_find(struct store *db, const char *hash, struct store_token_owner *out)
{
    static const char *SQL =
        "SELECT t.user_id, u.is_bot, a.id, COALESCE(a.suspended, 0),"
        " COALESCE(t.last_used_at, t.created_at) FROM tokens t"
        " JOIN users u ON u.id = t.user_id LEFT JOIN applications a ON a.bot_user_id = u.id"
        " WHERE t.hash = $1";
    static const struct store_field FIELDS[] = {
        STORE_FIELD_TEXT(struct store_token_owner, user_id),
        STORE_FIELD_INT(struct store_token_owner, is_bot),
        STORE_FIELD_TEXT(struct store_token_owner, app_id), /* "" for people (NULL) */
        STORE_FIELD_INT(struct store_token_owner, suspended),
        STORE_FIELD_INT(struct store_token_owner, last_used),
    };
    return store__row_fields(db, SQL, hash, STORE_FIELDS(FIELDS), out, sizeof *out);
}

long store_bot_tokens_each(struct store *db, long max,
                           void (*fn)(void *arg, const char *hash,
                                      const struct store_token_owner *owner),
                           void *arg)
{
    static const char *SQL =
        "SELECT t.hash, t.user_id, a.id, COALESCE(a.suspended, 0) FROM tokens t"
        " JOIN users u ON u.id = t.user_id JOIN applications a ON a.bot_user_id = u.id"
        " WHERE u.is_bot = 1 LIMIT $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_INT(max)));
    if (!st)
        return STORE_ERR;
    long n = 0;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        struct store_token_owner o = {.is_bot = 1};
        store__text_copy(st, 1, o.user_id, sizeof o.user_id);
        store__text_copy(st, 2, o.app_id, sizeof o.app_id);
        o.suspended = (int)store__int(st, 3);
        fn(arg, store__text(st, 0), &o);
        n++;
    }
    store__finish(st);
    return rc < 0 ? rc : n;
}

int store_login_find(struct store *db, const char *username, struct store_login *out)
{
    static const char *SQL = "SELECT id, password_hash, mfa_secret, mfa_enabled, mfa_last_step"
                             " FROM users WHERE username = $1 AND is_bot = 0"
                             " AND deleted_at IS NULL";
    int found;
    struct store_stmt *st = store__row(db, SQL, username, &found);
    if (st) {
        const char *secret = store__text(st, 2);
        store__text_copy(st, 0, out->id, sizeof out->id);
        store__text_copy(st, 1, out->password_hash, sizeof out->password_hash);
        if (slice_copy(slice_from(secret ? secret : ""), out->mfa_secret, sizeof out->mfa_secret))
            out->mfa_secret[0] = '\0';
        out->mfa_enabled = (int)store__int(st, 3);
        out->mfa_last_step = store__int(st, 4);
        store__finish(st);
    }
    return found;
}

int store_password_hash(struct store *db, const char *user_id, char out[CRYPTO_PASSWORD_MAX])
{
    static const char *SQL = "SELECT password_hash FROM users WHERE id = $1 AND is_bot = 0";
    int found;
    struct store_stmt *st = store__row(db, SQL, user_id, &found);
    if (st) {
        store__text_copy(st, 0, out, CRYPTO_PASSWORD_MAX);
        store__finish(st);
    }
    return found;
}

json_t *store_user_json(struct store *db, const char *id, int *rc)
{
    static const char *SQL = "SELECT id, username, display_name, is_bot, mfa_enabled, created_at"
                             " FROM users WHERE id = $1";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(id)), STORE_COLS(USER_COLS), rc);
}

static const struct store_col PROFILE_COLS[] = {
    {"id", COL_TEXT},        {"username", COL_TEXT}, {"displayName", COL_TEXT},
    {"isBot", COL_BOOL},     {"about", COL_TEXT},    {"bannerColor", COL_INT},
    {"avatarUrl", COL_TEXT}, {"deleted", COL_BOOL},  {"imported", COL_BOOL},
};

json_t *store_user_profile_json(struct store *db, const char *id, int *rc)
{
    static const char *SQL =
        "SELECT id, username, display_name, is_bot, about, banner_color,"
        " " STORE_AVATAR_URL_SQL("users") ","
                                          " CASE WHEN deleted_at IS NULL THEN 0 ELSE 1 END, "
                                          "imported FROM users WHERE id = $1";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(id)), STORE_COLS(PROFILE_COLS), rc);
}

static int profile_set_at(struct store *db, struct store_profile_patch *p)
{
    static const char *SQL_NAME =
        "UPDATE users SET display_name = COALESCE($2, username) WHERE id = $1 AND is_bot = 0";
    static const char *SQL_ABOUT = "UPDATE users SET about = $2 WHERE id = $1 AND is_bot = 0";
    static const char *SQL_BANNER =
        "UPDATE users SET banner_color = $2 WHERE id = $1 AND is_bot = 0";
    int rc = STORE_DONE;
    if (p->set_display_name)
        rc = store__exec(db, SQL_NAME, SV_ARGS(SV_STR(p->user_id), SV_STR(p->display_name)));
    if (rc == STORE_DONE && p->set_about)
        rc = store__exec(db, SQL_ABOUT, SV_ARGS(SV_STR(p->user_id), SV_STR(p->about)));
    if (rc == STORE_DONE && p->set_banner_color)
        rc = store__exec(
            db, SQL_BANNER,
            SV_ARGS(SV_STR(p->user_id), p->banner_color < 0 ? SV_NULLV : SV_INT(p->banner_color)));
    return rc;
}

STORE_WRITE_AS(store_user_profile_set, struct store_profile_patch, profile_set_at)

int store_user_kind(struct store *db, const char *id, int *is_bot)
{
    static const char *SQL = "SELECT is_bot FROM users WHERE id = $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        *is_bot = (int)store__int(st, 0);
    store__finish(st);
    return store_found(rc);
}

static int user_create_at(struct store *db, struct store_new_user *u)
{
    static const char *SQL_USER =
        "INSERT INTO users (id, username, display_name, password_hash, created_at)"
        " VALUES ($1, $2, $3, $4, $5)";
    static const char *SQL_TOKEN = "INSERT INTO tokens (hash, user_id, kind, created_at, device,"
                                   " address) VALUES ($1, $2, 'session', $3, $4, $5)";
    int rc = store__account_name_release(db, u->username, u->now);
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_USER,
                         SV_ARGS(SV_STR(u->id), SV_STR(u->username), SV_STR(u->display_name),
                                 SV_STR(u->password_hash), SV_INT(u->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_TOKEN,
                         SV_ARGS(SV_STR(u->token_hash), SV_STR(u->id), SV_INT(u->now),
                                 SV_STR(u->device), SV_STR(u->address)));
    return rc;
}

STORE_WRITE_AS(store_user_create, struct store_new_user, user_create_at)

int store_session_create(struct store_writer *w, const char *hash, const char *user_id,
                         const char *device, const char *address)
{
    static const char *SQL = "INSERT INTO tokens (hash, user_id, kind, created_at, device, address)"
                             " VALUES ($1, $2, 'session', $3, $4, $5)";
    return store__write_exec(w, SQL,
                             SV_ARGS(SV_STR(hash), SV_STR(user_id), SV_INT(clock_now_ms()),
                                     SV_STR(device), SV_STR(address)),
                             NULL);
}

static const struct store_col SESSION_COLS[] = {
    {"id", COL_TEXT},        {"device", COL_TEXT},     {"address", COL_TEXT},
    {"createdAt", COL_TIME}, {"lastUsedAt", COL_TIME}, {"current", COL_BOOL},
};

json_t *store_sessions_json(struct store *db, const char *user_id, const char *current_hash)
{
    static const char *SQL =
        "SELECT substr(hash, 1, 16), device, address, created_at,"
        " COALESCE(last_used_at, created_at), CASE WHEN hash = $2 THEN 1 ELSE 0 END"
        " FROM tokens WHERE user_id = $1 AND kind = 'session'"
        " ORDER BY COALESCE(last_used_at, created_at) DESC LIMIT 100";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(user_id), SV_STR(current_hash)),
                            STORE_COLS(SESSION_COLS));
}

int store_session_by_id(struct store *db, const char *user_id, const char *id, char hash[65])
{
    static const char *SQL = "SELECT hash FROM tokens WHERE user_id = $1 AND kind = 'session'"
                             " AND substr(hash, 1, 16) = $2";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(user_id), SV_STR(id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW)
        store__text_copy(st, 0, hash, 65);
    store__finish(st);
    return store_found(rc);
}

int store_token_delete(struct store_writer *w, const char *hash)
{
    static const char *SQL = "DELETE FROM tokens WHERE hash = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(hash)), NULL);
}

int store_mfa_set_secret(struct store_writer *w, const char *user_id, const char *secret)
{
    static const char *SQL = "UPDATE users SET mfa_secret = $2 WHERE id = $1 AND mfa_enabled = 0";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(user_id), SV_STR(secret)), NULL);
}

int store_mfa_enable(struct store_writer *w, const char *user_id)
{
    static const char *SQL = "UPDATE users SET mfa_enabled = 1 WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(user_id)), NULL);
}

static int recovery_replace_job(struct store *db, void *arg)
{
    static const char *SQL_DROP = "DELETE FROM mfa_recovery_codes WHERE user_id = $1";
    static const char *SQL_ADD =
        "INSERT INTO mfa_recovery_codes (user_id, code_hash) VALUES ($1, $2)";
    struct store_mfa_recovery *set = arg;
    int rc = store__exec(db, SQL_DROP, SV_ARGS(SV_STR(set->user_id)));
    for (size_t i = 0; i < STORE_MFA_RECOVERY_CODES && rc == STORE_DONE; i++)
        rc = store__exec(db, SQL_ADD, SV_ARGS(SV_STR(set->user_id), SV_STR(set->hashes[i])));
    return rc;
}

int store_mfa_recovery_replace(struct store_writer *w, struct store_mfa_recovery *set)
{
    return store_write(w, recovery_replace_job, set);
}

int store_mfa_recovery_use(struct store_writer *w, const char *user_id, const char *hash)
{
    static const char *SQL = "UPDATE mfa_recovery_codes SET used_at = $3 WHERE user_id = $1"
                             " AND code_hash = $2 AND used_at IS NULL";
    int64_t changes = 0;
    int rc = store__write_exec(
        w, SQL, SV_ARGS(SV_STR(user_id), SV_STR(hash), SV_INT(clock_now_ms())), &changes);
    return rc < 0 ? rc : changes == 1;
}

int64_t store_mfa_recovery_left(struct store *db, const char *user_id)
{
    static const char *SQL =
        "SELECT count(*) FROM mfa_recovery_codes WHERE user_id = $1 AND used_at IS NULL";
    return store__number(db, SQL, user_id);
}

int store__mfa_disable_at(struct store *db, const char *user_id)
{
    static const char *SQL_USER = "UPDATE users SET mfa_enabled = 0, mfa_secret = NULL,"
                                  " mfa_last_step = 0 WHERE id = $1";
    static const char *SQL_CODES = "DELETE FROM mfa_recovery_codes WHERE user_id = $1";
    int rc = store__exec(db, SQL_USER, SV_ARGS(SV_STR(user_id)));
    return rc == STORE_DONE ? store__exec(db, SQL_CODES, SV_ARGS(SV_STR(user_id))) : rc;
}

struct mfa_disable {
    const char *user_id;
};

static int mfa_disable_job(struct store *db, void *arg)
{
    return store__mfa_disable_at(db, ((const struct mfa_disable *)arg)->user_id);
}

int store_mfa_disable(struct store_writer *w, const char *user_id)
{
    struct mfa_disable d = {user_id};
    return store_write(w, mfa_disable_job, &d);
}

int store_mfa_use_step(struct store_writer *w, const char *user_id, int64_t step)
{
    static const char *SQL =
        "UPDATE users SET mfa_last_step = $2 WHERE id = $1 AND mfa_last_step < $2";
    int64_t changes = 0;
    int rc = store__write_exec(w, SQL, SV_ARGS(SV_STR(user_id), SV_INT(step)), &changes);
    return rc < 0 ? rc : changes == 1;
}

int store_session_touch(struct store_writer *w, const char *hash, int64_t now)
{
    static const char *SQL =
        "UPDATE tokens SET last_used_at = $2 WHERE hash = $1 AND kind = 'session'";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(hash), SV_INT(now)), NULL);
}

int store_sessions_revoke(struct store_writer *w, const char *user_id, const char *keep_hash,
                          int64_t *revoked)
{
    static const char *SQL =
        "DELETE FROM tokens WHERE user_id = $1 AND kind = 'session' AND hash <> $2";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(user_id), SV_STR(keep_hash ? keep_hash : "")),
                             revoked);
}

int store_password_set(struct store_writer *w, const char *user_id, const char *hash)
{
    static const char *SQL = "UPDATE users SET password_hash = $2 WHERE id = $1 AND is_bot = 0";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(user_id), SV_STR(hash)), NULL);
}

int store_user_locale_set(struct store_writer *w, const char *user_id, const char *locale)
{
    static const char *SQL = "UPDATE users SET locale = $2 WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(user_id), SV_STR(locale)), NULL);
}

int store_user_locale(struct store *db, const char *user_id, char out[LOCALE_TAG_MAX + 1])
{
    static const char *SQL = "SELECT COALESCE(locale, '') FROM users WHERE id = $1";
    int found;
    struct store_stmt *st = store__row(db, SQL, user_id, &found);
    out[0] = 0;
    if (st) {
        store__text_copy(st, 0, out, LOCALE_TAG_MAX + 1);
        store__finish(st);
    }
    return found;
}
