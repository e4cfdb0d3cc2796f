/*
 * Applications, their bot users and tokens (installs and authorize sessions: store/installs.h).
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
/* STORE_TAKEN when the application already has a bot, STORE_MISSING when there is no such
 * application, STORE_CONSTRAINT when the username is taken. */
int store_bot_create(struct store_writer *w, struct store_new_bot *arg);
struct store_bot_token {
    const char *bot_user_id, *token_hash;
    int64_t now;
};
/* Replaces every token of the bot with the new one. */
int store_bot_token_replace(struct store_writer *w, struct store_bot_token *arg);

#endif
