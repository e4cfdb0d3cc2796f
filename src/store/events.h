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
int store_event_recipients(struct store *db, const char *sid, int64_t intent,
                           char (**out)[UUID_LEN + 1], size_t *n);

#endif
