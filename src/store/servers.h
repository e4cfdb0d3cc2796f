/* Servers in the database: their settings, automod and rules, and who is in which. (Their channels,
 * roles and members: store/channels.h, store/roles.h, store/members.h.) */
#ifndef PRACA_STORE_SERVERS_H
#define PRACA_STORE_SERVERS_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

json_t *store_server_json(struct store *db, const char *sid, int *rc);
json_t *store_servers_of_user(struct store *db, const char *uid);
/* The first `limit` servers uid joined, oldest first: [{id}], or NULL on error. */
json_t *store_server_ids_of_member(struct store *db, const char *uid, int64_t limit);

/* How many rows a count query (one of the two below) gives for id. */
int store_count(struct store *db, const char *sql, const char *id, int64_t *out);
extern const char *const STORE_SQL_COUNT_ROLES;
extern const char *const STORE_SQL_COUNT_CHANNELS;
extern const char *const STORE_SQL_COUNT_CATEGORIES;

/* ---- writes ---- */
struct store_new_server {
    const char *id, *name, *owner_id, *channel_id;
    int64_t everyone_perms, now;
};
int store_server_create(struct store_writer *w, struct store_new_server *arg);

struct store_server_patch {
    const char *id;
    const char *name;           /* NULL = keep */
    int64_t verification_level; /* -1 = keep */
    int requires_rules;         /* -1 = keep */
    const char *rules;
    int requires_2fa; /* -1 = keep */
    int discoverable; /* -1 = keep */
    int set_icon;
    const char *icon_url;    /* with set_icon: NULL clears */
    const char *description; /* NULL = keep */
    const char *tags_json;   /* an array of tags (domain/directory_rules.h); NULL = keep */
    int link_previews;       /* -1 = keep */
};
int store_server_update(struct store_writer *w, const struct store_server_patch *p);
int store_server_delete(struct store_writer *w, const char *sid);
/* The server's owner becomes uid (a member: the caller checks). */
int store_server_owner_set(struct store_writer *w, const char *sid, const char *uid);
int store_automod_set(struct store_writer *w, const char *sid, const char *words_json, int has_max,
                      int64_t max_mentions);
int store_rules_accept(struct store_writer *w, const char *sid, const char *uid);

#endif
