/*
 * An export's files fetched from their links (import_fetch.c), for import_files.c: several at
 * once, since a file's round trip to a CDN costs far more than keeping it.
 */
#ifndef PRACA_CLI_IMPORT_FETCH_H
#define PRACA_CLI_IMPORT_FETCH_H
#include <stddef.h>
#include <stdint.h>

#define CLI_IMPORT_FETCH_REDIRECTS 5
#define CLI_IMPORT_FETCH_AT_ONCE   8

struct cli_import_fetch {
    const char *url;
    const char *path; /* the file its bytes go to, opened only while it is fetched */
    int64_t got;      /* out: bytes written */
    int ok;           /* out: a 2xx answer of at most max bytes, all written */
};

/* Once, before the first fetch: 0, or -1. */
int cli_import_fetch_init(void);
/* GETs each item's url into its file, CLI_IMPORT_FETCH_AT_ONCE at a time, each at most max bytes,
 * all of them at most *budget bytes (taken from it; < 0: any): a body past either fails its
 * item. 0, or -1 when the fetches could not start (each item not ok). */
int cli_import_fetch_all(struct cli_import_fetch *items, size_t n, int64_t max, int allow_private,
                         int64_t *budget);

#endif
