/*
 * Turning result rows into JSON objects by a column list, so each query states its answer's
 * shape once: the keys (camelCase) and how each column is shown. A NULL column is null.
 */
#ifndef PRACA_STORE_ROWS_H
#define PRACA_STORE_ROWS_H
#include <jansson.h>

#include "store/db.h"

enum store_col_type {
    COL_TEXT,
    COL_INT,
    COL_BOOL, /* 0/1 → false/true */
    COL_TIME, /* milliseconds → ISO 8601 text */
    COL_JSON, /* a stored JSON document, embedded as is */
};

struct store_col {
    const char *key;
    enum store_col_type type;
};

#define STORE_COLS(a) (a), (sizeof(a) / sizeof((a)[0]))

/* The current row as an object; columns are read from `first` on. */
json_t *store__row_json(struct store_stmt *st, int first, const struct store_col *cols, size_t n);
/* Runs a query and returns its first row as an object, NULL when there is none; *rc gets
 * STORE_ROW, STORE_DONE (no row) or an error. */
json_t *store__get_json(struct store *db, const char *sql, const struct store_val *args,
                        size_t nargs, const struct store_col *cols, size_t n, int *rc);
/* Runs a query and returns all rows as an array (NULL on error). */
json_t *store__list_json(struct store *db, const char *sql, const struct store_val *args,
                         size_t nargs, const struct store_col *cols, size_t n);
/* Runs a query and returns its rows' first column as an array of strings (NULL on error). */
json_t *store__ids_json(struct store *db, const char *sql, const struct store_val *args,
                        size_t nargs);

#endif
