/* Files compiled into the binary (migrations, web pages) by scripts/embed.sh. */
#ifndef PRACA_CORE_EMBED_H
#define PRACA_CORE_EMBED_H
#include <stddef.h>

struct embedded_file {
    const char *name;          /* base name, e.g. "001_init.sql"; NULL ends the table */
    const unsigned char *data; /* NUL-terminated */
    size_t len;                /* without the NUL */
};

/* The file of that name (len bytes, not NUL-terminated) in a table, or NULL. */
const struct embedded_file *embed_find(const struct embedded_file *table, const char *name,
                                       size_t len);

#endif
