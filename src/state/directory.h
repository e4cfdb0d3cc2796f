/*
 * The server directory as people browse it: a snapshot of the discoverable servers (name,
 * description, tags, icon link, member and online counts) read from the store and kept for
 * refresh_ms, so a search costs a walk over memory, not a count over every member. A snapshot
 * older than that, or marked stale by a change made on this node (a server made discoverable,
 * renamed, described, joined) and at least a second old, is read again by the next request
 * while the others go on with the old one. Counting who is online walks the members of the listed
 * servers once per snapshot. Thread-safe.
 */
#ifndef PRACA_STATE_DIRECTORY_H
#define PRACA_STATE_DIRECTORY_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "state/presence.h"
#include "store/db.h"

struct directory;

struct directory *state_directory_new(int64_t refresh_ms);
void state_directory_free(struct directory *d);
/* A listed server changed here: the next request reads the directory again. */
void state_directory_stale(struct directory *d);

struct directory_query {
    const char *q; /* words, each found in the name, description or tags ("" or NULL: all) */
    size_t q_len;
    const char *tag; /* a folded tag the server carries, or NULL */
    size_t offset, limit;
};
/* The page of servers the query finds, in the directory's order
 * ({id, name, description, tags, iconUrl, memberCount, onlineCount, createdAt} each), and in
 * *total how many it finds in all. NULL on a storage error or out of memory. */
json_t *state_directory_list(struct directory *d, struct store *db, struct presence *p,
                             const struct directory_query *q, size_t *total);
/* Server sid's entry (a new reference), or NULL when it is not listed; *rc < 0 on an error. */
json_t *state_directory_entry(struct directory *d, struct store *db, struct presence *p,
                              const char *sid, int *rc);
/* The 20 most used tags, most first, as [{tag, count}]: a reference (json_decref), or NULL. */
json_t *state_directory_tags(struct directory *d, struct store *db, struct presence *p);

#endif
