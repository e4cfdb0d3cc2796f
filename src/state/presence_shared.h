/*
 * Presence across nodes, in Redis (presence.h calls it when PRACA_REDIS_URL is set). Each node
 * keeps the set of users connected to it, praca:NAME:online:NODE, and beats in the sorted set
 * praca:NAME:nodes (its name scored by the time of its last beat); a user is online while they
 * are in the set of a node that beat within NODE_DEAD_MS, so a node killed without a word stops
 * counting by itself, and its set is deleted by the next node that beats. The statuses people
 * save are in the hash praca:NAME:presence.
 *
 * This node's set is written by a thread of its own: a user's change is queued (never waiting on
 * Redis on the I/O thread) and written at once; at each beat the set is written whole again when
 * its size disagrees (Redis restarted, say). Reads are one script run on the caller's thread.
 */
#ifndef PRACA_STATE_PRESENCE_SHARED_H
#define PRACA_STATE_PRESENCE_SHARED_H
#include <stddef.h>

#define PRESENCE_BEAT_MS      2000
#define PRESENCE_NODE_DEAD_MS 10000
#define PRESENCE_STATUS_MAX   600 /* {"status":…,"activity":{type, name of 128}} escaped */

struct presence_shared;

/* Lists the users connected to this node: fn once per user ID. */
typedef void (*presence_each_fn)(void *user, void (*fn)(void *arg, const char *user_id), void *arg);

/* Starts the writing thread; NULL when url is not a Redis URL or the thread cannot start. */
struct presence_shared *state__presence_shared_new(const char *url, const char *log_name,
                                                   presence_each_fn each, void *each_user);
/* Stops the thread and takes this node's set out of Redis. NULL does nothing. */
void state__presence_shared_free(struct presence_shared *s);

/* A user's first connection to this node opened (online 1) or its last closed (0). */
void state__presence_shared_changed(struct presence_shared *s, const char *user_id, int online);

/* For each of n users: elsewhere[i] = 1 when connected to another live node, and saved[i] their
 * saved {"status","activity"} JSON ("" when none; PRESENCE_STATUS_MAX bytes each). 0, or -1 when
 * Redis could not answer (the arrays are then left as they were). */
int state__presence_shared_read(struct presence_shared *s, const char *const *user_ids, size_t n,
                                int *elsewhere, char (*saved)[PRESENCE_STATUS_MAX]);
/* The rooms user_id's pages on this node show now (IDs, comma-separated; "" none), kept in the
 * hash praca:NAME:reading:NODE for Web Push on the other nodes (written by the thread). */
void state__presence_shared_reading(struct presence_shared *s, const char *user_id,
                                    const char *rooms);
/* 1 when a page of user_id on another live node shows room, 0 when none, -1 when Redis could not
 * answer. */
int state__presence_shared_reading_elsewhere(struct presence_shared *s, const char *user_id,
                                             const char *room);
/* Saves a user's status JSON. 0, or -1 when Redis could not keep it. */
int state__presence_shared_save(struct presence_shared *s, const char *user_id, const char *json);

#endif
