/*
 * Mentions in message text, with no I/O. `@username` of a member, `@Role Name` of a mentionable
 * role (case-insensitive, the longest name wins), `@everyone` and `@here` (only when allowed;
 * otherwise they stay plain text). An '@' right after a letter, digit, '_' or '.' is not a
 * mention (e-mail addresses). Resolution is two steps: collect the @username candidates, look
 * them up, then resolve with what was found.
 */
#ifndef PRACA_DOMAIN_MENTIONS_H
#define PRACA_DOMAIN_MENTIONS_H
#include <stddef.h>

#define MENTIONS_MAX 100

struct mention_user {
    const char *id;
    const char *username; /* lowercase */
};

struct mention_role {
    const char *id;
    const char *name;
};

struct mention_result {
    const char *user_ids[MENTIONS_MAX]; /* distinct, in order of appearance */
    size_t nusers;
    const char *role_ids[MENTIONS_MAX];
    size_t nroles;
    int everyone;
    size_t total; /* distinct users + distinct roles + everyone, for automod */
};

/* Distinct lowercase usernames after '@' (at most max); returns how many. */
size_t rule_mentions_candidates(const char *text, size_t len, char (*out)[33], size_t max);
void rule_mentions_resolve(const char *text, size_t len, const struct mention_user *users,
                           size_t nusers, const struct mention_role *roles, size_t nroles,
                           int allow_everyone, struct mention_result *out);

#endif
