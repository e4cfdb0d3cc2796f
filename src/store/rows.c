/* Row → JSON: see rows.h. */
#include "store/rows.h"

#include "core/clock.h"

json_t *store__row_json(struct store_stmt *st, int first, const struct store_col *cols, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++) {
        int col = first + (int)i;
        json_t *v;
        if (store__is_null(st, col)) {
            v = json_null();
        } else {
            switch (cols[i].type) {
            case COL_INT:
                v = json_integer(store__int(st, col));
                break;
            case COL_BOOL:
                v = json_boolean(store__int(st, col) != 0);
                break;
            case COL_TIME: {
                char iso[CLOCK_ISO_LEN + 1];
                clock_format_iso(store__int(st, col), iso);
                v = json_string(iso);
                break;
            }
            case COL_JSON:
                v = json_loadb(store__text(st, col), store__text_len(st, col), 0, NULL);
                if (!v)
                    v = json_null();
                break;
            default:
                v = json_stringn(store__text(st, col), store__text_len(st, col));
                break;
            }
        }
        json_object_set_new(o, cols[i].key, v);
    }
    return o;
}

json_t *store__get_json(struct store *db, const char *sql, const struct store_val *args,
                        size_t nargs, const struct store_col *cols, size_t n, int *rc)
{
    struct store_stmt *st = store__query(db, sql, args, nargs);
    if (!st) {
        *rc = STORE_ERR;
        return NULL;
    }
    json_t *o = NULL;
    *rc = store__step(st);
    if (*rc == STORE_ROW)
        o = store__row_json(st, 0, cols, n);
    store__finish(st);
    return o;
}

json_t *store__list_json(struct store *db, const char *sql, const struct store_val *args,
                         size_t nargs, const struct store_col *cols, size_t n)
{
    struct store_stmt *st = store__query(db, sql, args, nargs);
    if (!st)
        return NULL;
    json_t *list = json_array();
    int rc;
    while ((rc = store__step(st)) == STORE_ROW)
        json_array_append_new(list, store__row_json(st, 0, cols, n));
    store__finish(st);
    if (rc != STORE_DONE) {
        json_decref(list);
        return NULL;
    }
    return list;
}

json_t *store__ids_json(struct store *db, const char *sql, const struct store_val *args,
                        size_t nargs)
{
    struct store_stmt *st = store__query(db, sql, args, nargs);
    json_t *ids = st ? json_array() : NULL;
    int rc = STORE_ERR;
    while (ids && (rc = store__step(st)) == STORE_ROW)
        json_array_append_new(ids, json_string(store__text(st, 0)));
    if (st)
        store__finish(st);
    if (rc != STORE_DONE) {
        json_decref(ids);
        return NULL;
    }
    return ids;
}
