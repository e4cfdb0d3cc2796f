/*
 * What the server directory reads: the discoverable servers with their member counts, the
 * members of those servers (to count who is online), and a server's icon.
 */
#ifndef PRACA_STORE_DIRECTORY_H
#define PRACA_STORE_DIRECTORY_H
#include <stdint.h>

#include "store/db.h"

#define STORE_DIRECTORY_MAX 10000 /* servers listed at most: the most members first */

/* One discoverable server; strings valid during the call only. */
struct store_directory_row {
    const char *id, *name, *description, *tags_json;
    int64_t icon_version; /* 0: no icon */
    int64_t created_at, members;
};
typedef int (*store_directory_row_fn)(const struct store_directory_row *row, void *arg);
typedef int (*store_directory_member_fn)(const char *sid, const char *uid, void *arg);

/* Calls fn for each discoverable server, at most STORE_DIRECTORY_MAX: STORE_DONE, an error, or
 * what fn returned when it was not 0 (which stops). */
int store_directory_each(struct store *db, store_directory_row_fn fn, void *arg);
/* The same for each member of a discoverable server, in server order. */
int store_directory_members_each(struct store *db, store_directory_member_fn fn, void *arg);

/* Server sid's icon: 1 with its data URL (a malloc'd copy) and version, 0 when it has none or
 * there is no such server, < 0 on an error. */
int store_server_icon(struct store *db, const char *sid, char **data_url, int64_t *version);

#endif
