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

/* [{name, description, options, serverId}] of an application, global ones first. */
json_t *store_app_commands_json(struct store *db, const char *app_id);
/* [{applicationId, name, description, options}]: what members of a server can invoke, from the
 * applications installed there, not suspended, with the intent bit given; a server command
 * hides the global one of the same name. */
json_t *store_server_commands_json(struct store *db, const char *server_id, uint32_t intent_bit);
/* {name, description, options} of the command an application offers in a server (its server
 * command, else its global one); NULL when none (*rc STORE_DONE) or on error. */
json_t *store_command_find(struct store *db, const char *app_id, const char *server_id,
                           const char *name, int *rc);

#endif
