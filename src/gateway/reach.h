/*
 * The part of an audience connected here, kept for the next event to the same audience while
 * nobody connects or leaves: a channel's sends then walk a list of the users to write to
 * instead of matching the audience against every connected user again. I/O thread only.
 */
#ifndef PRACA_GATEWAY_REACH_H
#define PRACA_GATEWAY_REACH_H
#include "core/idset.h"
#include "gateway/internal.h"

/* Called with each connected user's first connection (the others follow c->next). The user's
 * connections may be dropped while it writes; the walk goes on safely. */
typedef void (*reach_fn)(struct gateway *gw, struct conn *first, void *arg);

void gateway__reach_each(struct gateway *gw, struct idset *to, reach_fn fn, void *arg);
/* Someone connected or left: every kept list is stale. */
void gateway__reach_changed(struct gateway *gw);
void gateway__reach_free(struct gateway *gw);

#endif
