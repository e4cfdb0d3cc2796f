/* The events a stream entry carries: see relay_entry.h. */
#include "bus/relay_entry.h"

#include <string.h>

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
                    bus__entry_field(fields, "p"), bus__entry_field(fields, "r")});
        return;
    }
    if (strcmp(kind, "b"))
        return;
    for (size_t i = 0; i + 7 < fields->elements; i += 2) {
        redisReply *const *f = fields->element + i;
        if (!named(f[0], "t"))
            continue;
        if (named(f[2], "o") && named(f[4], "p") && named(f[6], "r"))
            fn(arg, &(struct relay_event_fields){f[1], f[3], f[5], f[7]});
        i += 6;
    }
}
