/*
 * A row read into a struct by a table of its fields, one entry per column, instead of one line
 * per column: text is copied into a char array ("" when it is NULL or does not fit, as
 * store__text_copy), an integer is stored at its field's width (4 or 8 bytes).
 */
#ifndef PRACA_STORE_FIELDS_H
#define PRACA_STORE_FIELDS_H
#include <stddef.h>

#include "store/db.h"

struct store_field {
    size_t offset, size;
    int text;
};
#define STORE_FIELD_TEXT(type, member)                                                             \
    {                                                                                              \
        offsetof(type, member), sizeof(((type *)0)->member), 1                                     \
    }
#define STORE_FIELD_INT(type, member)                                                              \
    {                                                                                              \
        offsetof(type, member), sizeof(((type *)0)->member), 0                                     \
    }
#define STORE_FIELDS(table) table, sizeof table / sizeof *table

/* Reads columns 0 … n - 1 of st's current row into out, by fields[0 … n - 1]. */
void store__read_fields(struct store_stmt *st, const struct store_field *fields, size_t n,
                        void *out);
/* The row a query keyed by $1 selects, read into out (size bytes, zeroed first) by fields: 1 a
 * row, 0 none, < 0 an error. */
int store__row_fields(struct store *db, const char *sql, const char *key,
                      const struct store_field *fields, size_t n, void *out, size_t size);
/* Every row of a query, read by fields into a new array of elements of size bytes (*out, to
 * free; NULL when there is none) and *count: STORE_DONE or an error (then *out NULL). */
int store__rows_fields(struct store *db, const char *sql, const struct store_val *args,
                       size_t nargs, const struct store_field *fields, size_t n, void **out,
                       size_t size, size_t *count);

#endif
