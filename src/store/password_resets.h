/*
 * One-time links to set a new password: `praca admin reset-password` makes one (only the
 * token's hash is kept), and the reset page uses it once, within the hour.
 */
#ifndef PRACA_STORE_PASSWORD_RESETS_H
#define PRACA_STORE_PASSWORD_RESETS_H

#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

#define STORE_RESET_VALID_MS (60 * 60 * 1000)

/* A link for the person `who` (an ID or a username; not a bot), valid until expires_at: 1 made,
 * 0 no such person, < 0 a storage error. Outside a server, on the command's own connection. */
int store_password_reset_make(struct store *db, const char *who, const char *token_hash,
                              int64_t expires_at);

/* Whether a link is there to be used (not used, not expired, at now): an enum store_reset_use
 * without changing anything, or < 0 on a storage error. Read before the password is hashed. */
int store_password_reset_usable(struct store *db, const char *token_hash, int64_t now);

enum store_reset_use {
    STORE_RESET_DONE = 1,    /* the password is set and every session of the person ended */
    STORE_RESET_UNKNOWN = 0, /* no such link */
    STORE_RESET_GONE = 2,    /* used already, or past its hour */
};

/* Uses the link once, in one transaction: its person's password becomes password_hash and
 * their sessions end (*revoked of them); user_id gets the person. An enum store_reset_use, or
 * < 0 on a storage error. */
int store_password_reset_use(struct store_writer *w, const char *token_hash,
                             const char *password_hash, int64_t now, char user_id[64],
                             int64_t *revoked);

#endif
