/*
 * The server directory's rules, with no I/O: a server's description and tags as an owner sets
 * them, how a search is read and matched (words found in the name, description or tags, with
 * case and the accents of Portuguese and other Latin letters folded: "musica" finds "Música"),
 * and the order servers are listed in.
 */
#ifndef PRACA_DOMAIN_DIRECTORY_RULES_H
#define PRACA_DOMAIN_DIRECTORY_RULES_H
#include <stddef.h>
#include <stdint.h>

#define DIRECTORY_DESCRIPTION_MAX 300 /* characters */
#define DIRECTORY_TAGS_MAX        5
#define DIRECTORY_TAG_MAX         24  /* bytes, folded */
#define DIRECTORY_QUERY_MAX       200 /* characters of q */
#define DIRECTORY_WORDS_MAX       8
#define DIRECTORY_WORD_MAX        64 /* bytes of one folded word */

/* Folds UTF-8 text for matching: ASCII letters to lower case, Latin-1 letters with accents
 * (À–ÿ, as é, ç, ã) to their base letter, every other byte kept. out (cap ≥ 1) is cut at a
 * character boundary when full; returns its length. */
size_t rule_directory_fold(const char *in, size_t len, char *out, size_t cap);

/* A tag as it is kept: folded, 2–24 bytes of a-z, 0-9 and '-', not starting or ending with '-'.
 * 1 with it in out (cap ≥ DIRECTORY_TAG_MAX + 1), else 0. */
int rule_directory_tag(const char *in, size_t len, char *out, size_t cap);

/* The words of a search, folded, split on spaces; at most DIRECTORY_WORDS_MAX (the rest are
 * left out), each cut to DIRECTORY_WORD_MAX bytes. Returns how many. */
struct directory_words {
    char word[DIRECTORY_WORDS_MAX][DIRECTORY_WORD_MAX + 1];
    size_t n;
};
size_t rule_directory_words(const char *q, size_t len, struct directory_words *out);
/* 1 when every word is found in folded (a server's folded name, description and tags). */
int rule_directory_match(const char *folded, const struct directory_words *w);

/* The directory's order: more people online first, then more members, then the older server,
 * then the ID (so the order is total and pages do not overlap). */
struct directory_rank {
    int64_t online, members, created_at;
    const char *id;
};
int rule_directory_cmp(const struct directory_rank *a, const struct directory_rank *b);

#endif
