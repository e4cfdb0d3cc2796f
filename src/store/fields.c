/* Rows read by a table of fields: see fields.h. */
#include "store/fields.h"

#include "core/vec.h"

#include <stdint.h>
#include <stdlib.h>
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

int store__rows_fields(struct store *db, const char *sql, const struct store_val *args,
                       size_t nargs, const struct store_field *fields, size_t n, void **out,
                       size_t size, size_t *count)
{
    *out = NULL;
    *count = 0;
    struct store_stmt *st = store__query(db, sql, args, nargs);
    if (!st)
        return STORE_ERR;
    size_t cap = 0;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        if (vec_reserve(out, &cap, *count, size, 8)) {
            rc = STORE_ERR;
            break;
        }
        char *row = (char *)*out + *count * size;
        memset(row, 0, size);
        store__read_fields(st, fields, n, row);
        ++*count;
    }
    store__finish(st);
    if (rc != STORE_DONE) {
        free(*out);
        *out = NULL;
        *count = 0;
    }
    return rc;
}
