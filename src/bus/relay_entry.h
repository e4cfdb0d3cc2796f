/* The events a stream entry carries. An entry of kind "e" holds one event as its fields t (name),
 * o (position in the event log), p (payload), r (recipients) and w (where it happened, as
 * bus_where_text writes it; an entry from a node before w has none); one of kind "b" holds
 * several, each one's fields in turn, for the events a node appended together. The recipients are
 * their IDs comma-separated, or "#N" for a logged event's large audience, which its node put under
 * the key bus__audience_key(stream, node, N) for a few seconds (relay_audience.c). */
#ifndef PRACA_BUS_RELAY_ENTRY_H
#define PRACA_BUS_RELAY_ENTRY_H
#include <hiredis/hiredis.h>
#include <stdint.h>

#include "bus/bus.h"
#include "core/idset.h"

struct relay_event_fields {
    const redisReply *name, *position, *payload, *ids, *where; /* any may be NULL or not a string */
};

typedef void relay_event_fn(void *arg, const struct relay_event_fields *f);

/* The value of field name in an entry's [field, value, …] array, or NULL. */
const redisReply *bus__entry_field(const redisReply *fields, const char *name);

/* Calls fn for each event of an entry of kind "e" or "b", given its [field, value, …] array; a
 * "b" entry's events come in order, and a group whose fields are not t, o, p, r (then w or not)
 * is skipped. */
void bus__entry_events(const redisReply *fields, const char *kind, relay_event_fn *fn, void *arg);

/* Where the event happened: its w field, or nowhere in particular. */
struct bus_where bus__entry_where(const struct relay_event_fields *f);
/* The recipients' IDs, comma-separated in len bytes, as a set; NULL when one is not an ID. */
struct idset *bus__audience_parse(const char *ids, size_t len);
/* N when the recipients are "#N" (N > 0), else 0. */
uint64_t bus__audience_ref(const char *text, size_t len);
#define RELAY_AUDIENCE_KEY_MAX 176
/* The key of node's audience N on that stream: "STREAM:audience:NODE:N". */
void bus__audience_key(char out[RELAY_AUDIENCE_KEY_MAX], const char *stream, const char *node,
                       uint64_t ref);

#endif
