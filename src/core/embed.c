/* Compiled-in files: see embed.h. */
#include "core/embed.h"

#include <string.h>

const struct embedded_file *embed_find(const struct embedded_file *table, const char *name,
                                       size_t len)
{
    for (const struct embedded_file *f = table; f->name; f++)
        if (strlen(f->name) == len && !memcmp(f->name, name, len))
            return f;
    return NULL;
}
