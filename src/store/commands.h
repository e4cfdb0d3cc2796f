/* Slash commands of applications: replace a set, list an application's, list a server's. */
#ifndef PRACA_STORE_COMMANDS_H
#define PRACA_STORE_COMMANDS_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

/* Argument of store_commands_replace (run with store_write). */
struct store_commands_put {
    const char *app_id;
    const char *server_id; /* "" for the global commands */
    json_t *commands;      /* clean Command objects (domain/command_rules.h) */
    int64_t now;
};
int store_commands_replace(struct store_writer *w, struct store_commands_put *arg);

/* A command in its API shape: {type, name, description, options, defaultMemberPermissions,
 * nameLocalizations, descriptionLocalizations}. */

/* [Command + serverId] of an application, global ones first. */
json_t *store_app_commands_json(struct store *db, const char *app_id);
/* [applicationId + Command]: what members of a server can invoke, from the
 * applications installed there, not suspended, with the intent bit given; a server command
 * hides the global one of the same name. */
json_t *store_server_commands_json(struct store *db, const char *server_id, uint32_t intent_bit);
/* The Command an application offers in a server (its server
 * command, else its global one); NULL when none (*rc STORE_DONE) or on error. */
json_t *store_command_find(struct store *db, const char *app_id, const char *server_id,
                           const char *name, int *rc);

/* [{applicationId, commandName, permissions}]: a server's command permission overrides. */
json_t *store_command_overrides_json(struct store *db, const char *server_id);
/* The overrides [{type, id, allow}] of one command in a server: NULL when there are none (*rc
 * STORE_DONE) or on error. */
json_t *store_command_overrides_of(struct store *db, const char *server_id, const char *app_id,
                                   const char *name, int *rc);

/* Argument of store_command_overrides_put: replaces the list (empty: removes it). */
struct store_command_overrides_put {
    const char *server_id, *app_id, *name;
    json_t *overrides;
    int64_t now;
};
int store_command_overrides_put(struct store_writer *w, struct store_command_overrides_put *p);
/* 1 when the role, channel or member (type) with that ID belongs to the server, 0 when not. */
int store_command_target_exists(struct store *db, const char *server_id, const char *type,
                                const char *id);

#endif
