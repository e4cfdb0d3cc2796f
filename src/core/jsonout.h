/*
 * Compact JSON text from jansson values, byte for byte what json_dumps(v, JSON_COMPACT) writes
 * (keys in insertion order, "/" and non-ASCII left as they are), several times faster: jansson's
 * dumper formats every container's address into a hash table to look for cycles, and our
 * values never have any.
 */
#ifndef PRACA_CORE_JSONOUT_H
#define PRACA_CORE_JSONOUT_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

/* Appends the text of v; returns BUF_OK or a buf error (-3 for a value JSON cannot hold). */
int jsonout_append(struct buf *out, const json_t *v);
/* The text of v (malloc'd, NUL-terminated; *len gets its length when len is not NULL), or
 * NULL when it cannot be written. */
char *jsonout_dump(const json_t *v, size_t *len);

/* Values for output: a time as ISO 8601 text (milliseconds, UTC), or null. */
json_t *jsonout_time(int64_t ms);
json_t *jsonout_time_or_null(int64_t ms, int is_null);
json_t *jsonout_str_or_null(const char *s);

#endif
