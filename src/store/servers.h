/* Servers, channels, roles, overwrites, members, invites and bans in the database. */
#ifndef PRACA_STORE_SERVERS_H
#define PRACA_STORE_SERVERS_H
#include <jansson.h>
#include <stdint.h>

#include "core/idset.h"
#include "store/db.h"
#include "store/writer.h"

/* ---- reads: objects in the API's shape ---- */
json_t *store_server_json(struct store *db, const char *sid, int *rc);
json_t *store_servers_of_user(struct store *db, const char *uid);
/* The first `limit` servers uid joined, oldest first: [{id}], or NULL on error. */
json_t *store_server_ids_of_member(struct store *db, const char *uid, int64_t limit);
/* Channels of a server, each with its `overwrites` array, by position. */
json_t *store_channels_json(struct store *db, const char *sid);
json_t *store_channel_json(struct store *db, const char *cid, int *rc);
/* The threads of a channel (without overwrites: they take the parent's), newest first. */
json_t *store_threads_json(struct store *db, const char *cid, int64_t limit);
json_t *store_roles_json(struct store *db, const char *sid);
json_t *store_role_json(struct store *db, const char *rid, int *rc);
json_t *store_member_json(struct store *db, const char *sid, const char *uid, int *rc);
json_t *store_members_json(struct store *db, const char *sid, const char *after, int64_t limit);
json_t *store_dm_json(struct store *db, const char *cid, int *rc);

int store_count(struct store *db, const char *sql, const char *id, int64_t *out);
extern const char *const STORE_SQL_COUNT_ROLES;
extern const char *const STORE_SQL_COUNT_CHANNELS;
/* 1 when banned. */
int store_is_banned(struct store *db, const char *sid, const char *uid);

/* ---- writes (arguments for store_write) ---- */
struct store_new_server {
    const char *id, *name, *owner_id, *channel_id;
    int64_t everyone_perms, now;
};
int store_server_create(struct store *db, void *new_server);

struct store_server_patch {
    const char *id;
    const char *name;           /* NULL = keep */
    int64_t verification_level; /* -1 = keep */
    int requires_rules;         /* -1 = keep */
    const char *rules;
    int requires_2fa; /* -1 = keep */
    int discoverable; /* -1 = keep */
    int set_icon;
    const char *icon_url; /* with set_icon: NULL clears */
};
int store_server_update(struct store_writer *w, const struct store_server_patch *p);
int store_server_delete(struct store_writer *w, const char *sid);
int store_automod_set(struct store_writer *w, const char *sid, const char *words_json, int has_max,
                      int64_t max_mentions);
int store_rules_accept(struct store_writer *w, const char *sid, const char *uid);

struct store_new_channel {
    const char *id, *server_id, *type, *name, *topic;
    int64_t now;
};
int store_channel_create(struct store *db, void *new_channel);
int store_channel_update(struct store_writer *w, const char *cid, const char *name, int set_topic,
                         const char *topic, int64_t position);
int store_channel_delete(struct store_writer *w, const char *cid);
int store_overwrite_put(struct store_writer *w, const char *cid, const char *target,
                        const char *type, int64_t allow, int64_t deny);
int store_overwrite_delete(struct store_writer *w, const char *cid, const char *target,
                           int64_t *changes);

struct store_new_role {
    const char *id, *server_id, *name;
    int64_t permissions, color, now;
    int mentionable;
};
int store_role_create(struct store *db, void *new_role);
int store_role_update(struct store_writer *w, const char *rid, const char *name,
                      int64_t permissions, int64_t color, int mentionable);
int store_role_delete(struct store *db, void *role_id);
int store_member_role_add(struct store_writer *w, const char *sid, const char *uid,
                          const char *rid);
int store_member_role_remove(struct store_writer *w, const char *sid, const char *uid,
                             const char *rid, int64_t *changes);

/* Adds a member; 1 when added, 0 when already a member (and nothing changed). */
int store_member_add(struct store_writer *w, const char *sid, const char *uid);
int store_member_remove(struct store_writer *w, const char *sid, const char *uid, int64_t *changes);
int store_member_update(struct store_writer *w, const char *sid, const char *uid, int set_timeout,
                        int64_t timeout_until, const char *timeout_reason, int set_nick,
                        const char *nickname);
int store_ban(struct store_writer *w, const char *sid, const char *uid, const char *reason,
              const char *by);
int store_unban(struct store_writer *w, const char *sid, const char *uid, int64_t *changes);
json_t *store_bans_json(struct store *db, const char *sid);

int store_invite_create(struct store_writer *w, const char *code, const char *sid, const char *by,
                        int64_t max_uses, int64_t expires_at);
/* Uses an invite and adds the member in one transaction: returns 1 joined, 0 already a member,
 * -404 unknown / expired / used up, -403 banned, or a store error. *sid gets the server. */
struct store_invite_join {
    const char *code, *user_id;
    int64_t now;
    char server_id[40];
};
int store_invite_join(struct store *db, void *join);
json_t *store_invite_json(struct store *db, const char *code, int64_t now, int *rc);
/* Server sid's invites still usable at `now`, the newest first (at most STORE_INVITES_MAX):
 * [{code, maxUses, uses, expiresAt, createdAt, createdBy: {id, username, displayName}}]; NULL
 * on error. */
#define STORE_INVITES_MAX 500
json_t *store_invites_json(struct store *db, const char *sid, int64_t now);
/* Revokes invite code of server sid: 1 when it was there, 0 when not, < 0 on error. */
int store_invite_delete(struct store_writer *w, const char *sid, const char *code);

/* 1 when uid is in the DM channel cid. */
int store_dm_member(struct store *db, const char *cid, const char *uid);
/* uid's DMs, the most recently active first (at most STORE_DMS_MAX): [{id, userId, username,
 * displayName, lastMessageId, lastMessageAt}], the last two null before the first message. */
#define STORE_DMS_MAX 200
json_t *store_dm_list_json(struct store *db, const char *uid);
/* The IDs of the people in DM channel cid, as a set (NULL on error). */
struct idset *store_dm_people(struct store *db, const char *cid);
/* Finds or makes the DM channel between two people; id is used when it is new. */
struct store_dm_open {
    const char *id, *a, *b;
    int64_t now;
    char channel_id[40];
};
int store_dm_open(struct store *db, void *dm);

#endif
