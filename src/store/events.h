/* Who may receive a server's events, read from SQL: the bots installed and members there whose
 * application has the intent and is not suspended. The in-memory state answers this on the hot
 * paths (state/server.h); its differential test checks it against this. */
#ifndef PRACA_STORE_EVENTS_H
#define PRACA_STORE_EVENTS_H
#include <stddef.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"

/* What channel visibility needs for each candidate bot: one row per (bot, role) of the bots
 * installed in sid with the intent, not suspended. */
struct store_bot_standing {
    char bot_user_id[UUID_LEN + 1];
    int64_t timeout_until;
    size_t nroles;
    char (*role_ids)[UUID_LEN + 1]; /* owned */
    uint64_t *role_perms;           /* owned */
};
/* A malloc'd array of standings (*out, *n), free with store__bot_standings_free. */
int store__bot_standings(struct store *db, const char *sid, int64_t intent,
                         struct store_bot_standing **out, size_t *n);
void store__bot_standings_free(struct store_bot_standing *list, size_t n);

#endif
