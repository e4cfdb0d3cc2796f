/* Channels as structs for the permission checks: see perm_channels.h. */
#include "store/perm_channels.h"

#include <stdlib.h>
#include <string.h>

#include "store/fields.h"

static const struct store_field ROW_FIELDS[] = {
    STORE_FIELD_TEXT(struct store_perm_channel, id),
    STORE_FIELD_TEXT(struct store_perm_channel, server_id),
    STORE_FIELD_TEXT(struct store_perm_channel, parent_id),
    STORE_FIELD_TEXT(struct store_perm_channel, type),
};
static const struct store_field OVERWRITE_FIELDS[] = {
    STORE_FIELD_TEXT(struct store_perm_overwrite, channel_id),
    STORE_FIELD_TEXT(struct store_perm_overwrite, target_id),
    STORE_FIELD_INT(struct store_perm_overwrite, is_member),
    STORE_FIELD_INT(struct store_perm_overwrite, allow),
    STORE_FIELD_INT(struct store_perm_overwrite, deny),
};
#define ROW_OF_CHANNEL  "SELECT id, server_id, COALESCE(parent_id, category_id), type FROM channels"
#define ROW_OF_CATEGORY "SELECT id, server_id, NULL, 'category' FROM categories"
#define OVERWRITE_OF_CHANNEL                                                                       \
    "SELECT o.channel_id, o.target_id, CASE WHEN o.type = 'member' THEN 1 ELSE 0 END, o.allow,"    \
    " o.deny FROM overwrites o"
#define OVERWRITE_OF_CATEGORY                                                                      \
    "SELECT o.category_id, o.target_id, CASE WHEN o.type = 'member' THEN 1 ELSE 0 END, o.allow,"   \
    " o.deny FROM category_overwrites o"

static int by_id(const void *a, const void *b)
{
    return strcmp(((const struct store_perm_channel *)a)->id,
                  ((const struct store_perm_channel *)b)->id);
}

static int by_channel(const void *a, const void *b)
{
    const struct store_perm_overwrite *x = a, *y = b;
    int c = strcmp(x->channel_id, y->channel_id);
    return c ? c : strcmp(x->target_id, y->target_id);
}

/* Reads the rows and their overwrites (each query keyed by $1), and points each row at its own:
 * both are sorted here, so no database's collation matters. */
static int read_rows(struct store *db, const char *rows_sql, const char *overwrites_sql,
                     const char *key, struct store_perm_channels *out)
{
    memset(out, 0, sizeof *out);
    int rc = store__rows_fields(db, rows_sql, SV_ARGS(SV_STR(key)), STORE_FIELDS(ROW_FIELDS),
                                (void **)&out->list, sizeof *out->list, &out->n);
    if (rc == STORE_DONE && out->n)
        rc = store__rows_fields(db, overwrites_sql, SV_ARGS(SV_STR(key)),
                                STORE_FIELDS(OVERWRITE_FIELDS), (void **)&out->overwrites,
                                sizeof *out->overwrites, &out->noverwrites);
    if (rc != STORE_DONE) {
        store_perm_channels_cleanup(out);
        return rc;
    }
    if (out->n > 1)
        qsort(out->list, out->n, sizeof *out->list, by_id);
    if (out->noverwrites > 1)
        qsort(out->overwrites, out->noverwrites, sizeof *out->overwrites, by_channel);
    size_t o = 0;
    for (size_t i = 0; i < out->n; i++) {
        struct store_perm_channel *r = &out->list[i];
        while (o < out->noverwrites && strcmp(out->overwrites[o].channel_id, r->id) < 0)
            o++;
        r->overwrites = &out->overwrites[o];
        while (o < out->noverwrites && !strcmp(out->overwrites[o].channel_id, r->id))
            o++, r->noverwrites++;
    }
    return STORE_DONE;
}

int store_perm_channel_read(struct store *db, const char *cid, struct store_perm_channels *out)
{
    static const char *SQL_ROWS =
        ROW_OF_CHANNEL " WHERE id = $1 UNION ALL " ROW_OF_CATEGORY " WHERE id = $1";
    static const char *SQL_OVERWRITES =
        OVERWRITE_OF_CHANNEL " WHERE o.channel_id = $1"
                             " UNION ALL " OVERWRITE_OF_CATEGORY " WHERE o.category_id = $1";
    int rc = read_rows(db, SQL_ROWS, SQL_OVERWRITES, cid, out);
    return rc == STORE_DONE ? out->n > 0 : rc;
}

int store_perm_channels_of_server(struct store *db, const char *sid,
                                  struct store_perm_channels *out)
{
    static const char *SQL_ROWS =
        ROW_OF_CHANNEL " WHERE server_id = $1 AND parent_id IS NULL"
                       " UNION ALL " ROW_OF_CATEGORY " WHERE server_id = $1";
    static const char *SQL_OVERWRITES =
        OVERWRITE_OF_CHANNEL " JOIN channels c ON c.id = o.channel_id"
                             " WHERE c.server_id = $1 AND c.parent_id IS NULL"
                             " UNION ALL " OVERWRITE_OF_CATEGORY
                             " JOIN categories k ON k.id = o.category_id WHERE k.server_id = $1";
    return read_rows(db, SQL_ROWS, SQL_OVERWRITES, sid, out);
}

const struct store_perm_channel *store_perm_channels_find(const struct store_perm_channels *rows,
                                                          const char *id)
{
    struct store_perm_channel key;
    size_t n = id ? strlen(id) : sizeof key.id;
    if (!rows->n || n >= sizeof key.id)
        return NULL;
    memcpy(key.id, id, n + 1);
    return bsearch(&key, rows->list, rows->n, sizeof *rows->list, by_id);
}

void store_perm_channels_cleanup(struct store_perm_channels *rows)
{
    free(rows->list);
    free(rows->overwrites);
    memset(rows, 0, sizeof *rows);
}
