/*
 * Where a message route acts: a channel (or thread) of a server that the caller can see, with
 * the caller's permissions there. A thread takes its parent channel's permissions.
 */
#ifndef PRACA_API_PLACE_H
#define PRACA_API_PLACE_H
#include <jansson.h>
#include <stddef.h>

#include "api/access.h"
#include "store/messages.h"

struct state_server;

/* A place holds what it reads until the request's handler is done (api__at_end): nothing to
 * release. */
struct place {
    struct state_server *srv; /* the server as read now (one reference, the request's) */
    const char *sid;
    const char *cid;
    int64_t channel;       /* the channel or thread at :cid, an index into srv */
    int64_t perm_channel;  /* the channel whose overwrites apply (the parent of a thread) */
    const char *type;      /* text, forum, voice or thread (in srv) */
    const char *parent_id; /* for a thread (in srv) */
    uint64_t perms;
    struct access a; /* last: large, and filled by api__access */
};

/* Loads :sid and :cid; answers 404 when the caller cannot see them. */
int api__place(struct api_call *c, struct place *p);
/* The same for a server and channel known to the caller (both IDs already valid). */
int api__place_at(struct api_call *c, const char *sid, const char *cid, struct place *p);
/* A place for a poster that is no member (a webhook): the channel or thread cid of sid, with
 * the permissions given; 404 when it is not there. */
int api__place_trusted(struct api_call *c, const char *sid, const char *cid, uint64_t perms,
                       struct place *p);
/* Loads :mid and checks it lives at this place: 404 otherwise. */
int api__place_message(struct api_call *c, const struct place *p, const char **mid,
                       struct store_message_ref *ref);
int api__place_message_at(struct api_call *c, const struct place *p, const char *mid,
                          struct store_message_ref *ref);

#endif
