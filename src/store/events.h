/* Who receives server events: the bots that are members of the server. */
#ifndef PRACA_STORE_EVENTS_H
#define PRACA_STORE_EVENTS_H
#include <stddef.h>

#include "core/uuid.h"
#include "store/db.h"

/* Bot user IDs in the server, in a malloc'd array (*out, *n); STORE_DONE or an error. */
int store_member_event_recipients(struct store *db, const char *sid, char (**out)[UUID_LEN + 1],
                                  size_t *n);

#endif
