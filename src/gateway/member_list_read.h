/* What a member list reads of presence, on a worker (member_list_read.c). */
#ifndef PRACA_GATEWAY_MEMBER_LIST_READ_H
#define PRACA_GATEWAY_MEMBER_LIST_READ_H
#include "state/member_list.h"
#include "state/presence.h"
#include "state/server.h"

/* "online", "idle" or "dnd" as the static string the lists compare, else "offline". */
const char *gateway__list_status_name(const char *s);
/* One user's shown status (a state_member_list_status_fn over the presence, arg). */
const char *gateway__list_status_one(void *arg, const char *user_id);
/* Channel cid's list of srv, every member's status and status text read first, in batches (one
 * round trip each with several nodes). NULL when out of memory or no such channel. */
struct state_member_list *gateway__list_build(struct presence *p, struct state_server *srv,
                                              const char *cid);

#endif
