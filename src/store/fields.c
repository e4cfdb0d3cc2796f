/* Rows read by a table of fields: see fields.h. */
#include "store/fields.h"

#include <stdint.h>
#include <string.h>

void store__read_fields(struct store_stmt *st, const struct store_field *fields, size_t n,
                        void *out)
{
    for (size_t i = 0; i < n; i++) {
        const struct store_field *f = &fields[i];
        char *at = (char *)out + f->offset;
        if (f->text) {
            store__text_copy(st, (int)i, at, f->size);
        } else if (f->size == sizeof(int64_t)) {
            int64_t v = store__int(st, (int)i);
            memcpy(at, &v, sizeof v);
        } else { /* an int, a flag or a uint32_t: the low 32 bits */
            int32_t v = (int32_t)store__int(st, (int)i);
            memcpy(at, &v, sizeof v);
        }
    }
}

int store__row_fields(struct store *db, const char *sql, const char *key,
                      const struct store_field *fields, size_t n, void *out, size_t size)
{
    memset(out, 0, size);
    int found;
    struct store_stmt *st = store__row(db, sql, key, &found);
    if (st) {
        store__read_fields(st, fields, n, out);
        store__finish(st);
    }
    return found;
}
