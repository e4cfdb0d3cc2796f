/*
 * A set of user IDs, built once and then shared read-only between threads.
 *
 * An event's audience is one of these: the API builds it on a worker, the gateway walks it on
 * the I/O thread, and the recovery window keeps it while the event is replayable. Sharing one
 * reference-counted set instead of copying the IDs keeps an event's cost independent of how
 * many bots may receive it. Membership is a hash lookup; the IDs keep their insertion order.
 *
 * A set may also be a persistent map's keys (core/pmap.h): the state keeps each audience that
 * way, so a member who joins or leaves makes a new set that shares all but a path with the old.
 */
#ifndef PRACA_CORE_IDSET_H
#define PRACA_CORE_IDSET_H
#include <stddef.h>

#include "core/pmap.h"
#include "core/uuid.h"

struct idset;

/* A set that can hold up to cap IDs; NULL when out of memory. One reference. */
struct idset *idset_new(size_t cap);
/* Adds id (a UUID); a repeated ID is kept once. Only before the set is shared.
 * Returns 0, or -1 when the set is full or id is not UUID_LEN long. */
int idset_add(struct idset *s, const char *id);
/* The same for an ID of len bytes at id, none of them NUL, not NUL-terminated (a field of a
 * list). */
int idset_add_n(struct idset *s, const char *id, size_t len);
/* A set of the given IDs (n may be 0). */
struct idset *idset_of(const char (*ids)[UUID_LEN + 1], size_t n);
/* The IDs of those of the n sets (NULL ones skipped) that hold at most max_each (0: any size),
 * but skip (may be NULL), each once, in the sets' order; NULL when out of memory. */
struct idset *idset_union(struct idset *const *sets, size_t n, size_t max_each, const char *skip);
/* A set of the keys of m, whose handle it takes over (m is left empty); NULL when out of memory
 * (m is cleaned up). */
struct idset *idset_of_pmap(struct pmap *m);
/* The persistent map of a set made by idset_of_pmap, else NULL. */
const struct pmap *idset_pmap(const struct idset *s);
size_t idset_count(const struct idset *s);
/* Calls fn for each ID: in insertion order, or in no particular order for a map's keys. */
void idset_each(const struct idset *s, void (*fn)(const char *id, void *arg), void *arg);
int idset_has(const struct idset *s, const char *id);
/* The IDs as a malloc'd array (*to NULL when none): 0, or -1 when out of memory. */
int idset_copy_out(const struct idset *s, char (**to)[UUID_LEN + 1], size_t *n);
/* Thread-safe reference counting; idset_unref(NULL) does nothing. */
struct idset *idset_ref(struct idset *s);
void idset_unref(struct idset *s);

#endif
