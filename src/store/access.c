/* Access data: see access.h. */
#include "store/access.h"

#include <string.h>

#include "core/buf.h"
#include "store/roles.h"

int store_access_load(struct store *db, const char *server_id, const char *user_id,
                      struct store_access *a)
{
    static const char *SQL_SERVER =
        "SELECT s.owner_id, s.verification_level, s.requires_2fa, s.requires_rules_acceptance,"
        " r.permissions, m.user_id, m.joined_at, m.timeout_until, m.rules_accepted_at,"
        " u.mfa_enabled, u.is_bot, u.created_at,"
        " s.automod_blocked_words <> '[]' OR s.automod_max_mentions IS NOT NULL"
        " FROM servers s JOIN roles r ON r.id = s.id"
        " LEFT JOIN members m ON m.server_id = s.id AND m.user_id = $2"
        " LEFT JOIN users u ON u.id = $2 WHERE s.id = $1";
    static const char *SQL_ROLES =
        "SELECT r.id, r.permissions, r.position FROM member_roles mr"
        " JOIN roles r ON r.id = mr.role_id"
        " WHERE mr.server_id = $1 AND mr.user_id = $2 ORDER BY r.position DESC LIMIT 250";
    memset(a, 0, sizeof *a);
    a->top_key = ROLE_KEY_EVERYONE;
    struct store_stmt *st =
        store__query(db, SQL_SERVER, SV_ARGS(SV_STR(server_id), SV_STR(user_id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        a->server_found = 1;
        store__text_copy(st, 0, a->owner_id, sizeof a->owner_id);
        a->verification_level = (int)store__int(st, 1);
        a->requires_2fa = (int)store__int(st, 2);
        a->requires_rules = (int)store__int(st, 3);
        a->everyone = (uint64_t)store__int(st, 4);
        a->is_member = !store__is_null(st, 5);
        a->joined_at = store__int(st, 6);
        a->timeout_until = store__int(st, 7);
        a->rules_accepted_at = store__int(st, 8);
        a->mfa_enabled = (int)store__int(st, 9);
        a->is_bot = (int)store__int(st, 10);
        a->account_created_at = store__int(st, 11);
        a->automod_on = (int)store__int(st, 12);
    }
    store__finish(st);
    if (rc < 0 || !a->is_member)
        return rc < 0 ? rc : STORE_DONE;
    st = store__query(db, SQL_ROLES, SV_ARGS(SV_STR(server_id), SV_STR(user_id)));
    if (!st)
        return STORE_ERR;
    while ((rc = store__step(st)) == STORE_ROW && a->nroles < ACCESS_MAX_ROLES) {
        store__text_copy(st, 0, a->role_ids[a->nroles], UUID_LEN + 1);
        a->role_perms[a->nroles] = (uint64_t)store__int(st, 1);
        int64_t key = store__int(st, 2);
        if (key > a->top_key)
            a->top_key = key;
        a->nroles++;
    }
    store__finish(st);
    return rc < 0 ? rc : STORE_DONE;
}
