/* The events a stream entry carries. An entry of kind "e" holds one event as its fields t (name),
 * o (position in the event log), p (payload) and r (recipients); one of kind "b" holds several,
 * each one's four fields in turn, for the events a node appended together. */
#ifndef PRACA_BUS_RELAY_ENTRY_H
#define PRACA_BUS_RELAY_ENTRY_H
#include <hiredis/hiredis.h>

struct relay_event_fields {
    const redisReply *name, *position, *payload, *ids; /* any may be NULL or not a string */
};

typedef void relay_event_fn(void *arg, const struct relay_event_fields *f);

/* The value of field name in an entry's [field, value, …] array, or NULL. */
const redisReply *bus__entry_field(const redisReply *fields, const char *name);

/* Calls fn for each event of an entry of kind "e" or "b", given its [field, value, …] array; a
 * "b" entry's events come in order, and a group whose fields are not t, o, p, r is skipped. */
void bus__entry_events(const redisReply *fields, const char *kind, relay_event_fn *fn, void *arg);

#endif
