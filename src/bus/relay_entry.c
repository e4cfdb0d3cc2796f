/* The events a stream entry carries: see relay_entry.h. */
#include "bus/relay_entry.h"

#include <stdio.h>
#include <string.h>

#include "core/uuid.h"

static int named(const redisReply *field_name, const char *name)
{
    return field_name->type == REDIS_REPLY_STRING && !strcmp(field_name->str, name);
}

const redisReply *bus__entry_field(const redisReply *fields, const char *name)
{
    for (size_t i = 0; i + 1 < fields->elements; i += 2)
        if (named(fields->element[i], name))
            return fields->element[i + 1];
    return NULL;
}

void bus__entry_events(const redisReply *fields, const char *kind, relay_event_fn *fn, void *arg)
{
    if (fields->type != REDIS_REPLY_ARRAY)
        return;
    if (!strcmp(kind, "e")) {
        fn(arg, &(struct relay_event_fields){
                    bus__entry_field(fields, "t"), bus__entry_field(fields, "o"),
                    bus__entry_field(fields, "p"), bus__entry_field(fields, "r"),
                    bus__entry_field(fields, "w")});
        return;
    }
    if (strcmp(kind, "b"))
        return;
    for (size_t i = 0; i + 7 < fields->elements; i += 2) {
        redisReply *const *f = fields->element + i;
        if (!named(f[0], "t"))
            continue;
        if (!named(f[2], "o") || !named(f[4], "p") || !named(f[6], "r"))
            continue;
        int with_where = i + 9 < fields->elements && named(f[8], "w");
        fn(arg, &(struct relay_event_fields){f[1], f[3], f[5], f[7], with_where ? f[9] : NULL});
        i += with_where ? 8 : 6;
    }
}

struct bus_where bus__entry_where(const struct relay_event_fields *f)
{
    const redisReply *w = f->where;
    if (!w || w->type != REDIS_REPLY_STRING)
        return (struct bus_where){.server = ""};
    return bus_where_parse(w->str, w->len);
}

struct idset *bus__audience_parse(const char *ids, size_t len)
{
    const char *end = ids + len;
    if (memchr(ids, '\0', len))
        return NULL;
    /* Each ID kept is UUID_LEN bytes and a comma, but the last. */
    struct idset *to = idset_new((len + 1) / (UUID_LEN + 1) + 1);
    for (const char *p = ids; to && p < end;) {
        /* Each is UUID_LEN long: its comma, or the end, is where it should be. */
        const char *comma = end - p > UUID_LEN && p[UUID_LEN] == ','
                                ? p + UUID_LEN
                                : memchr(p, ',', (size_t)(end - p));
        size_t one = comma ? (size_t)(comma - p) : (size_t)(end - p);
        if (idset_add_n(to, p, one)) {
            idset_unref(to);
            return NULL;
        }
        p += one + (comma != NULL);
    }
    return to;
}

uint64_t bus__audience_ref(const char *text, size_t len)
{
    if (len < 2 || len > 21 || text[0] != '#')
        return 0;
    uint64_t n = 0;
    for (size_t i = 1; i < len; i++) {
        uint64_t d = (uint64_t)(text[i] - '0');
        if (text[i] < '0' || text[i] > '9' || n > (UINT64_MAX - d) / 10)
            return 0;
        n = n * 10 + d;
    }
    return n;
}

void bus__audience_key(char out[RELAY_AUDIENCE_KEY_MAX], const char *stream, const char *node,
                       uint64_t ref)
{
    snprintf(out, RELAY_AUDIENCE_KEY_MAX, "%s:audience:%s:%llu", stream, node,
             (unsigned long long)ref);
}
