/*
 * Message bodies, with no I/O: content length, embeds (Discord's shape, camelCase) and
 * components (action rows, or Components V2). Each check returns a cleaned copy holding only
 * the known fields, or NULL with the offending path and reason for the 400 answer.
 */
#ifndef PRACA_DOMAIN_MESSAGE_RULES_H
#define PRACA_DOMAIN_MESSAGE_RULES_H
#include <jansson.h>
#include <stddef.h>

#include "domain/json_rules.h"

#define MSG_CONTENT_MAX        4000
#define MSG_EMBEDS_MAX         10
#define MSG_EMBED_TOTAL_MAX    6000
#define MSG_COMPONENTS_MAX     40
#define MSG_FLAG_COMPONENTS_V2 32768
#define MSG_FLAG_EPHEMERAL     64  /* an interaction reply shown to its invoker only */
#define MSG_FLAG_LOADING       128 /* an interaction deferred: its answer is on its way */
#define MSG_FLAG_NO_PREVIEWS   4   /* its author removed its link previews (SUPPRESS_EMBEDS) */

/* embeds: a JSON array. Returns a new array, or NULL with err set. */
json_t *rule_message_clean_embeds(json_t *embeds, struct rule_error *err);
/* components: a JSON array; v2 selects the Components V2 rules. */
json_t *rule_message_clean_components(json_t *components, int v2, struct rule_error *err);
/* Total characters counted by the 6000 limit over all embeds of a cleaned array. */
size_t rule__message_embeds_chars(json_t *embeds);

#endif
