/*
 * The part of an audience connected here, kept for the next event to the same audience and
 * changed in place as people connect and leave: a channel's sends then walk a list of the users
 * to write to instead of matching the audience against every connected user again. I/O thread
 * only.
 */
#ifndef PRACA_GATEWAY_REACH_H
#define PRACA_GATEWAY_REACH_H
#include "core/idset.h"
#include "gateway/internal.h"

/* Called with each connected user's first connection (the others follow c->next). The user's
 * connections may be dropped while it writes; the walk goes on safely. */
typedef void (*reach_fn)(struct gateway *gw, struct conn *first, void *arg);

void gateway__reach_each(struct gateway *gw, struct idset *to, reach_fn fn, void *arg);
/* user_id's first connection (users map) went from was to now; NULL: not connected. Called
 * after the map changed. */
void gateway__reach_moved(struct gateway *gw, const char *user_id, struct conn *was,
                          struct conn *now);
/* How many lists were made so far, kept or walked once (a made list costs what matching the
 * audience against who is connected costs). */
uint64_t gateway__reach_made(const struct gateway *gw);
void gateway__reach_free(struct gateway *gw);

#endif
