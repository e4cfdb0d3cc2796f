/*
 * Who is online. The gateway (I/O thread) counts each user's connections; the API (worker
 * threads) saves a bot's chosen status and reads anyone's status for member lists. One mutex.
 * A user is online while at least one connection is open, showing their saved status
 * (online, idle, dnd; invisible shows offline), and offline when the last one drops. With
 * several nodes, a connection to any live node counts, and the status saved through any node
 * is shown.
 */
#ifndef PRACA_STATE_PRESENCE_H
#define PRACA_STATE_PRESENCE_H
#include <jansson.h>

struct presence;

struct presence *state_presence_new(void);
void state_presence_free(struct presence *p);
/* A connection opened or closed here: 1 when it was the user's first or last here (what others
 * see of the user may have changed), else 0. */
int state_presence_connected(struct presence *p, const char *user_id);
int state_presence_disconnected(struct presence *p, const char *user_id);
/* Saves the chosen status ("online", "idle", "dnd", "invisible") and activity (owned copy). */
void state_presence_set(struct presence *p, const char *user_id, const char *status,
                        json_t *activity);
/* The shown statuses of n users (online, idle, dnd or offline; static strings) into out: 0, or
 * -1 when out of memory. */
int state_presence_statuses(struct presence *p, const char *const *user_ids, size_t n,
                            const char **out);
/* The same, and for each user not offline their activity (a new reference, or NULL) into
 * activity[i]; NULL for the others. */
int state_presence_shown_many(struct presence *p, const char *const *user_ids, size_t n,
                              const char **status, json_t **activity);
/* 1 when the user has a connection open on any node (invisible or not). */
int state_presence_online_anywhere(struct presence *p, const char *user_id);
/* What others see of a user: their shown status (as state_presence_statuses) and, unless it is
 * offline, their activity (or null); a new object. */
json_t *state_presence_shown_json(struct presence *p, const char *user_id);
/* {status, activity, connected} of a user (a new object). */
json_t *state_presence_json(struct presence *p, const char *user_id);
/* Several nodes: the rooms user_id's pages on this node show now (comma-separated IDs, "" none),
 * and whether a page of theirs on another node shows room (1), for state/reading.h. Nothing, and
 * 0, on one node. */
void state_presence_reading(struct presence *p, const char *user_id, const char *rooms);
int state_presence_reading_elsewhere(struct presence *p, const char *user_id, const char *room);
/* Several nodes: connections are counted and statuses saved in Redis too (presence_shared.h),
 * under LOG_NAME's keys. 0, or -1 when it cannot start. */
int state_presence_share(struct presence *p, const char *redis_url, const char *log_name);

#endif
