/* People and their tokens in the database. IDs are UUID text; hashes are SHA-256 hex. */
#ifndef PRACA_STORE_PEOPLE_H
#define PRACA_STORE_PEOPLE_H
#include <jansson.h>

#include "domain/locales.h"

#include "core/crypto.h"
#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

struct store_token_owner {
    char user_id[UUID_LEN + 1];
    int is_bot;
    char app_id[UUID_LEN + 1]; /* a bot's application; "" for people */
    int suspended;             /* the bot's application is suspended */
    int64_t last_used;         /* a session's last recorded use (ms); bots: creation */
};

struct store_login {
    char id[UUID_LEN + 1];
    char password_hash[CRYPTO_PASSWORD_MAX];
    char mfa_secret[CRYPTO_TOTP_SECRET + 1];
    int mfa_enabled;
    int64_t mfa_last_step;
};

struct store_new_user {
    const char *id, *username, *display_name, *password_hash;
    const char *token_hash;       /* the first session */
    const char *device, *address; /* where it was made (may be NULL) */
    int64_t now;
};

/* 1 found, 0 unknown, < 0 error. */
int store_token_find(struct store *db, const char *hash, struct store_token_owner *out);
/* Calls fn with each bot token (hash and owner), at most max of them. Returns how many, or an
 * error (< 0). */
long store_bot_tokens_each(struct store *db, long max,
                           void (*fn)(void *arg, const char *hash,
                                      const struct store_token_owner *owner),
                           void *arg);
int store_login_find(struct store *db, const char *username, struct store_login *out);
/* A person's password hash into out: 1, 0 unknown, < 0 error. */
int store_password_hash(struct store *db, const char *user_id, char out[CRYPTO_PASSWORD_MAX]);
/* The user object {id, username, displayName, isBot, mfaEnabled, createdAt}; NULL when unknown
 * (*rc STORE_DONE) or on error. */
json_t *store_user_json(struct store *db, const char *id, int *rc);
/* 1 when the user exists and is a person (not a bot); 0 unknown or bot; < 0 error. */
/* The account's language (domain/locales.h), "" when it never chose one. Returns 1 found, 0
 * not, -1 error. */
int store_user_locale(struct store *db, const char *user_id, char out[LOCALE_TAG_MAX + 1]);
/* locale NULL: back to the browser's. */
int store_user_locale_set(struct store_writer *w, const char *user_id, const char *locale);
int store_user_kind(struct store *db, const char *id, int *is_bot);

/* Writes (run them with store_write). */
int store_user_create(struct store_writer *w,
                      struct store_new_user *arg); /* STORE_CONSTRAINT: name taken */
/* A session made from device (the User-Agent) at address; either may be NULL. */
int store_session_create(struct store_writer *w, const char *hash, const char *user_id,
                         const char *device, const char *address);
/* A person's sessions, [{id, device, address, createdAt, lastUsedAt, current}], the most
 * recently used first; id is the first 16 hex digits of the token's hash, and current marks
 * current_hash's. NULL on a storage error. */
json_t *store_sessions_json(struct store *db, const char *user_id, const char *current_hash);
/* The full hash of uid's session whose id is `id`: 1 found, 0 not, < 0 error. */
int store_session_by_id(struct store *db, const char *user_id, const char *id, char hash[65]);
int store_token_delete(struct store_writer *w, const char *hash);
/* Records a session's use (kept coarse by the caller: it is a write). */
int store_session_touch(struct store_writer *w, const char *hash, int64_t now);
/* Deletes a person's sessions except keep_hash (NULL: all); *revoked gets how many. */
int store_sessions_revoke(struct store_writer *w, const char *user_id, const char *keep_hash,
                          int64_t *revoked);
int store_password_set(struct store_writer *w, const char *user_id, const char *hash);

/* A person's profile: the User object's fields plus about and bannerColor (null when unset). */
json_t *store_user_profile_json(struct store *db, const char *id, int *rc);
/* What a person changes of it; each set_ field says whether its value is given (NULL, or -1 for
 * the colour, clears it; a NULL display name is the username again). */
struct store_profile_patch {
    const char *user_id;
    int set_display_name, set_about, set_banner_color;
    const char *display_name, *about;
    int64_t banner_color;
};
int store_user_profile_set(struct store_writer *w, struct store_profile_patch *p);
int store_mfa_set_secret(struct store_writer *w, const char *user_id, const char *secret);
int store_mfa_enable(struct store_writer *w, const char *user_id);
/* Accepts a TOTP step only once: 1 when it was newer than the last one used, else 0. */
int store_mfa_use_step(struct store_writer *w, const char *user_id, int64_t step);

#define STORE_MFA_RECOVERY_CODES 10
/* Replaces the person's recovery codes with these (their SHA-256, hex). */
struct store_mfa_recovery {
    const char *user_id;
    char hashes[STORE_MFA_RECOVERY_CODES][65];
};
int store_mfa_recovery_replace(struct store_writer *w, struct store_mfa_recovery *set);
/* Uses one up: 1 when it was one of the person's and unused, else 0. */
int store_mfa_recovery_use(struct store_writer *w, const char *user_id, const char *hash);
/* How many are left unused; < 0 on error. */
int64_t store_mfa_recovery_left(struct store *db, const char *user_id);
/* Two-factor off: its secret and recovery codes gone (the second on a connection of one's own,
 * for praca admin). */
int store_mfa_disable(struct store_writer *w, const char *user_id);
int store__mfa_disable_at(struct store *db, const char *user_id);

#endif
