/* People's e-mail addresses: see emails.h. */
#include "store/emails.h"

#include <string.h>

#include "store/rows.h"

int store_email_of(struct store *db, const char *user_id, char out[STORE_EMAIL_MAX + 1])
{
    static const char *SQL = "SELECT email FROM users WHERE id = $1";
    int found;
    struct store_stmt *st = store__row(db, SQL, user_id, &found);
    out[0] = '\0';
    if (st) {
        store__text_copy(st, 0, out, STORE_EMAIL_MAX + 1);
        store__finish(st);
    }
    return found;
}

int store_email_taken(struct store *db, const char *email, const char *user_id)
{
    static const char *SQL = "SELECT 1 FROM users WHERE email = $1 AND id <> $2";
    return store__exists(db, SQL, SV_ARGS(SV_STR(email), SV_STR(user_id)));
}

static int code_set_at(struct store *db, struct store_email_code *c)
{
    static const char *SQL_OLD = "DELETE FROM email_codes WHERE user_id = $1";
    static const char *SQL = "INSERT INTO email_codes (user_id, email, code_hash, expires_at)"
                             " VALUES ($1, $2, $3, $4)";
    int rc = store__exec(db, SQL_OLD, SV_ARGS(SV_STR(c->user_id)));
    return rc == STORE_DONE ? store__exec(db, SQL,
                                          SV_ARGS(SV_STR(c->user_id), SV_STR(c->email),
                                                  SV_STR(c->code_hash), SV_INT(c->expires_at)))
                            : rc;
}

STORE_WRITE_AS(store_email_code_set, struct store_email_code, code_set_at)

static int verify_at(struct store *db, struct store_email_verify *v)
{
    static const char *SQL_CODE =
        "SELECT email, code_hash, expires_at, tries FROM email_codes WHERE user_id = $1";
    static const char *SQL_TRY = "UPDATE email_codes SET tries = tries + 1 WHERE user_id = $1";
    static const char *SQL_DONE = "DELETE FROM email_codes WHERE user_id = $1";
    static const char *SQL_SET = "UPDATE users SET email = $2 WHERE id = $1";
    static const char *SQL_TAKEN = "SELECT 1 FROM users WHERE email = $1 AND id <> $2";
    char email[STORE_EMAIL_MAX + 1], hash[CRYPTO_SHA256_HEX + 1];
    int found;
    struct store_stmt *st = store__row(db, SQL_CODE, v->user_id, &found);
    if (!st) {
        v->verdict = STORE_EMAIL_GONE;
        return found < 0 ? found : STORE_DONE;
    }
    store__text_copy(st, 0, email, sizeof email);
    store__text_copy(st, 1, hash, sizeof hash);
    int64_t expires = store__int(st, 2), tries = store__int(st, 3);
    store__finish(st);
    if (expires <= v->now || tries >= STORE_EMAIL_CODE_TRIES) {
        v->verdict = STORE_EMAIL_GONE;
        return store__exec(db, SQL_DONE, SV_ARGS(SV_STR(v->user_id)));
    }
    if (strcmp(hash, v->code_hash)) {
        v->verdict = STORE_EMAIL_WRONG;
        return store__exec(db, SQL_TRY, SV_ARGS(SV_STR(v->user_id)));
    }
    int taken = store__exists(db, SQL_TAKEN, SV_ARGS(SV_STR(email), SV_STR(v->user_id)));
    if (taken < 0)
        return taken;
    v->verdict = taken ? STORE_EMAIL_TAKEN : STORE_EMAIL_VERIFIED;
    int rc =
        taken ? STORE_DONE : store__exec(db, SQL_SET, SV_ARGS(SV_STR(v->user_id), SV_STR(email)));
    return rc == STORE_DONE ? store__exec(db, SQL_DONE, SV_ARGS(SV_STR(v->user_id))) : rc;
}

STORE_WRITE_AS(store_email_verify, struct store_email_verify, verify_at)

static int clear_at(struct store *db, const char *user_id)
{
    static const char *SQL_CODE = "DELETE FROM email_codes WHERE user_id = $1";
    static const char *SQL = "UPDATE users SET email = NULL WHERE id = $1";
    int rc = store__exec(db, SQL_CODE, SV_ARGS(SV_STR(user_id)));
    return rc == STORE_DONE ? store__exec(db, SQL, SV_ARGS(SV_STR(user_id))) : rc;
}

static int clear_job(struct store *db, void *arg)
{
    return clear_at(db, arg);
}

int store_email_clear(struct store_writer *w, const char *user_id)
{
    return store_write(w, clear_job, (void *)user_id);
}

static int reset_at(struct store *db, struct store_email_reset *r)
{
    static const char *SQL_FIND = "SELECT id FROM users WHERE email = $1 AND is_bot = 0"
                                  " AND deleted_at IS NULL";
    static const char *SQL = "INSERT INTO password_resets (token_hash, user_id, expires_at)"
                             " VALUES ($1, $2, $3)";
    int found;
    struct store_stmt *st = store__row(db, SQL_FIND, r->email, &found);
    r->user_id[0] = '\0';
    if (!st)
        return found < 0 ? found : STORE_DONE;
    store__text_copy(st, 0, r->user_id, sizeof r->user_id);
    store__finish(st);
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(r->token_hash), SV_STR(r->user_id), SV_INT(r->expires_at)));
}

STORE_WRITE_AS(store_email_reset_make, struct store_email_reset, reset_at)
