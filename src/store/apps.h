/*
 * Applications, their bot users and tokens, installs into servers, and authorize sessions.
 * Secrets: a client secret is kept only as its SHA-256; the interaction signing secret is kept
 * as is, because requests are signed with it.
 */
#ifndef PRACA_STORE_APPS_H
#define PRACA_STORE_APPS_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

#define APP_NAME_MAX_BYTES 160 /* 32 characters of up to 4 bytes, and the NUL */

/* What the install flow and the bot routes need to know about an application. */
struct store_app {
    char id[UUID_LEN + 1];
    char owner_id[UUID_LEN + 1];
    char bot_user_id[UUID_LEN + 1]; /* "" when there is no bot */
    char name[APP_NAME_MAX_BYTES];
    int is_public;
    int suspended;
    uint32_t intents;
    json_t *redirect_uris; /* owned: free with store_app_cleanup */
};

void store_app_cleanup(struct store_app *a);
/* 1 found, 0 not, < 0 error. */
int store_app_find(struct store *db, const char *id, struct store_app *out);
int store_app_find_by_client(struct store *db, const char *client_id, struct store_app *out);
int store_app_find_by_bot(struct store *db, const char *bot_user_id, struct store_app *out);

/* The Application object (intents as their bitmask: the API names them); NULL when there is no
 * such application of that owner. */
json_t *store_app_json(struct store *db, const char *id, const char *owner_id, int *rc);
json_t *store_apps_of_owner(struct store *db, const char *owner_id);

struct store_new_app {
    const char *id, *owner_id, *name, *description, *icon_url, *client_id;
    int64_t now;
};
int store_app_create(struct store_writer *w, struct store_new_app *arg);
int store_app_update(struct store_writer *w, const char *id, const char *name,
                     const char *description, int set_icon, const char *icon_url);
/* Single-column settings. */
int store_app_set_int(struct store_writer *w, const char *id, const char *column, int64_t v);
int store_app_set_text(struct store_writer *w, const char *id, const char *column, const char *v);
int store_app_suspend(struct store *db, const char *id, int suspended, const char *reason,
                      int64_t *changes);

/* Bot user IDs of suspended applications (a JSON array; NULL on error). */
json_t *store_suspended_bots(struct store *db);
/* Deletes the application, its installs and their managed roles, and its bot user (with its
 * tokens and memberships). */
int store_app_delete(struct store_writer *w, const char *app_id);

struct store_new_bot {
    const char *app_id, *user_id, *username, *display_name, *token_hash;
    int64_t now;
};
/* -409 when the application already has a bot, STORE_CONSTRAINT when the username is taken. */
int store_bot_create(struct store_writer *w, struct store_new_bot *arg);
struct store_bot_token {
    const char *bot_user_id, *token_hash;
    int64_t now;
};
/* Replaces every token of the bot with the new one. */
int store_bot_token_replace(struct store_writer *w, struct store_bot_token *arg);

/* ---- installs ---- */
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
