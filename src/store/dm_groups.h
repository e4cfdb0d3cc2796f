/* Group conversations: a DM channel of up to STORE_DM_GROUP_MAX people, with a name and an
 * owner, that anyone in it may add to and leave; only the owner removes others. */
#ifndef PRACA_STORE_DM_GROUPS_H
#define PRACA_STORE_DM_GROUPS_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

#define STORE_DM_GROUP_MAX 10

struct store_dm_group_new {
    const char *id, *owner, *name;
    const char *const *people; /* the others, without the owner */
    size_t n;
    int64_t now;
};
/* A new group of the owner and the people (each sharing a server with the owner, else
 * STORE_REFUSED; more than STORE_DM_GROUP_MAX in all: STORE_FULL). */
int store_dm_group_create(struct store_writer *w, struct store_dm_group_new *arg);

/* Whether DM cid is a group: 1 (owner copied into owner, "" when it has none), 0 a pair's,
 * STORE_MISSING not a DM, < 0 an error. */
int store_dm_group_of(struct store *db, const char *cid, char owner[40]);

/* uid joins group cid: STORE_DONE (also when uid was in it), STORE_FULL at the cap. */
int store_dm_group_add(struct store_writer *w, const char *cid, const char *uid, int64_t now);
/* uid leaves group cid (*changes 0 when uid was not in it); an owner who leaves hands the group
 * to the person there longest. */
int store_dm_group_remove(struct store_writer *w, const char *cid, const char *uid,
                          int64_t *changes);
int store_dm_group_rename(struct store_writer *w, const char *cid, const char *name);

/* A group row of a DM list gains `people`: the others in it, in the order they joined, each
 * {id, username, displayName, avatarUrl}; the pair's fields go. 0, or < 0 an error. */
int store__dm_group_people(struct store *db, json_t *dm, const char *me);

/* Whether a and b share a server: 1, 0, < 0 an error (nobody is written to by strangers). */
int store_people_share_server(struct store *db, const char *a, const char *b);

#endif
