/* Who receives a server's events: the bots installed there whose application has the intent
 * (read now, at publish time) and is not suspended. */
#ifndef PRACA_STORE_EVENTS_H
#define PRACA_STORE_EVENTS_H
#include <stddef.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"

/* Bot user IDs in a malloc'd array (*out, *n); STORE_DONE or an error. intent is a bit of
 * domain/intents.h. */
int store__event_recipients(struct store *db, const char *sid, int64_t intent,
                            char (**out)[UUID_LEN + 1], size_t *n);

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
