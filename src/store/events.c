/* Event recipients: see events.h. */
#include "store/events.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/vec.h"

void store__bot_standings_free(struct store_bot_standing *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(list[i].role_ids);
        free(list[i].role_perms);
    }
    free(list);
}

static int add_role(struct store_bot_standing *b, const char *role_id, uint64_t perms)
{
    if (b->nroles == 250)
        return 0;
    char(*ids)[UUID_LEN + 1] = realloc(b->role_ids, (b->nroles + 1) * sizeof *ids);
    if (!ids)
        return -1;
    b->role_ids = ids;
    uint64_t *p = realloc(b->role_perms, (b->nroles + 1) * sizeof *p);
    if (!p)
        return -1;
    b->role_perms = p;
    slice_copy(slice_from(role_id), b->role_ids[b->nroles], UUID_LEN + 1);
    b->role_perms[b->nroles++] = perms;
    return 0;
}

int store__bot_standings(struct store *db, const char *sid, int64_t intent,
                         struct store_bot_standing **out, size_t *n)
{
    static const char *SQL =
        "SELECT a.bot_user_id, COALESCE(m.timeout_until, 0), r.id, r.permissions"
        " FROM installs i JOIN applications a ON a.id = i.application_id"
        " JOIN members m ON m.server_id = i.server_id AND m.user_id = a.bot_user_id"
        " LEFT JOIN member_roles mr ON mr.server_id = i.server_id AND mr.user_id = a.bot_user_id"
        " LEFT JOIN roles r ON r.id = mr.role_id"
        " WHERE i.server_id = $1 AND a.suspended = 0 AND (a.intents & $2) != 0"
        " ORDER BY a.bot_user_id";
    *out = NULL;
    *n = 0;
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(sid), SV_INT(intent)));
    if (!st)
        return STORE_ERR;
    size_t cap = 0;
    int rc;
    while ((rc = store__step(st)) == STORE_ROW) {
        const char *bot = store__text(st, 0);
        if (!*n || strcmp((*out)[*n - 1].bot_user_id, bot)) {
            if (VEC_RESERVE(*out, *n, cap, 8)) {
                rc = STORE_ERR;
                break;
            }
            struct store_bot_standing *b = &(*out)[(*n)++];
            memset(b, 0, sizeof *b);
            slice_copy(slice_from(bot), b->bot_user_id, sizeof b->bot_user_id);
            b->timeout_until = store__int(st, 1);
        }
        if (!store__is_null(st, 2) &&
            add_role(&(*out)[*n - 1], store__text(st, 2), (uint64_t)store__int(st, 3))) {
            rc = STORE_ERR;
            break;
        }
    }
    store__finish(st);
    if (rc != STORE_DONE) {
        store__bot_standings_free(*out, *n);
        *out = NULL;
        *n = 0;
        return rc;
    }
    return STORE_DONE;
}
