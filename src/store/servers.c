/* Servers: creation with their @everyone role and first channel, settings, automod, rules. */
#include <stdio.h>

#include "core/clock.h"
#include "store/roles.h"
#include "store/rows.h"
#include "store/writer.h"
#include "store/servers.h"

static const struct store_col SERVER_COLS[] = {
    {"id", COL_TEXT},
    {"name", COL_TEXT},
    {"iconUrl", COL_TEXT},
    {"ownerId", COL_TEXT},
    {"verificationLevel", COL_INT},
    {"requiresRulesAcceptance", COL_BOOL},
    {"rules", COL_TEXT},
    {"requires2FA", COL_BOOL},
    {"discoverable", COL_BOOL},
    {"createdAt", COL_TIME},
    {"description", COL_TEXT},
    {"tags", COL_JSON},
    {"linkPreviews", COL_BOOL},
};
#define SERVER_SELECT                                                                              \
    "SELECT s.id, s.name, s.icon_url, s.owner_id, s.verification_level,"                           \
    " s.requires_rules_acceptance, s.rules, s.requires_2fa, s.discoverable, s.created_at,"         \
    " s.description, s.tags, s.link_previews, s.automod_blocked_words, s.automod_max_mentions"     \
    " FROM servers s"

static json_t *server_row(struct store_stmt *st)
{
    static const struct store_col AUTOMOD_COLS[] = {{"blockedWords", COL_JSON},
                                                    {"maxMentions", COL_INT}};
    json_t *o = store__row_json(st, 0, STORE_COLS(SERVER_COLS));
    json_object_set_new(o, "automod", store__row_json(st, 13, STORE_COLS(AUTOMOD_COLS)));
    return o;
}

json_t *store_server_json(struct store *db, const char *sid, int *rc)
{
    static const char *SQL = SERVER_SELECT " WHERE s.id = $1";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(sid)));
    if (!st) {
        *rc = STORE_ERR;
        return NULL;
    }
    json_t *o = NULL;
    if ((*rc = store__step(st)) == STORE_ROW)
        o = server_row(st);
    store__finish(st);
    return o;
}

json_t *store_servers_of_user(struct store *db, const char *uid)
{
    static const char *SQL = SERVER_SELECT " JOIN members m ON m.server_id = s.id"
                                           " WHERE m.user_id = $1 ORDER BY m.joined_at, s.id";
    struct store_stmt *st = store__query(db, SQL, SV_ARGS(SV_STR(uid)));
    if (!st)
        return NULL;
    json_t *list = json_array();
    int rc;
    while ((rc = store__step(st)) == STORE_ROW)
        json_array_append_new(list, server_row(st));
    store__finish(st);
    if (rc != STORE_DONE) {
        json_decref(list);
        return NULL;
    }
    return list;
}

json_t *store_server_ids_of_member(struct store *db, const char *uid, int64_t limit)
{
    static const char *SQL = "SELECT server_id FROM members WHERE user_id = $1"
                             " ORDER BY joined_at, server_id LIMIT $2";
    static const struct store_col COLS[] = {{"id", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(uid), SV_INT(limit)), STORE_COLS(COLS));
}

int store_count(struct store *db, const char *sql, const char *id, int64_t *out)
{
    struct store_stmt *st = store__query(db, sql, SV_ARGS(SV_STR(id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    *out = rc == STORE_ROW ? store__int(st, 0) : 0;
    store__finish(st);
    return rc == STORE_ROW ? STORE_DONE : rc;
}

const char *const STORE_SQL_COUNT_ROLES =
    "SELECT count(*) FROM roles WHERE server_id = $1 AND managed = 0";
const char *const STORE_SQL_COUNT_CHANNELS =
    "SELECT count(*) FROM channels WHERE server_id = $1 AND parent_id IS NULL";
const char *const STORE_SQL_COUNT_CATEGORIES =
    "SELECT count(*) FROM categories WHERE server_id = $1";

static int server_create_at(struct store *db, struct store_new_server *s)
{
    static const char *SQL_SERVER =
        "INSERT INTO servers (id, name, owner_id, created_at) VALUES ($1, $2, $3, $4)";
    static const char *SQL_EVERYONE =
        "INSERT INTO roles (id, server_id, name, permissions, position, created_at)"
        " VALUES ($1, $1, '@everyone', $2, " STORE_ROLE_EVERYONE_KEY ", $3)";
    static const char *SQL_CHANNEL =
        "INSERT INTO channels (id, server_id, type, name, position, created_at)"
        " VALUES ($1, $2, 'text', 'geral', 0, $3)";
    static const char *SQL_MEMBER =
        "INSERT INTO members (server_id, user_id, joined_at) VALUES ($1, $2, $3)";
    int rc =
        store__exec(db, SQL_SERVER,
                    SV_ARGS(SV_STR(s->id), SV_STR(s->name), SV_STR(s->owner_id), SV_INT(s->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_EVERYONE,
                         SV_ARGS(SV_STR(s->id), SV_INT(s->everyone_perms), SV_INT(s->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_CHANNEL,
                         SV_ARGS(SV_STR(s->channel_id), SV_STR(s->id), SV_INT(s->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_MEMBER,
                         SV_ARGS(SV_STR(s->id), SV_STR(s->owner_id), SV_INT(s->now)));
    return rc;
}

STORE_WRITE_AS(store_server_create, struct store_new_server, server_create_at)

int store_server_update(struct store_writer *w, const struct store_server_patch *p)
{
    static const char *SQL =
        "UPDATE servers SET name = COALESCE($2, name),"
        " verification_level = CASE WHEN $3 >= 0 THEN $3 ELSE verification_level END,"
        " requires_rules_acceptance = CASE WHEN $4 >= 0 THEN $4 ELSE requires_rules_acceptance END,"
        " rules = COALESCE($5, rules),"
        " requires_2fa = CASE WHEN $6 >= 0 THEN $6 ELSE requires_2fa END,"
        " discoverable = CASE WHEN $7 >= 0 THEN $7 ELSE discoverable END,"
        " icon_url = CASE WHEN $8 = 1 THEN $9 ELSE icon_url END,"
        " icon_version = CASE WHEN $8 = 1 THEN $10 ELSE icon_version END,"
        " description = COALESCE($11, description), tags = COALESCE($12, tags),"
        " link_previews = CASE WHEN $13 >= 0 THEN $13 ELSE link_previews END"
        " WHERE id = $1";
    return store__write_exec(w, SQL,
                             SV_ARGS(SV_STR(p->id), SV_STR(p->name), SV_INT(p->verification_level),
                                     SV_INT(p->requires_rules), SV_STR(p->rules),
                                     SV_INT(p->requires_2fa), SV_INT(p->discoverable),
                                     SV_INT(p->set_icon), SV_STR(p->icon_url),
                                     SV_INT(clock_now_ms()), SV_STR(p->description),
                                     SV_STR(p->tags_json), SV_INT(p->link_previews)),
                             NULL);
}

int store_server_delete(struct store_writer *w, const char *sid)
{
    /* As a channel's delete: the messages, then the channels, in chunks, then the rest. */
    static const char *SQL_MESSAGES =
        "DELETE FROM messages WHERE id IN (SELECT m.id FROM channels c JOIN messages m"
        " ON m.channel_id = c.id WHERE c.server_id = $1 LIMIT 1000)";
    static const char *SQL_CHANNELS =
        "DELETE FROM channels WHERE id IN (SELECT id FROM channels WHERE server_id = $1 LIMIT 200)";
    static const char *SQL = "DELETE FROM servers WHERE id = $1";
    int rc;
    if ((rc = store__write_delete_chunks(w, SQL_MESSAGES, sid)) < 0 ||
        (rc = store__write_delete_chunks(w, SQL_CHANNELS, sid)) < 0)
        return rc;
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(sid)), NULL);
}

int store_server_owner_set(struct store_writer *w, const char *sid, const char *uid)
{
    static const char *SQL = "UPDATE servers SET owner_id = $2 WHERE id = $1";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid)), NULL);
}

int store_automod_set(struct store_writer *w, const char *sid, const char *words_json, int has_max,
                      int64_t max_mentions)
{
    static const char *SQL = "UPDATE servers SET automod_blocked_words = $2,"
                             " automod_max_mentions = $3 WHERE id = $1";
    return store__write_exec(
        w, SQL, SV_ARGS(SV_STR(sid), SV_STR(words_json), has_max ? SV_INT(max_mentions) : SV_NULLV),
        NULL);
}

int store_rules_accept(struct store_writer *w, const char *sid, const char *uid)
{
    static const char *SQL = "UPDATE members SET rules_accepted_at = $3"
                             " WHERE server_id = $1 AND user_id = $2";
    return store__write_exec(w, SQL, SV_ARGS(SV_STR(sid), SV_STR(uid), SV_INT(clock_now_ms())),
                             NULL);
}
