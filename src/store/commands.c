/* Slash commands: see commands.h. Options are stored as their JSON text. */
#include "core/jsonout.h"
#include "store/commands.h"

#include <stdlib.h>
#include <string.h>

#include "store/rows.h"
#include "store/writer.h"

/* A JSON value as text, or NULL (SQL NULL) for JSON null. */
static char *json_dump_or_null(json_t *v)
{
    return v && !json_is_null(v) ? jsonout_dump(v, NULL) : NULL;
}

/* The columns every command read returns, in its API shape. */
#define COMMAND_SELECT                                                                             \
    "c.type, c.name, c.description, c.options, c.default_member_permissions,"                      \
    " c.name_localizations, c.description_localizations"
#define COMMAND_COLS                                                                               \
    {"type", COL_TEXT}, {"name", COL_TEXT}, {"description", COL_TEXT}, {"options", COL_JSON},      \
        {"defaultMemberPermissions", COL_INT}, {"nameLocalizations", COL_JSON},                    \
    {                                                                                              \
        "descriptionLocalizations", COL_JSON                                                       \
    }

static int commands_replace_at(struct store *db, struct store_commands_put *p)
{
    static const char *SQL_DELETE =
        "DELETE FROM application_commands WHERE application_id = $1 AND server_id = $2";
    static const char *SQL_INSERT =
        "INSERT INTO application_commands"
        " (application_id, server_id, name, description, options, created_at, type,"
        " default_member_permissions, name_localizations, description_localizations)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    int rc = store__exec(db, SQL_DELETE, SV_ARGS(SV_STR(p->app_id), SV_STR(p->server_id)));
    size_t i;
    json_t *cmd;
    json_array_foreach(p->commands, i, cmd)
    {
        if (rc != STORE_DONE)
            break;
        char *options = jsonout_dump(json_object_get(cmd, "options"), NULL);
        char *names = json_dump_or_null(json_object_get(cmd, "nameLocalizations"));
        char *descriptions = json_dump_or_null(json_object_get(cmd, "descriptionLocalizations"));
        json_t *perms = json_object_get(cmd, "defaultMemberPermissions");
        rc =
            !options
                ? STORE_ERR
                : store__exec(
                      db, SQL_INSERT,
                      SV_ARGS(SV_STR(p->app_id), SV_STR(p->server_id),
                              SV_STR(json_string_value(json_object_get(cmd, "name"))),
                              SV_STR(json_string_value(json_object_get(cmd, "description"))),
                              SV_STR(options), SV_INT(p->now),
                              SV_STR(json_string_value(json_object_get(cmd, "type"))),
                              json_is_integer(perms) ? SV_INT(json_integer_value(perms)) : SV_NULLV,
                              SV_STR(names), SV_STR(descriptions)));
        free(options);
        free(names);
        free(descriptions);
    }
    return rc;
}

STORE_WRITE_AS(store_commands_replace, struct store_commands_put, commands_replace_at)

json_t *store_app_commands_json(struct store *db, const char *app_id)
{
    static const char *SQL = "SELECT " COMMAND_SELECT ", NULLIF(c.server_id, '')"
                             " FROM application_commands c WHERE c.application_id = $1"
                             " ORDER BY c.server_id, c.name";
    static const struct store_col COLS[] = {COMMAND_COLS, {"serverId", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(app_id)), STORE_COLS(COLS));
}

json_t *store_server_commands_json(struct store *db, const char *server_id, uint32_t intent_bit)
{
    static const char *SQL =
        "SELECT c.application_id, " COMMAND_SELECT " FROM installs i"
        " JOIN applications a ON a.id = i.application_id"
        " JOIN application_commands c ON c.application_id = i.application_id"
        " WHERE i.server_id = $1 AND a.suspended = 0 AND (a.intents & $2) != 0"
        "   AND (c.server_id = $1 OR (c.server_id = '' AND NOT EXISTS ("
        "     SELECT 1 FROM application_commands s WHERE s.application_id = c.application_id"
        "       AND s.server_id = $1 AND s.name = c.name)))"
        " ORDER BY a.name, a.id, c.name";
    static const struct store_col COLS[] = {{"applicationId", COL_TEXT}, COMMAND_COLS};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(server_id), SV_INT(intent_bit)),
                            STORE_COLS(COLS));
}

json_t *store_command_find(struct store *db, const char *app_id, const char *server_id,
                           const char *name, int *rc)
{
    static const char *SQL = "SELECT " COMMAND_SELECT " FROM application_commands c"
                             " WHERE c.application_id = $1 AND c.name = $3"
                             "   AND c.server_id IN ('', $2)"
                             " ORDER BY c.server_id = '' LIMIT 1";
    static const struct store_col COLS[] = {COMMAND_COLS};
    return store__get_json(db, SQL, SV_ARGS(SV_STR(app_id), SV_STR(server_id), SV_STR(name)),
                           STORE_COLS(COLS), rc);
}

json_t *store_command_overrides_json(struct store *db, const char *server_id)
{
    static const char *SQL = "SELECT application_id, command_name, overrides"
                             " FROM command_permissions WHERE server_id = $1"
                             " ORDER BY application_id, command_name";
    static const struct store_col COLS[] = {
        {"applicationId", COL_TEXT}, {"commandName", COL_TEXT}, {"permissions", COL_JSON}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(server_id)), STORE_COLS(COLS));
}

json_t *store_command_overrides_of(struct store *db, const char *server_id, const char *app_id,
                                   const char *name, int *rc)
{
    static const char *SQL = "SELECT overrides FROM command_permissions"
                             " WHERE server_id = $1 AND application_id = $2 AND command_name = $3";
    static const struct store_col COLS[] = {{"permissions", COL_JSON}};
    json_t *row = store__get_json(db, SQL, SV_ARGS(SV_STR(server_id), SV_STR(app_id), SV_STR(name)),
                                  STORE_COLS(COLS), rc);
    json_t *list = json_incref(json_object_get(row, "permissions"));
    json_decref(row);
    return list;
}

static int overrides_put_at(struct store *db, struct store_command_overrides_put *p)
{
    static const char *SQL_DELETE = "DELETE FROM command_permissions WHERE server_id = $1"
                                    " AND application_id = $2 AND command_name = $3";
    static const char *SQL_INSERT =
        "INSERT INTO command_permissions (server_id, application_id, command_name, overrides,"
        " updated_at) VALUES ($1, $2, $3, $4, $5)";
    int rc = store__exec(db, SQL_DELETE,
                         SV_ARGS(SV_STR(p->server_id), SV_STR(p->app_id), SV_STR(p->name)));
    if (rc != STORE_DONE || json_array_size(p->overrides) == 0)
        return rc;
    char *text = jsonout_dump(p->overrides, NULL);
    rc = text ? store__exec(db, SQL_INSERT,
                            SV_ARGS(SV_STR(p->server_id), SV_STR(p->app_id), SV_STR(p->name),
                                    SV_STR(text), SV_INT(p->now)))
              : STORE_ERR;
    free(text);
    return rc;
}

STORE_WRITE_AS(store_command_overrides_put, struct store_command_overrides_put, overrides_put_at)

int store_command_target_exists(struct store *db, const char *server_id, const char *type,
                                const char *id)
{
    static const char *SQL_ROLE = "SELECT 1 FROM roles WHERE server_id = $1 AND id = $2";
    static const char *SQL_CHANNEL = "SELECT 1 FROM channels WHERE server_id = $1 AND id = $2";
    static const char *SQL_MEMBER = "SELECT 1 FROM members WHERE server_id = $1 AND user_id = $2";
    const char *sql = !strcmp(type, "role")      ? SQL_ROLE
                      : !strcmp(type, "channel") ? SQL_CHANNEL
                                                 : SQL_MEMBER;
    return store__exists(db, sql, SV_ARGS(SV_STR(server_id), SV_STR(id)));
}
