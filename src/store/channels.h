/* Channels in the database: a server's channels and their permission overwrites, threads, and
 * direct-message channels. */
#ifndef PRACA_STORE_CHANNELS_H
#define PRACA_STORE_CHANNELS_H
#include <jansson.h>
#include <stdint.h>

#include "core/idset.h"
#include "store/db.h"
#include "store/writer.h"

/* Channels of a server, each with its `overwrites` array, by position. */
json_t *store_channels_json(struct store *db, const char *sid);
json_t *store_channel_json(struct store *db, const char *cid, int *rc);
/* The threads of a channel (without overwrites: they take the parent's), newest first. */
json_t *store_threads_json(struct store *db, const char *cid, int64_t limit);

/* type "category" makes a category; category_id (another type, NULL for none) puts the new
 * channel in one, synced with its overwrites. */
struct store_new_channel {
    const char *id, *server_id, *type, *name, *topic, *category_id;
    int64_t now;
};
int store_channel_create(struct store_writer *w, struct store_new_channel *arg);
/* A change to a channel or a category (is_category): NULL or -1 keep a field. set_parent moves a
 * channel to parent_id (a category of its server, or NULL); sync copies its category's overwrites
 * and marks it synced (also after a move). */
struct store_channel_patch {
    const char *id, *name, *topic, *parent_id;
    int is_category, set_topic, set_parent, sync;
    int64_t position;
};
int store_channel_update(struct store_writer *w, struct store_channel_patch *p);
/* Channels and categories of server_id placed at once; a channel moved to another category (or
 * to none) is no longer synced. Rows of another server are left alone. */
struct store_channel_position {
    const char *id, *parent_id;
    int is_category, set_parent;
    int64_t position;
};
struct store_channel_positions {
    const char *server_id;
    const struct store_channel_position *list;
    size_t n;
};
int store_channel_positions_set(struct store_writer *w, struct store_channel_positions *p);
/* A channel, thread or category (a category's channels stay, in none). */
int store_channel_delete(struct store_writer *w, const char *cid);
/* One overwrite of a channel or a category (a category's synced channels copy it; a channel is
 * no longer synced); delete sets changes. */
struct store_overwrite {
    const char *channel_id, *target_id, *type;
    int64_t allow, deny, changes;
};
int store_overwrite_put(struct store_writer *w, struct store_overwrite *o);
int store_overwrite_delete(struct store_writer *w, struct store_overwrite *o);

/* ---- direct messages ---- */
json_t *store_dm_json(struct store *db, const char *cid, int *rc);
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
/* Finds or opens the pair's conversation; a new one needs a server the two share
 * (STORE_REFUSED otherwise). */
int store_dm_open(struct store_writer *w, struct store_dm_open *arg);
/* Whether a and b share a server or a conversation (or are one person), or b deleted their
 * account (nothing of it is private any more): 1, 0, < 0 error. */
int store_people_acquainted(struct store *db, const char *a, const char *b);

#endif
