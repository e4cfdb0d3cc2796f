/* What an operator's `praca admin` reads and changes, straight on the database file. */
#ifndef PRACA_STORE_ADMIN_H
#define PRACA_STORE_ADMIN_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"

/* People, newest first: [{id, username, displayName, createdAt, mfaEnabled, sessions}]. */
json_t *store_admin_people(struct store *db, int64_t limit);
/* Applications, newest first: [{id, name, owner, createdAt, installs, suspended}]. */
json_t *store_admin_apps(struct store *db, int64_t limit);
/* Deletes every session of the person with this ID or username; 1 found (with *revoked set),
 * 0 no such person, < 0 error. */
int store_admin_revoke_sessions(struct store *db, const char *who, int64_t *revoked);
/* Turns a person's two-factor off (a lost phone and lost recovery codes): 1, 0 no such person. */
int store_admin_reset_mfa(struct store *db, const char *who);

#endif
