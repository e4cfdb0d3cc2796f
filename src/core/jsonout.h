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

/* An object written straight to text, member by member, for hot paths that know their fields
 * (no tree to build and free). Errors stick: end() returns the first one. */
struct jsonout_obj {
    struct buf *out;
    int rc;
    int members;
};
void jsonout_obj_begin(struct jsonout_obj *o, struct buf *out);
void jsonout_obj_str(struct jsonout_obj *o, const char *key, const char *s); /* NULL: null */
/* No member at all for NULL: for readers that take a missing key as null and parse less. */
void jsonout_obj_str_opt(struct jsonout_obj *o, const char *key, const char *s);
void jsonout_obj_int(struct jsonout_obj *o, const char *key, json_int_t v);
void jsonout_obj_bool(struct jsonout_obj *o, const char *key, int v);
void jsonout_obj_time(struct jsonout_obj *o, const char *key, int64_t ms);
/* JSON text this program wrote (so known valid), spliced as it is; NULL: the literal or_else. */
void jsonout_obj_raw(struct jsonout_obj *o, const char *key, const char *text, const char *or_else);
void jsonout_obj_value(struct jsonout_obj *o, const char *key, const json_t *v); /* NULL: null */
int jsonout_obj_end(struct jsonout_obj *o);

/* Values for output: a time as ISO 8601 text (milliseconds, UTC), or null. */
json_t *jsonout_time(int64_t ms);
json_t *jsonout_time_or_null(int64_t ms, int is_null);
json_t *jsonout_str_or_null(const char *s);

#endif
