/* Deleting one's account: see accounts.h. */
#include "store/accounts.h"

#include "store/rows.h"

json_t *store_servers_owned_json(struct store *db, const char *user_id)
{
    static const char *SQL = "SELECT id, name FROM servers WHERE owner_id = $1 ORDER BY id";
    static const struct store_col COLS[] = {{"id", COL_TEXT}, {"name", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(user_id)), STORE_COLS(COLS));
}

json_t *store_apps_owned_ids(struct store *db, const char *user_id)
{
    static const char *SQL = "SELECT id FROM applications WHERE owner_id = $1";
    return store__ids_json(db, SQL, SV_ARGS(SV_STR(user_id)));
}

static int erase_at(struct store *db, struct store_account_erase *e)
{
    static const char *SQL_USER =
        "UPDATE users SET display_name = '" STORE_DELETED_NAME "', password_hash = '',"
        " mfa_secret = NULL, mfa_enabled = 0, about = NULL, banner_color = NULL, avatar = NULL,"
        " avatar_small = NULL, locale = NULL, email = NULL, deleted_at = $2"
        " WHERE id = $1 AND is_bot = 0 AND deleted_at IS NULL";
    static const char *const SQL_GONE[] = {
        "DELETE FROM tokens WHERE user_id = $1",
        "DELETE FROM blocks WHERE user_id = $1 OR blocked_id = $1",
        "DELETE FROM password_resets WHERE user_id = $1",
        "DELETE FROM read_states WHERE user_id = $1",
        "DELETE FROM mfa_recovery_codes WHERE user_id = $1",
        "DELETE FROM authorize_sessions WHERE user_id = $1",
        "DELETE FROM email_codes WHERE user_id = $1",
        /* A deleted account leaves its groups; a group it owned passes on, as on leaving. */
        "DELETE FROM dm_members WHERE user_id = $1 AND channel_id IN"
        " (SELECT id FROM channels WHERE type = 'dm' AND dm_key IS NULL)",
        "UPDATE channels SET owner_id = (SELECT user_id FROM dm_members"
        " WHERE channel_id = channels.id ORDER BY joined_at, user_id LIMIT 1)"
        " WHERE owner_id = $1 AND dm_key IS NULL",
    };
    int rc = store__exec(db, SQL_USER, SV_ARGS(SV_STR(e->user_id), SV_INT(e->now)));
    for (size_t i = 0; rc == STORE_DONE && i < sizeof SQL_GONE / sizeof SQL_GONE[0]; i++)
        rc = store__exec(db, SQL_GONE[i], SV_ARGS(SV_STR(e->user_id)));
    return rc;
}

int store_dm_partner_deleted(struct store *db, const char *cid, const char *uid)
{
    static const char *SQL = "SELECT 1 FROM dm_members o JOIN users u ON u.id = o.user_id"
                             " JOIN channels c ON c.id = o.channel_id AND c.dm_key IS NOT NULL"
                             " WHERE o.channel_id = $1 AND o.user_id <> $2"
                             " AND u.deleted_at IS NOT NULL";
    return store__exists(db, SQL, SV_ARGS(SV_STR(cid), SV_STR(uid)));
}

STORE_WRITE_AS(store_account_erase, struct store_account_erase, erase_at)

int store__account_name_release(struct store *db, const char *username, int64_t now)
{
    /* The freed row's name: "apagada-" and its ID's first 24 hex digits, never a person's. */
    static const char *SQL =
        "UPDATE users SET username = 'apagada-' || substr(replace(id, '-', ''), 1, 24)"
        " WHERE username = $1 AND deleted_at IS NOT NULL AND deleted_at <= $2";
    return store__exec(db, SQL, SV_ARGS(SV_STR(username), SV_INT(now - STORE_NAME_HELD_MS)));
}
