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

struct store_new_channel {
    const char *id, *server_id, *type, *name, *topic;
    int64_t now;
};
int store_channel_create(struct store_writer *w, struct store_new_channel *arg);
int store_channel_update(struct store_writer *w, const char *cid, const char *name, int set_topic,
                         const char *topic, int64_t position);
int store_channel_delete(struct store_writer *w, const char *cid);
int store_overwrite_put(struct store_writer *w, const char *cid, const char *target,
                        const char *type, int64_t allow, int64_t deny);
int store_overwrite_delete(struct store_writer *w, const char *cid, const char *target,
                           int64_t *changes);

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
