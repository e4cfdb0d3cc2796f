/*
 * Slash-command definitions (PUT /api/bot/commands), with no I/O: names, descriptions, options
 * and choices. The check returns a clean copy in the stored shape, or NULL with the path.
 */
#ifndef PRACA_DOMAIN_COMMAND_RULES_H
#define PRACA_DOMAIN_COMMAND_RULES_H
#include <jansson.h>

#include "domain/json_rules.h"

#define CMD_MAX              100 /* slash commands */
#define CMD_MENU_MAX         15  /* of each context-menu kind (user, message) */
#define CMD_NAME_MAX         32
#define CMD_DESCRIPTION_MAX  100
#define CMD_OPTIONS_MAX      25
#define CMD_CHOICES_MAX      25
#define CMD_CHOICE_VALUE_MAX 100
/* The text of one command in all (Discord's rule): what every member of a server downloads
 * stays small. */
#define CMD_TEXT_MAX 4000
/* A whole set as stored and served, in bytes of JSON. */
#define CMD_SET_BYTES_MAX (256 * 1024)

/*
 * commands: the request's array. Each clean command is {type, name, description, options,
 * defaultMemberPermissions, nameLocalizations, descriptionLocalizations}; each option {name,
 * description, type, required} plus choices or autocomplete when given. Names are unique in the
 * list (whatever the kind) and among a command's options; required options come before optional
 * ones. A context-menu command (type user or message) has an empty description and no options.
 */
json_t *rule_command_clean_list(json_t *commands, struct rule_error *err);

#endif
