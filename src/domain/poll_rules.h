/*
 * Polls, with no I/O: what a poll may ask (a question, 2–10 answers with an optional emoji, one
 * choice or several, an end up to 7 days away) and what a vote may choose.
 */
#ifndef PRACA_DOMAIN_POLL_RULES_H
#define PRACA_DOMAIN_POLL_RULES_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define POLL_QUESTION_MAX  300 /* characters */
#define POLL_ANSWERS_MIN   2
#define POLL_ANSWERS_MAX   10
#define POLL_ANSWER_MAX    55 /* characters */
#define POLL_HOURS_DEFAULT 24
#define POLL_HOURS_MAX     (7 * 24)

/* A send's `poll` checked: {question, answers: [{text, emoji?}], multiple?, durationHours?}.
 * Returns what is kept, {question, answers: [{id, text, emoji}], multiple} with answer IDs 1…n
 * (a new reference), and sets *hours; NULL with *field and *why (Portuguese) when it is not a
 * poll. Text is trimmed; an emoji is one Unicode emoji (rule_emoji_valid). */
json_t *rule_poll_read(const json_t *poll, int64_t *hours, const char **field, const char **why);

/* A vote's answerIds: distinct IDs of 1…n_answers, at most one unless multiple, none to take the
 * vote back. Returns how many, sorted into out; -1 with *why when refused. */
int rule_poll_choice(const json_t *answer_ids, size_t n_answers, int multiple,
                     int out[POLL_ANSWERS_MAX], const char **why);

#endif
