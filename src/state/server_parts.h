/* What the three files of one server in memory share, and nothing outside state/ reads: server.c
 * builds a version from the database's rows and reads it, server_audience.c works out and keeps
 * who receives an event, server_change.c makes a new version from changes. */
#ifndef PRACA_STATE_SERVER_PARTS_H
#define PRACA_STATE_SERVER_PARTS_H

#include "core/idset.h"
#include "core/pmap.h"
#include "core/uuid.h"
#include "state/server.h"
#include "store/snapshot.h"

#define STATE_MAP_ENTRY 40 /* about what one entry costs a persistent map, for the footprint */
#define STATE_BOT_BYTES                                                                            \
    ((int64_t)(sizeof(struct state_bot) + 2 * STATE_MAP_ENTRY)) /* bots, apps                      \
                                                                 */

/* One audience a version keeps: computed on first use, carried to the next version. */
struct state_audience {
    struct idset *set;   /* a persistent map's keys: member records by user ID */
    int64_t valid_until; /* the first bot timeout that ends after it was computed; 0 = never */
};

/* How many audiences a version has room for: see server_audience.c for their order. */
size_t state__audience_slots(const struct state_server *s);

/* The audience in slot `slot` of base's, `from`, carried over to s: only the touched users'
 * places are worked out again, each O(log n). NULL when out of memory. */
struct idset *state__audience_derive(const struct state_server *s, const struct idset *from,
                                     int64_t *valid_until, const char (*touched)[UUID_LEN + 1],
                                     size_t ntouched, size_t slot, int64_t now);

/* What a walk of the database fills: a shape, and members and bots into maps built in place. */
struct state__builder {
    struct state_shape *shape;
    struct pmap members, bots, apps;
    int64_t member_bytes;
};
extern const struct store_server_visitor state__server_visitor;
void state__builder_init(struct state__builder *b);
void state__builder_cleanup(struct state__builder *b);

/* The shape of sid alone (*found as state__server_load), and an empty version around a shape
 * (which it then owns). */
struct state_shape *state__shape_load(struct store *db, const char *sid, int *found);
struct state_server *state__server_new(const char *sid, struct state_shape *shape);

/* A member record's key (its user ID), and the keys of a shape's roles and channels. */
const char *state__member_id(const struct pmap_value *v);
const char *state__role_key(const void *base, uint32_t i);
const char *state__channel_key(const void *base, uint32_t i);

#endif
