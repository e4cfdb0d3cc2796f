/*
 * An export's file fetched from its link (import_fetch.c), for import_files.c.
 */
#ifndef PRACA_CLI_IMPORT_FETCH_H
#define PRACA_CLI_IMPORT_FETCH_H
#include <stdint.h>

#define CLI_IMPORT_FETCH_REDIRECTS 5

/* Once, before the first fetch: 0, or -1. */
int cli_import_fetch_init(void);
/* GETs url into fd, at most max bytes (a longer body fails), a 2xx answer only: 0, or -1.
 * *got: the bytes written. */
int cli_import_fetch(const char *url, int fd, int64_t max, int allow_private, int64_t *got);

#endif
