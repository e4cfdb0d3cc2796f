/*
 * A message search as people type it, read with no I/O: words and "quoted phrases" with the
 * filters from:, in:, mentions: (names, resolved by the caller), has:link|embed|file and
 * before:/after: (YYYY-MM-DD, or a full ISO 8601 time). Also the query text each database's
 * full-text search takes.
 */
#ifndef PRACA_DOMAIN_SEARCH_RULES_H
#define PRACA_DOMAIN_SEARCH_RULES_H
#include <stddef.h>
#include <stdint.h>

#define SEARCH_QUERY_MAX 512 /* characters of q */
#define SEARCH_TERMS_MAX 16  /* words and phrases */
#define SEARCH_NAME_MAX  100

struct search_query {
    char text[4 * SEARCH_QUERY_MAX + 1]; /* the words and phrases, as typed ("" for none) */
    size_t terms;
    char from[SEARCH_NAME_MAX + 1], in[SEARCH_NAME_MAX + 1], mentions[SEARCH_NAME_MAX + 1];
    int has_link, has_embed, has_file;
    int64_t after_ms, before_ms; /* 0: none */
};

/* 0, or -1 with why (Portuguese, static) for a query it cannot read. */
int rule_search_parse(const char *q, struct search_query *out, const char **why);

/* The words and phrases as SQLite's FTS5 takes them: each word and phrase quoted (quotes
 * doubled), so nothing typed is read as FTS5 syntax. out holds at least 2 * strlen(text) + 3. */
void rule_search_fts5(const char *text, char *out, size_t cap);

#endif
