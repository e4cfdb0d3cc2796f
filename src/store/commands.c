/* Slash commands: see commands.h. Options are stored as their JSON text. */
#include "core/jsonout.h"
#include "store/commands.h"

#include <stdlib.h>

#include "store/rows.h"
#include "store/writer.h"

static int commands_replace_at(struct store *db, struct store_commands_put *p)
{
    static const char *SQL_DELETE =
        "DELETE FROM application_commands WHERE application_id = $1 AND server_id = $2";
    static const char *SQL_INSERT =
        "INSERT INTO application_commands"
        " (application_id, server_id, name, description, options, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6)";
    int rc = store__exec(db, SQL_DELETE, SV_ARGS(SV_STR(p->app_id), SV_STR(p->server_id)));
    size_t i;
    json_t *cmd;
    json_array_foreach(p->commands, i, cmd)
    {
        if (rc != STORE_DONE)
            break;
        char *options = jsonout_dump(json_object_get(cmd, "options"), NULL);
        if (!options)
            return STORE_ERR;
        rc = store__exec(db, SQL_INSERT,
                         SV_ARGS(SV_STR(p->app_id), SV_STR(p->server_id),
                                 SV_STR(json_string_value(json_object_get(cmd, "name"))),
                                 SV_STR(json_string_value(json_object_get(cmd, "description"))),
                                 SV_STR(options), SV_INT(p->now)));
        free(options);
    }
    return rc;
}

static int commands_replace_job(struct store *db, void *arg)
{
    return commands_replace_at(db, arg);
}

int store_commands_replace(struct store_writer *w, struct store_commands_put *p)
{
    return store_write(w, commands_replace_job, p);
}

json_t *store_app_commands_json(struct store *db, const char *app_id)
{
    static const char *SQL = "SELECT name, description, options, NULLIF(server_id, '')"
                             " FROM application_commands WHERE application_id = $1"
                             " ORDER BY server_id, name";
    static const struct store_col COLS[] = {{"name", COL_TEXT},
                                            {"description", COL_TEXT},
                                            {"options", COL_JSON},
                                            {"serverId", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(app_id)), STORE_COLS(COLS));
}

json_t *store_server_commands_json(struct store *db, const char *server_id, uint32_t intent_bit)
{
    static const char *SQL =
        "SELECT c.application_id, c.name, c.description, c.options"
        " FROM installs i"
        " JOIN applications a ON a.id = i.application_id"
        " JOIN application_commands c ON c.application_id = i.application_id"
        " WHERE i.server_id = $1 AND a.suspended = 0 AND (a.intents & $2) != 0"
        "   AND (c.server_id = $1 OR (c.server_id = '' AND NOT EXISTS ("
        "     SELECT 1 FROM application_commands s WHERE s.application_id = c.application_id"
        "       AND s.server_id = $1 AND s.name = c.name)))"
        " ORDER BY a.name, a.id, c.name";
    static const struct store_col COLS[] = {{"applicationId", COL_TEXT},
                                            {"name", COL_TEXT},
                                            {"description", COL_TEXT},
                                            {"options", COL_JSON}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(server_id), SV_INT(intent_bit)),
                            STORE_COLS(COLS));
}

json_t *store_command_find(struct store *db, const char *app_id, const char *server_id,
                           const char *name, int *rc)
{
    static const char *SQL = "SELECT name, description, options FROM application_commands"
                             " WHERE application_id = $1 AND name = $3 AND server_id IN ('', $2)"
                             " ORDER BY server_id = '' LIMIT 1";
    static const struct store_col COLS[] = {
        {"name", COL_TEXT}, {"description", COL_TEXT}, {"options", COL_JSON}};
    return store__get_json(db, SQL, SV_ARGS(SV_STR(app_id), SV_STR(server_id), SV_STR(name)),
                           STORE_COLS(COLS), rc);
}
