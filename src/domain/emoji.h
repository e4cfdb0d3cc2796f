/* What a reaction may be: a Unicode emoji, or the ID of a custom emoji. No I/O. */
#ifndef PRACA_DOMAIN_EMOJI_H
#define PRACA_DOMAIN_EMOJI_H
#include <stddef.h>

#define RULE_EMOJI_MAX_BYTES   64 /* the longest family or flag sequence fits */
#define RULE_EMOJI_PER_MESSAGE 20 /* distinct reactions on one message (Discord's cap) */
#define RULE_CUSTOM_EMOJI_MAX  64

/* 1 when s (valid UTF-8, len bytes) is one emoji as people type it: a pictograph with its
 * variation selector, skin tone, ZWJ joins and tags, a keycap (0-9 # * then U+20E3), or a pair
 * of regional indicators (a flag). Letters, digits alone, spaces and marks are not. */
int rule_emoji_valid(const char *s, size_t len);
/* The Unicode emoji of a name as Slack and Mattermost spell the common ones ("+1", "tada",
 * "white_check_mark"; a skin tone after "::" is left out), or NULL. */
const char *rule_emoji_by_name(const char *name);
/* 1 when s is a custom emoji's ID: 1 to 64 of A-Z a-z 0-9 _ - */
int rule_emoji_custom_id_valid(const char *s, size_t len);

/* A server's own emoji: its name as :nome: shows it, 2 to 32 of a-z 0-9 _ (upper case folded to
 * lower, in place). 1 when it is one. */
#define RULE_EMOJI_NAME_MIN 2
#define RULE_EMOJI_NAME_MAX 32
int rule_emoji_name_fold(char *s, size_t len);

#endif
