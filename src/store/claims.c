/* Claiming an import's placeholder: see claims.h. */
#include "store/claims.h"

#include <string.h>

#include "store/rows.h"

static int code_put_at(struct store *db, struct store_claim_code *c)
{
    static const char *SQL_PLACEHOLDER =
        "SELECT 1 FROM members m JOIN users u ON u.id = m.user_id"
        " WHERE m.server_id = $1 AND m.user_id = $2 AND u.imported = 1";
    static const char *SQL_FORGET = "DELETE FROM import_claims WHERE user_id = $1";
    static const char *SQL_PUT =
        "INSERT INTO import_claims (code_hash, server_id, user_id, created_by, created_at,"
        " expires_at) VALUES ($1, $2, $3, $4, $5, $6)";
    int found =
        store__exists(db, SQL_PLACEHOLDER, SV_ARGS(SV_STR(c->server_id), SV_STR(c->user_id)));
    if (found <= 0)
        return found < 0 ? found : STORE_MISSING;
    int rc = store__exec(db, SQL_FORGET, SV_ARGS(SV_STR(c->user_id)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_PUT,
                         SV_ARGS(SV_STR(c->code_hash), SV_STR(c->server_id), SV_STR(c->user_id),
                                 SV_STR(c->by), SV_INT(c->now), SV_INT(c->expires_at)));
    return rc;
}

STORE_WRITE_AS(store_claim_code_put, struct store_claim_code, code_put_at)

json_t *store_claim_json(struct store *db, const char *code_hash, int64_t now, int *rc)
{
    static const char *SQL = "SELECT c.server_id, s.name, c.user_id, u.display_name,"
                             " (SELECT count(*) FROM messages m WHERE m.author_id = c.user_id)"
                             " FROM import_claims c JOIN servers s ON s.id = c.server_id JOIN "
                             "users u ON u.id = c.user_id"
                             " WHERE c.code_hash = $1 AND c.expires_at > $2";
    static const struct store_col COLS[] = {{"serverId", COL_TEXT},
                                            {"serverName", COL_TEXT},
                                            {"userId", COL_TEXT},
                                            {"displayName", COL_TEXT},
                                            {"messages", COL_INT}};
    return store__get_json(db, SQL, SV_ARGS(SV_STR(code_hash), SV_INT(now)), STORE_COLS(COLS), rc);
}

/* Who may claim: a person (not a bot, not a placeholder) not banned from the server. */
static int may_claim(struct store *db, const struct store_claim_take *t)
{
    static const char *SQL_PERSON =
        "SELECT 1 FROM users WHERE id = $1 AND is_bot = 0 AND imported = 0 AND deleted_at IS NULL";
    static const char *SQL_BANNED = "SELECT 1 FROM bans WHERE server_id = $1 AND user_id = $2";
    int person = store__exists(db, SQL_PERSON, SV_ARGS(SV_STR(t->user_id)));
    int banned = person > 0 ? store__exists(db, SQL_BANNED,
                                            SV_ARGS(SV_STR(t->server_id), SV_STR(t->user_id)))
                            : 0;
    if (person < 0 || banned < 0)
        return STORE_ERR;
    return person && !banned ? STORE_DONE : STORE_REFUSED;
}

/* The placeholder's membership becomes the person's (nickname, join time, roles), unless the
 * person is a member already, whose own stays. */
static int move_membership(struct store *db, struct store_claim_take *t)
{
    static const char *SQL_JOIN = "INSERT INTO members (server_id, user_id, nickname, joined_at)"
                                  " SELECT server_id, $3, nickname, joined_at FROM members"
                                  " WHERE server_id = $1 AND user_id = $2 ON CONFLICT DO NOTHING";
    static const char *SQL_ROLES =
        "INSERT INTO member_roles (server_id, user_id, role_id)"
        " SELECT server_id, $3, role_id FROM member_roles WHERE server_id = $1 AND user_id = $2"
        " ON CONFLICT DO NOTHING";
    int rc = store__exec(
        db, SQL_JOIN, SV_ARGS(SV_STR(t->server_id), SV_STR(t->placeholder_id), SV_STR(t->user_id)));
    t->joined = rc == STORE_DONE && store__changes(db) == 1;
    if (rc == STORE_DONE)
        rc = store__exec(
            db, SQL_ROLES,
            SV_ARGS(SV_STR(t->server_id), SV_STR(t->placeholder_id), SV_STR(t->user_id)));
    return rc;
}

/* What a claim moves, once its server and placeholder are known. */
static int move_at(struct store *db, struct store_claim_take *t)
{
    static const char *SQL_MESSAGES = "UPDATE messages SET author_id = $2 WHERE author_id = $1";
    /* a reaction both made stays once, the person's */
    static const char *SQL_TWICE =
        "DELETE FROM reactions WHERE user_id = $1 AND EXISTS (SELECT 1 FROM reactions r"
        " WHERE r.user_id = $2 AND r.message_id = reactions.message_id"
        " AND r.emoji = reactions.emoji AND r.custom_emoji_id = reactions.custom_emoji_id)";
    static const char *SQL_REACTIONS = "UPDATE reactions SET user_id = $2 WHERE user_id = $1";
    static const char *SQL_GONE = "DELETE FROM users WHERE id = $1 AND imported = 1";
    int rc = may_claim(db, t);
    if (rc != STORE_DONE)
        return rc;
    const struct store_val pair[] = {SV_STR(t->placeholder_id), SV_STR(t->user_id)};
    rc = store__exec(db, SQL_MESSAGES, pair, 2);
    t->messages = rc == STORE_DONE ? store__changes(db) : 0;
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_TWICE, pair, 2);
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_REACTIONS, pair, 2);
    if (rc == STORE_DONE)
        rc = move_membership(db, t);
    if (rc == STORE_DONE) /* its membership, roles and code go with it */
        rc = store__exec(db, SQL_GONE, SV_ARGS(SV_STR(t->placeholder_id)));
    return rc;
}

/* Reads a claim's server and placeholder (columns 0 and 1) from a query: STORE_DONE, or
 * STORE_MISSING when it finds none. */
static int claim_row(struct store *db, const char *sql, const struct store_val *args, size_t n,
                     struct store_claim_take *t)
{
    struct store_stmt *st = store__query(db, sql, args, n);
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        store__text_copy(st, 0, t->server_id, sizeof t->server_id);
        store__text_copy(st, 1, t->placeholder_id, sizeof t->placeholder_id);
    }
    store__finish(st);
    return rc == STORE_ROW ? STORE_DONE : rc == STORE_DONE ? STORE_MISSING : rc;
}

static int take_at(struct store *db, struct store_claim_take *t)
{
    static const char *SQL_CODE = "SELECT server_id, user_id FROM import_claims"
                                  " WHERE code_hash = $1 AND expires_at > $2";
    int rc = claim_row(db, SQL_CODE, SV_ARGS(SV_STR(t->code_hash), SV_INT(t->now)), t);
    return rc == STORE_DONE ? move_at(db, t) : rc;
}

STORE_WRITE_AS(store_claim_take, struct store_claim_take, take_at)

/* The placeholders of an address, with their server (SQL shared by the list and the claim). */
#define BY_EMAIL                                                                                   \
    " FROM users p JOIN members m ON m.user_id = p.id JOIN servers s ON s.id = m.server_id"        \
    " WHERE p.imported = 1 AND p.imported_email IS NOT NULL AND p.imported_email ="                \
    " (SELECT email FROM users WHERE id = $1 AND email IS NOT NULL)"

json_t *store_claims_by_email_json(struct store *db, const char *user_id)
{
    static const char *SQL = "SELECT m.server_id, s.name, p.id, p.display_name,"
                             " (SELECT count(*) FROM messages x WHERE x.author_id = p.id)" BY_EMAIL
                             " ORDER BY s.name, p.id LIMIT 100";
    static const struct store_col COLS[] = {{"serverId", COL_TEXT},
                                            {"serverName", COL_TEXT},
                                            {"userId", COL_TEXT},
                                            {"displayName", COL_TEXT},
                                            {"messages", COL_INT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(user_id)), STORE_COLS(COLS));
}

static int by_email_at(struct store *db, struct store_claim_take *t)
{
    static const char *SQL = "SELECT m.server_id, p.id" BY_EMAIL " AND p.id = $2";
    char placeholder[UUID_LEN + 1];
    memcpy(placeholder, t->placeholder_id, sizeof placeholder);
    int rc = claim_row(db, SQL, SV_ARGS(SV_STR(t->user_id), SV_STR(placeholder)), t);
    return rc == STORE_DONE ? move_at(db, t) : rc;
}

STORE_WRITE_AS(store_claim_by_email, struct store_claim_take, by_email_at)
