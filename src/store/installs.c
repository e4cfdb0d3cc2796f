/* Installs of applications into servers, and the authorize sessions that lead to them. */
#include <string.h>

#include "core/buf.h"
#include "store/installs.h"
#include "store/roles.h"
#include "store/rows.h"
#include "store/writer.h"

json_t *store_app_installs_json(struct store *db, const char *app_id)
{
    static const char *SQL =
        "SELECT i.server_id, s.name, i.granted_permissions, i.installed_at, i.installed_by"
        " FROM installs i JOIN servers s ON s.id = i.server_id WHERE i.application_id = $1"
        " ORDER BY i.installed_at, i.server_id";
    static const struct store_col COLS[] = {{"serverId", COL_TEXT},
                                            {"serverName", COL_TEXT},
                                            {"grantedPermissions", COL_INT},
                                            {"installedAt", COL_TIME},
                                            {"installedBy", COL_TEXT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(app_id)), STORE_COLS(COLS));
}

json_t *store_server_apps_json(struct store *db, const char *sid)
{
    static const char *SQL =
        "SELECT a.id, a.name, a.icon_url, a.bot_user_id, i.granted_permissions, i.installed_at"
        " FROM installs i JOIN applications a ON a.id = i.application_id WHERE i.server_id = $1"
        " ORDER BY i.installed_at, a.id";
    static const struct store_col COLS[] = {{"id", COL_TEXT},
                                            {"name", COL_TEXT},
                                            {"iconUrl", COL_TEXT},
                                            {"botUserId", COL_TEXT},
                                            {"grantedPermissions", COL_INT},
                                            {"installedAt", COL_TIME}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(sid)), STORE_COLS(COLS));
}

json_t *store_bot_servers_json(struct store *db, const char *bot_user_id)
{
    static const char *SQL =
        "SELECT s.id, s.name, s.icon_url, i.granted_permissions FROM installs i"
        " JOIN applications a ON a.id = i.application_id JOIN servers s ON s.id = i.server_id"
        " WHERE a.bot_user_id = $1 ORDER BY i.installed_at, s.id";
    static const struct store_col COLS[] = {{"id", COL_TEXT},
                                            {"name", COL_TEXT},
                                            {"iconUrl", COL_TEXT},
                                            {"grantedPermissions", COL_INT}};
    return store__list_json(db, SQL, SV_ARGS(SV_STR(bot_user_id)), STORE_COLS(COLS));
}

json_t *store_app_install_servers(struct store *db, const char *app_id)
{
    static const char *SQL = "SELECT server_id FROM installs WHERE application_id = $1";
    return store__ids_json(db, SQL, SV_ARGS(SV_STR(app_id)));
}

static int install_at(struct store *db, struct store_install *in)
{
    static const char *SQL_USE = "UPDATE authorize_sessions SET used_at = $2"
                                 " WHERE id = $1 AND used_at IS NULL AND expires_at > $2";
    static const char *SQL_BANNED = "SELECT 1 FROM bans WHERE server_id = $1 AND user_id = $2";
    static const char *SQL_EXISTING =
        "SELECT role_id FROM installs WHERE application_id = $1 AND server_id = $2";
    static const char *SQL_ROLE_PERMS =
        "UPDATE roles SET permissions = $2, name = $3 WHERE id = $1";
    static const char *SQL_INSTALL_PERMS =
        "UPDATE installs SET granted_permissions = $3, installed_by = $4"
        " WHERE application_id = $1 AND server_id = $2";
    static const char *SQL_MEMBER = "INSERT INTO members (server_id, user_id, joined_at)"
                                    " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    static const char *SQL_ROLE =
        "INSERT INTO roles (id, server_id, name, permissions, position, managed, created_at)"
        " VALUES ($1, $2, $3, $4, " STORE_ROLE_NEW_KEY("$2") ", 1, $5)";
    static const char *SQL_GIVE =
        "INSERT INTO member_roles (server_id, user_id, role_id) VALUES ($1, $2, $3)";
    static const char *SQL_INSTALL =
        "INSERT INTO installs (application_id, server_id, role_id, granted_permissions,"
        " installed_by, installed_at) VALUES ($1, $2, $3, $4, $5, $6)";
    int rc;
    if (in->session_id) {
        if ((rc = store__exec(db, SQL_USE, SV_ARGS(SV_STR(in->session_id), SV_INT(in->now)))) !=
            STORE_DONE)
            return rc;
        if (store__changes(db) != 1)
            return STORE_MISSING;
    }
    rc = store__exists(db, SQL_BANNED, SV_ARGS(SV_STR(in->server_id), SV_STR(in->bot_user_id)));
    if (rc)
        return rc > 0 ? STORE_REFUSED : rc;
    struct store_stmt *st =
        store__query(db, SQL_EXISTING, SV_ARGS(SV_STR(in->app_id), SV_STR(in->server_id)));
    if (!st)
        return STORE_ERR;
    char role_id[UUID_LEN + 1] = "";
    rc = store__step(st);
    if (rc == STORE_ROW)
        store__text_copy(st, 0, role_id, sizeof role_id);
    store__finish(st);
    if (rc < 0)
        return rc;
    if (role_id[0]) { /* reinstall: only the managed role's bits change */
        in->created = 0;
        rc = store__exec(db, SQL_ROLE_PERMS,
                         SV_ARGS(SV_STR(role_id), SV_INT(in->granted), SV_STR(in->role_name)));
        if (rc == STORE_DONE)
            rc = store__exec(db, SQL_INSTALL_PERMS,
                             SV_ARGS(SV_STR(in->app_id), SV_STR(in->server_id), SV_INT(in->granted),
                                     SV_STR(in->installer_id)));
        return rc;
    }
    in->created = 1;
    rc = store__exec(db, SQL_MEMBER,
                     SV_ARGS(SV_STR(in->server_id), SV_STR(in->bot_user_id), SV_INT(in->now)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_ROLE,
                         SV_ARGS(SV_STR(in->new_role_id), SV_STR(in->server_id),
                                 SV_STR(in->role_name), SV_INT(in->granted), SV_INT(in->now)));
    if (rc == STORE_DONE)
        rc = store__exec(
            db, SQL_GIVE,
            SV_ARGS(SV_STR(in->server_id), SV_STR(in->bot_user_id), SV_STR(in->new_role_id)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_INSTALL,
                         SV_ARGS(SV_STR(in->app_id), SV_STR(in->server_id), SV_STR(in->new_role_id),
                                 SV_INT(in->granted), SV_STR(in->installer_id), SV_INT(in->now)));
    return rc;
}

STORE_WRITE_AS(store_install, struct store_install, install_at)

static int uninstall_at(struct store *db, struct store_uninstall *u)
{
    static const char *SQL_FIND = "SELECT i.role_id, a.bot_user_id FROM installs i"
                                  " JOIN applications a ON a.id = i.application_id"
                                  " WHERE i.application_id = $1 AND i.server_id = $2";
    static const char *SQL_INSTALL =
        "DELETE FROM installs WHERE application_id = $1 AND server_id = $2";
    static const char *SQL_ROLE = "DELETE FROM roles WHERE id = $1";
    static const char *SQL_MEMBER = "DELETE FROM members WHERE server_id = $1 AND user_id = $2";
    u->removed = 0;
    struct store_stmt *st =
        store__query(db, SQL_FIND, SV_ARGS(SV_STR(u->app_id), SV_STR(u->server_id)));
    if (!st)
        return STORE_ERR;
    char role_id[UUID_LEN + 1] = "", bot[UUID_LEN + 1] = "";
    int rc = store__step(st);
    if (rc == STORE_ROW) {
        const char *b = store__text(st, 1);
        store__text_copy(st, 0, role_id, sizeof role_id);
        slice_copy(slice_from(b ? b : ""), bot, sizeof bot);
    }
    store__finish(st);
    if (rc != STORE_ROW)
        return rc == STORE_DONE ? STORE_DONE : rc;
    rc = store__exec(db, SQL_INSTALL, SV_ARGS(SV_STR(u->app_id), SV_STR(u->server_id)));
    if (rc == STORE_DONE)
        rc = store__exec(db, SQL_ROLE, SV_ARGS(SV_STR(role_id)));
    if (rc == STORE_DONE && bot[0])
        rc = store__exec(db, SQL_MEMBER, SV_ARGS(SV_STR(u->server_id), SV_STR(bot)));
    u->removed = rc == STORE_DONE;
    return rc;
}

STORE_WRITE_AS(store_uninstall, struct store_uninstall, uninstall_at)

int store_authorize_create(struct store_writer *w, const char *id, const char *app_id,
                           const char *user_id, const char *redirect_uri, const char *state,
                           int64_t requested, int64_t created_at, int64_t expires_at)
{
    static const char *SQL =
        "INSERT INTO authorize_sessions (id, application_id, user_id, redirect_uri, state,"
        " requested_permissions, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    return store__write_exec(w, SQL,
                             SV_ARGS(SV_STR(id), SV_STR(app_id), SV_STR(user_id),
                                     SV_STR(redirect_uri), SV_STR(state), SV_INT(requested),
                                     SV_INT(expires_at), SV_INT(created_at)),
                             NULL);
}

int store_authorize_expire(struct store *db, int64_t before, int64_t *deleted)
{
    static const char *SQL = "DELETE FROM authorize_sessions WHERE expires_at < $1";
    int rc = store__exec(db, SQL, SV_ARGS(SV_INT(before)));
    *deleted = rc == STORE_DONE ? store__changes(db) : 0;
    return rc;
}

int store_authorize_find(struct store *db, const char *id, struct store_authorize *out)
{
    static const char *SQL =
        "SELECT id, application_id, user_id, redirect_uri, state, requested_permissions,"
        " expires_at, used_at IS NOT NULL FROM authorize_sessions WHERE id = $1";
    memset(out, 0, sizeof *out);
    int found;
    struct store_stmt *st = store__row(db, SQL, id, &found);
    if (st) {
        store__text_copy(st, 0, out->id, sizeof out->id);
        store__text_copy(st, 1, out->app_id, sizeof out->app_id);
        store__text_copy(st, 2, out->user_id, sizeof out->user_id);
        store__text_copy(st, 3, out->redirect_uri, sizeof out->redirect_uri);
        out->has_state = !store__is_null(st, 4);
        store__text_copy(st, 4, out->state, sizeof out->state);
        out->requested = store__int(st, 5);
        out->expires_at = store__int(st, 6);
        out->used = (int)store__int(st, 7);
        store__finish(st);
    }
    return found;
}
