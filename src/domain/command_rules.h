/*
 * Slash-command definitions (PUT /api/bot/commands), with no I/O: names, descriptions, options
 * and choices. The check returns a clean copy in the stored shape, or NULL with the path.
 */
#ifndef PRACA_DOMAIN_COMMAND_RULES_H
#define PRACA_DOMAIN_COMMAND_RULES_H
#include <jansson.h>

#include "domain/json_rules.h"

#define CMD_MAX              100
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
 * commands: the request's array. Each clean command is {name, description, options}, each
 * option {name, description, type, required} plus choices when given. Names are unique in the
 * list and among a command's options; required options come before optional ones.
 */
json_t *rule_command_clean_list(json_t *commands, struct rule_error *err);

#endif
