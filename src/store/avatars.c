/* People's pictures: see avatars.h. */
#include "store/avatars.h"

#include "store/rows.h"

int store_avatar_get(struct store *db, const char *user_id, struct store_avatar *out)
{
    static const char *SQL = "SELECT avatar, avatar_small FROM users WHERE id = $1 AND is_bot = 0";
    int found;
    struct store_stmt *st = store__row(db, SQL, user_id, &found);
    out->large[0] = out->small[0] = '\0';
    if (st) {
        if (store__text(st, 0) && store__text(st, 1)) {
            store__text_copy(st, 0, out->large, sizeof out->large);
            store__text_copy(st, 1, out->small, sizeof out->small);
        }
        store__finish(st);
    }
    return found;
}

static int avatar_set_at(struct store *db, struct store_avatar *a)
{
    static const char *SQL =
        "UPDATE users SET avatar = $2, avatar_small = $3 WHERE id = $1 AND is_bot = 0";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(a->user_id), a->large[0] ? SV_STR(a->large) : SV_NULLV,
                               a->large[0] ? SV_STR(a->small) : SV_NULLV));
}

STORE_WRITE_AS(store_avatar_set, struct store_avatar, avatar_set_at)
