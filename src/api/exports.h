/*
 * Archives made off the request path on the exports' thread (exports.c), one at a time per node
 * and per person: a person's data (a tar) or a server's portable archive (server_archives.c).
 * Each is a row of store/exports.h, kept 7 days once ready.
 */
#ifndef PRACA_API_EXPORTS_H
#define PRACA_API_EXPORTS_H
#include <stdio.h>

#include "api/api.h"

/* Writes an archive to f on the exports' thread: 0, or -1. server_id is "" for a person's. */
typedef int (*api_archive_write_fn)(FILE *f, struct api_service *svc, struct store *db,
                                    const char *user_id, const char *server_id);

/* Starts the caller's archive (of server_id, or NULL: of their data): 202 {key: the row}, or
 * 409 while one of theirs is being made. */
void api__archive_start(struct api_call *c, const char *server_id, const char *key,
                        api_archive_write_fn write);
/* {key: the caller's five newest archives of server_id (NULL: of their data)}. */
void api__archive_list(struct api_call *c, const char *server_id, const char *key);
/* The caller's ready archive :id of server_id (NULL: of their data), as a file named by
 * name_format (given the ID's last 8 characters), or 404. */
void api__archive_send(struct api_call *c, const char *server_id, const char *type,
                       const char *name_format);

#endif
