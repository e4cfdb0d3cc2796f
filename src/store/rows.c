/* Row → JSON: see rows.h. */
#include "store/rows.h"

#include "core/clock.h"

json_t *store_row_json(struct store_stmt *st, int first, const struct store_col *cols, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++) {
        int col = first + (int)i;
        json_t *v;
        if (store_is_null(st, col)) {
            v = json_null();
        } else {
            switch (cols[i].type) {
            case COL_INT:
                v = json_integer(store_int(st, col));
                break;
            case COL_BOOL:
                v = json_boolean(store_int(st, col) != 0);
                break;
            case COL_TIME: {
                char iso[CLOCK_ISO_LEN + 1];
                clock_format_iso(store_int(st, col), iso);
                v = json_string(iso);
                break;
            }
            case COL_JSON:
                v = json_loadb(store_text(st, col), store_text_len(st, col), 0, NULL);
                if (!v)
                    v = json_null();
                break;
            default:
                v = json_stringn(store_text(st, col), store_text_len(st, col));
                break;
            }
        }
        json_object_set_new(o, cols[i].key, v);
    }
    return o;
}

json_t *store_get_json(struct store *db, const char *sql, const struct store_val *args,
                       size_t nargs, const struct store_col *cols, size_t n, int *rc)
{
    struct store_stmt *st = store_query(db, sql, args, nargs);
    if (!st) {
        *rc = STORE_ERR;
        return NULL;
    }
    json_t *o = NULL;
    *rc = store_step(st);
    if (*rc == STORE_ROW)
        o = store_row_json(st, 0, cols, n);
    store_finish(st);
    return o;
}

json_t *store_list_json(struct store *db, const char *sql, const struct store_val *args,
                        size_t nargs, const struct store_col *cols, size_t n)
{
    struct store_stmt *st = store_query(db, sql, args, nargs);
    if (!st)
        return NULL;
    json_t *list = json_array();
    int rc;
    while ((rc = store_step(st)) == STORE_ROW)
        json_array_append_new(list, store_row_json(st, 0, cols, n));
    store_finish(st);
    if (rc != STORE_DONE) {
        json_decref(list);
        return NULL;
    }
    return list;
}
