/*
 * Installs of applications into servers, and the authorize sessions (the consent page's) that
 * lead to them (store/installs.c).
 */
#ifndef PRACA_STORE_INSTALLS_H
#define PRACA_STORE_INSTALLS_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

json_t *store_app_installs_json(struct store *db, const char *app_id);
json_t *store_server_apps_json(struct store *db, const char *sid);
json_t *store_bot_servers_json(struct store *db, const char *bot_user_id);

struct store_install {
    const char *app_id, *server_id, *bot_user_id, *role_name, *installer_id, *new_role_id;
    const char *session_id; /* when set, the authorize session is used up in the same step */
    int64_t granted, now;
    int created; /* out: 1 new install, 0 reinstall */
};
/* -404 session used or expired, -403 bot banned from the server. */
int store_install(struct store_writer *w, struct store_install *arg);
struct store_uninstall {
    const char *app_id, *server_id;
    int removed; /* out */
};
int store_uninstall(struct store_writer *w, struct store_uninstall *arg);
/* Server IDs where the application is installed, as a JSON array of strings. */
json_t *store_app_install_servers(struct store *db, const char *app_id);

/* ---- authorize sessions ---- */
struct store_authorize {
    char id[UUID_LEN + 1];
    char app_id[UUID_LEN + 1];
    char user_id[UUID_LEN + 1];
    char redirect_uri[2049];
    char state[2048];
    int has_state;
    int64_t requested;
    int64_t expires_at;
    int used;
};
int store_authorize_create(struct store_writer *w, const char *id, const char *app_id,
                           const char *user_id, const char *redirect_uri, const char *state,
                           int64_t requested, int64_t created_at, int64_t expires_at);
/* Deletes the consent sessions that expired before `before` (on the writer's connection, in
 * its retention job). */
int store_authorize_expire(struct store *db, int64_t before, int64_t *deleted);
int store_authorize_find(struct store *db, const char *id, struct store_authorize *out);

#endif
