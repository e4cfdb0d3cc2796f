/*
 * Auto-moderation, with no I/O: a blocked word (or phrase) appears as a whole word,
 * case-insensitively (ASCII and the Latin-1 letters: "ÓTIMO" matches "ótimo"), or there are more
 * mentions than allowed.
 */
#ifndef PRACA_DOMAIN_AUTOMOD_H
#define PRACA_DOMAIN_AUTOMOD_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

int rule__automod_has_word(const char *text, size_t len, const char *word, size_t wlen);
/* 1 when text holds any of blocked_words (a JSON array of strings). */
int rule__automod_blocked(const char *text, size_t len, json_t *blocked_words);
/* 1 when the message breaks the rules: max_mentions < 0 means no mention limit. */
int rule_automod_blocks(const char *text, size_t len, json_t *blocked_words, int64_t max_mentions,
                        size_t mentions);

#endif
