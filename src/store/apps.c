/* Applications and bots: see apps.h. */
#include "store/apps.h"
#include "store/fields.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "store/rows.h"
#include "store/writer.h"

static const struct store_col APP_COLS[] = {
    {"id", COL_TEXT},
    {"name", COL_TEXT},
    {"description", COL_TEXT},
    {"iconUrl", COL_TEXT},
    {"botUserId", COL_TEXT},
    {"botUsername", COL_TEXT},
    {"clientId", COL_TEXT},
    {"hasBot", COL_BOOL},
    {"isPublic", COL_BOOL},
    {"intents", COL_INT},
    {"interactionsEndpointUrl", COL_TEXT},
    {"hasInteractionSigningSecret", COL_BOOL},
    {"redirectUris", COL_JSON},
    {"hasClientSecret", COL_BOOL},
    {"suspended", COL_BOOL},
    {"suspendedReason", COL_TEXT},
    {"createdAt", COL_TIME},
    {"updatedAt", COL_TIME},
};
#define APP_SELECT                                                                                 \
    "SELECT id, name, description, icon_url, bot_user_id,"                                         \
    " (SELECT username FROM users WHERE users.id = bot_user_id), client_id, bot_user_id IS NOT "   \
    "NULL,"                                                                                        \
    " is_public, intents, interactions_endpoint_url, signing_secret IS NOT NULL,"                  \
    " redirect_uris, client_secret_hash IS NOT NULL, suspended, suspended_reason,"                 \
    " created_at, updated_at FROM applications"
#define REF_SELECT                                                                                 \
    "SELECT id, owner_id, bot_user_id, name, is_public, suspended, intents, redirect_uris"         \
    " FROM applications"

void store_app_cleanup(struct store_app *a)
{
    json_decref(a->redirect_uris);
    a->redirect_uris = NULL;
}

static int find_ref(struct store *db, const char *sql, const char *key, struct store_app *out)
{
    static const struct store_field FIELDS[] = {
        STORE_FIELD_TEXT(struct store_app, id),
        STORE_FIELD_TEXT(struct store_app, owner_id),
        STORE_FIELD_TEXT(struct store_app, bot_user_id),
        STORE_FIELD_TEXT(struct store_app, name),
        STORE_FIELD_INT(struct store_app, is_public),
        STORE_FIELD_INT(struct store_app, suspended),
        STORE_FIELD_INT(struct store_app, intents),
    }; /* then the redirect URIs, a JSON array */
    memset(out, 0, sizeof *out);
    int found;
    struct store_stmt *st = store__row(db, sql, key, &found);
    if (st) {
        store__read_fields(st, STORE_FIELDS(FIELDS), out);
        out->redirect_uris = json_loadb(store__text(st, 7), store__text_len(st, 7), 0, NULL);
        if (!out->redirect_uris)
            out->redirect_uris = json_array();
        store__finish(st);
    }
    return found;
}

int store_app_find(struct store *db, const char *id, struct store_app *out)
{
    static const char *SQL = REF_SELECT " WHERE id = $1";
    return find_ref(db, SQL, id, out);
}

int store_app_find_by_client(struct store *db, const char *client_id, struct store_app *out)
{
    static const char *SQL = REF_SELECT " WHERE client_id = $1";
    return find_ref(db, SQL, client_id, out);
}

int store_app_find_by_bot(struct store *db, const char *bot_user_id, struct store_app *out)
{
    static const char *SQL = REF_SELECT " WHERE bot_user_id = $1";
    return find_ref(db, SQL, bot_user_id, out);
}

json_t *store_app_json(struct store *db, const char *id, const char *owner_id, int *rc)
{
    static const char *SQL = APP_SELECT " WHERE id = $1 AND ($2 IS NULL OR owner_id = $2)";
    return store__get_json(db, SQL, SV_ARGS(SV_STR(id), SV_STR(owner_id)), STORE_COLS(APP_COLS),
                           rc);
}

json_t *store_apps_of_owner(struct store *db, const char *owner_id)
{
    static const char *SQL = APP_SELECT " WHERE owner_id = $1 ORDER BY created_at, id";
    return store__list_json(db, SQL, SV_ARGS(SV_STR(owner_id)), STORE_COLS(APP_COLS));
}

static int app_create_at(struct store *db, struct store_new_app *a)
{
    static const char *SQL =
        "INSERT INTO applications (id, owner_id, name, description, icon_url, client_id,"
        " created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)";
    return store__exec(db, SQL,
                       SV_ARGS(SV_STR(a->id), SV_STR(a->owner_id), SV_STR(a->name),
                               SV_STR(a->description ? a->description : ""), SV_STR(a->icon_url),
                               SV_STR(a->client_id), SV_INT(a->now)));
}

STORE_WRITE_AS(store_app_create, struct store_new_app, app_create_at)

int store_app_update(struct store_writer *w, const char *id, const char *name,
                     const char *description, int set_icon, const char *icon_url)
{
    static const char *SQL = "UPDATE applications SET name = COALESCE($2, name),"
                             " description = COALESCE($3, description),"
                             " icon_url = CASE WHEN $4 = 1 THEN $5 ELSE icon_url END,"
                             " updated_at = $6 WHERE id = $1";
    return store__write_exec(w, SQL,
                             SV_ARGS(SV_STR(id), SV_STR(name), SV_STR(description),
                                     SV_INT(set_icon), SV_STR(icon_url), SV_INT(clock_now_ms())),
                             NULL);
}

/* The columns settable one at a time; anything else is refused (the name goes into SQL). */
static const char *setter_sql(const char *column, int is_int)
{
    static const struct {
        const char *column;
        const char *sql;
        int is_int;
    } setters[] = {
        {"intents", "UPDATE applications SET intents = $2, updated_at = $3 WHERE id = $1", 1},
        {"is_public", "UPDATE applications SET is_public = $2, updated_at = $3 WHERE id = $1", 1},
        {"interactions_endpoint_url",
         "UPDATE applications SET interactions_endpoint_url = $2, updated_at = $3 WHERE id = $1",
         0},
        {"signing_secret",
         "UPDATE applications SET signing_secret = $2, updated_at = $3 WHERE id = $1", 0},
        {"client_secret_hash",
         "UPDATE applications SET client_secret_hash = $2, updated_at = $3 WHERE id = $1", 0},
        {"redirect_uris",
         "UPDATE applications SET redirect_uris = $2, updated_at = $3 WHERE id = $1", 0},
    };
    for (size_t i = 0; i < sizeof setters / sizeof setters[0]; i++)
        if (!strcmp(setters[i].column, column) && setters[i].is_int == is_int)
            return setters[i].sql;
    return NULL;
}

int store_app_set_int(struct store_writer *w, const char *id, const char *column, int64_t v)
{
    const char *sql = setter_sql(column, 1);
    return sql ? store__write_exec(w, sql, SV_ARGS(SV_STR(id), SV_INT(v), SV_INT(clock_now_ms())),
                                   NULL)
               : STORE_ERR;
}

int store_app_set_text(struct store_writer *w, const char *id, const char *column, const char *v)
{
    const char *sql = setter_sql(column, 0);
    return sql ? store__write_exec(w, sql, SV_ARGS(SV_STR(id), SV_STR(v), SV_INT(clock_now_ms())),
                                   NULL)
               : STORE_ERR;
}

int store_app_suspend(struct store *db, const char *id, int suspended, const char *reason,
                      int64_t *changes)
{
    static const char *SQL = "UPDATE applications SET suspended = $2, suspended_reason = $3,"
                             " updated_at = $4 WHERE id = $1";
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(id), SV_INT(suspended), SV_STR(suspended ? reason : NULL),
                                 SV_INT(clock_now_ms())));
    *changes = store__changes(db);
    return rc;
}

/* The application to delete, for the writer's job. */
struct app_ref {
    const char *id;
};

static int app_delete(struct store *db, void *arg)
{
    static const char *SQL_ROLES = "SELECT role_id FROM installs WHERE application_id = $1";
    static const char *SQL_INSTALLS = "DELETE FROM installs WHERE application_id = $1";
    static const char *SQL_ROLE = "DELETE FROM roles WHERE id = $1";
    static const char *SQL_BOT = "DELETE FROM users WHERE id ="
                                 " (SELECT bot_user_id FROM applications WHERE id = $1)";
    static const char *SQL_APP = "DELETE FROM applications WHERE id = $1";
    const char *id = ((const struct app_ref *)arg)->id;
    json_t *roles = store__list_json(db, SQL_ROLES, SV_ARGS(SV_STR(id)),
                                     (const struct store_col[]){{"id", COL_TEXT}}, 1);
    if (!roles)
        return STORE_ERR;
    int rc = store__exec(db, SQL_INSTALLS, SV_ARGS(SV_STR(id)));
    size_t i;
    json_t *r;
    json_array_foreach(roles, i, r)
    {
        if (rc == STORE_DONE)
            rc = store__exec(db, SQL_ROLE,
                             SV_ARGS(SV_STR(json_string_value(json_object_get(r, "id")))));
    }
    json_decref(roles);
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_BOT, SV_ARGS(SV_STR(id)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_APP, SV_ARGS(SV_STR(id)));
    return rc;
}

int store_app_delete(struct store_writer *w, const char *app_id)
{
    struct app_ref a = {app_id};
    return store_write(w, app_delete, &a);
}

static int bot_create_at(struct store *db, struct store_new_bot *b)
{
    static const char *SQL_HAS = "SELECT bot_user_id IS NOT NULL FROM applications WHERE id = $1";
    static const char *SQL_USER =
        "INSERT INTO users (id, username, display_name, is_bot, created_at)"
        " VALUES ($1, $2, $3, 1, $4)";
    static const char *SQL_TOKEN =
        "INSERT INTO tokens (hash, user_id, kind, created_at) VALUES ($1, $2, 'bot', $3)";
    static const char *SQL_LINK =
        "UPDATE applications SET bot_user_id = $2, updated_at = $3 WHERE id = $1";
    struct store_stmt *st = store__query(db, SQL_HAS, SV_ARGS(SV_STR(b->app_id)));
    if (!st)
        return STORE_ERR;
    int rc = store__step(st);
    int has = rc == STORE_ROW && store__int(st, 0);
    store__finish(st);
    if (rc != STORE_ROW)
        return rc == STORE_DONE ? STORE_MISSING : rc;
    if (has)
        return STORE_TAKEN;
    rc = store__exec(
        db, SQL_USER,
        SV_ARGS(SV_STR(b->user_id), SV_STR(b->username), SV_STR(b->display_name), SV_INT(b->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_TOKEN,
                         SV_ARGS(SV_STR(b->token_hash), SV_STR(b->user_id), SV_INT(b->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_LINK,
                         SV_ARGS(SV_STR(b->app_id), SV_STR(b->user_id), SV_INT(b->now)));
    return rc;
}

STORE_WRITE_AS(store_bot_create, struct store_new_bot, bot_create_at)

static int bot_token_replace_at(struct store *db, struct store_bot_token *t)
{
    static const char *SQL_DELETE = "DELETE FROM tokens WHERE user_id = $1";
    static const char *SQL_INSERT =
        "INSERT INTO tokens (hash, user_id, kind, created_at) VALUES ($1, $2, 'bot', $3)";
    int rc = store__exec(db, SQL_DELETE, SV_ARGS(SV_STR(t->bot_user_id)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_INSERT,
                         SV_ARGS(SV_STR(t->token_hash), SV_STR(t->bot_user_id), SV_INT(t->now)));
    return rc;
}

STORE_WRITE_AS(store_bot_token_replace, struct store_bot_token, bot_token_replace_at)

json_t *store_suspended_bots(struct store *db)
{
    static const char *SQL = "SELECT bot_user_id FROM applications"
                             " WHERE suspended = 1 AND bot_user_id IS NOT NULL";
    return store__ids_json(db, SQL, NULL, 0);
}
