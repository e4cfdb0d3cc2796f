/* The directory's reads: see directory.h. */
#include "store/directory.h"

#include <stdlib.h>
#include <string.h>

int store_directory_each(struct store *db, store_directory_row_fn fn, void *arg)
{
    static const char *SQL =
        "SELECT s.id, s.name, s.description, s.tags, s.icon_version, s.created_at,"
        " (SELECT COUNT(*) FROM members m WHERE m.server_id = s.id) AS n"
        " FROM servers s WHERE s.discoverable = 1 ORDER BY n DESC, s.id LIMIT $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_INT(STORE_DIRECTORY_MAX)));
    if (!st)
        return STORE_ERR;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        struct store_directory_row row = {
            .id = store__text(st, 0),
            .name = store__text(st, 1),
            .description = store__text(st, 2),
            .tags_json = store__text(st, 3),
            .icon_version = store__is_null(st, 4) ? 0 : store__int(st, 4),
            .created_at = store__int(st, 5),
            .members = store__int(st, 6),
        };
        int stop = fn(&row, arg);
        if (stop) {
            rc = stop;
            break;
        }
    }
    store__finish(st);
    return rc;
}

int store_directory_members_each(struct store *db, store_directory_member_fn fn, void *arg)
{
    static const char *SQL = "SELECT m.server_id, m.user_id FROM servers s"
                             " JOIN members m ON m.server_id = s.id WHERE s.discoverable = 1"
                             " ORDER BY m.server_id";
    struct store_stmt *st = store__query(db, SQL, NULL, 0);
    if (!st)
        return STORE_ERR;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        int stop = fn(store__text(st, 0), store__text(st, 1), arg);
        if (stop) {
            rc = stop;
            break;
        }
    }
    store__finish(st);
    return rc;
}

int store_server_icon(struct store *db, const char *sid, char **data_url, int64_t *version)
{
    static const char *SQL = "SELECT icon_url, icon_version FROM servers WHERE id = $1";
    int found;
    struct store_stmt *st = store__row(db, SQL, sid, &found);
    if (!st)
        return found;
    int has = !store__is_null(st, 0);
    if (has) {
        *data_url = strdup(store__text(st, 0));
        *version = store__int(st, 1);
    }
    store__finish(st);
    if (has && !*data_url)
        return STORE_ERR;
    return has;
}
