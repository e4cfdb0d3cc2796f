/* Deleting one's account: what stands in the way (servers one owns), and the erasing of what
 * was the person's (sessions, profile, blocks, links, read marks), leaving the row as "Conta
 * apagada" so that their messages keep an author. Leaving servers and deleting applications go
 * through their own writes, for their events. */
#ifndef PRACA_STORE_ACCOUNTS_H
#define PRACA_STORE_ACCOUNTS_H
#include <jansson.h>

#include "store/db.h"
#include "store/writer.h"

#define STORE_DELETED_NAME "Conta apagada"
#define STORE_NAME_HELD_MS (30LL * 24 * 3600 * 1000)

/* [{id, name}] of the servers user_id owns (NULL on error). */
json_t *store_servers_owned_json(struct store *db, const char *user_id);
/* The ids of the applications user_id owns (NULL on error). */
json_t *store_apps_owned_ids(struct store *db, const char *user_id);

struct store_account_erase {
    const char *user_id;
    int64_t now;
};
/* Erases the person's own data and marks the account deleted; STORE_DONE, or an error. */
int store_account_erase(struct store_writer *w, struct store_account_erase *e);
/* Whether the other person of DM cid (for uid) deleted their account: 1, 0, < 0 error. */
int store_dm_partner_deleted(struct store *db, const char *cid, const char *uid);
/* In the transaction that makes an account: frees username when a deleted account has held it
 * for STORE_NAME_HELD_MS (its row keeps a name of its own). */
int store__account_name_release(struct store *db, const char *username, int64_t now);

#endif
