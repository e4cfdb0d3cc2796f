/* Mentions: see mentions.h. */
#include "domain/mentions.h"

#include <string.h>
#include <strings.h>

static int username_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
}

static int word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c >= 0x80;
}

/* Length of the username run after position i (the '@' is at i - 1). */
static size_t username_run(const char *t, size_t len, size_t i)
{
    size_t n = 0;
    while (i + n < len && username_char((unsigned char)t[i + n]))
        n++;
    /* A trailing '.' ends a sentence, not a name. */
    while (n && t[i + n - 1] == '.')
        n--;
    return n;
}

static int at_sign(const char *t, size_t i)
{
    return t[i] == '@' && (i == 0 || !username_char((unsigned char)t[i - 1]));
}

size_t rule_mentions_candidates(const char *text, size_t len, char (*out)[33], size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n < max; i++) {
        if (!at_sign(text, i))
            continue;
        size_t run = username_run(text, len, i + 1);
        if (run < 2 || run > 32)
            continue;
        char name[33];
        for (size_t k = 0; k < run; k++) {
            char c = text[i + 1 + k];
            name[k] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        }
        name[run] = '\0';
        int seen = 0;
        for (size_t k = 0; k < n && !seen; k++)
            seen = !strcmp(out[k], name);
        if (!seen)
            memcpy(out[n++], name, run + 1);
        i += run;
    }
    return n;
}

static void add(const char **list, size_t *n, const char *id)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(list[i], id))
            return;
    if (*n < MENTIONS_MAX)
        list[(*n)++] = id;
}

/* Matches a literal (case-insensitively) at p, ending on a word boundary. */
static size_t literal(const char *t, size_t len, size_t p, const char *word)
{
    size_t n = strlen(word);
    if (n == 0 || p + n > len || strncasecmp(t + p, word, n) != 0)
        return 0;
    if (p + n < len && word_char((unsigned char)t[p + n]) && word_char((unsigned char)word[n - 1]))
        return 0;
    return n;
}

void rule_mentions_resolve(const char *text, size_t len, const struct mention_user *users,
                           size_t nusers, const struct mention_role *roles, size_t nroles,
                           int allow_everyone, struct mention_result *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < len; i++) {
        if (!at_sign(text, i))
            continue;
        size_t p = i + 1, best = 0;
        const char *user = NULL, *role = NULL;
        int everyone = 0;
        if (allow_everyone) {
            size_t m = literal(text, len, p, "everyone");
            if (!m)
                m = literal(text, len, p, "here");
            if (m) {
                best = m;
                everyone = 1;
            }
        }
        for (size_t r = 0; r < nroles; r++) {
            size_t m = literal(text, len, p, roles[r].name);
            if (m > best) {
                best = m;
                role = roles[r].id;
                everyone = 0;
            }
        }
        size_t run = username_run(text, len, p);
        for (size_t u = 0; u < nusers && run >= 2; u++) {
            if (strlen(users[u].username) == run &&
                !strncasecmp(text + p, users[u].username, run) && run >= best) {
                best = run;
                user = users[u].id;
                role = NULL;
                everyone = 0;
            }
        }
        if (!best)
            continue;
        if (user)
            add(out->user_ids, &out->nusers, user);
        else if (role)
            add(out->role_ids, &out->nroles, role);
        else if (everyone)
            out->everyone = 1;
        i += best;
    }
    out->total = out->nusers + out->nroles + (size_t)out->everyone;
}
