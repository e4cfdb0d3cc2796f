/*
 * Who is online. The gateway (I/O thread) counts each user's connections; the API (worker
 * threads) saves a bot's chosen status and reads anyone's status for member lists. One mutex.
 * A user is online while at least one connection is open, showing their saved status
 * (online, idle, dnd; invisible shows offline), and offline when the last one drops.
 */
#ifndef PRACA_STATE_PRESENCE_H
#define PRACA_STATE_PRESENCE_H
#include <jansson.h>

struct presence;

struct presence *presence_new(void);
void presence_free(struct presence *p);
void presence_connected(struct presence *p, const char *user_id);
void presence_disconnected(struct presence *p, const char *user_id);
/* Saves the chosen status ("online", "idle", "dnd", "invisible") and activity (owned copy). */
void presence_set(struct presence *p, const char *user_id, const char *status, json_t *activity);
/* The shown status: online, idle, dnd or offline. */
const char *presence_status(struct presence *p, const char *user_id);
/* {status, activity, connected} of a user (a new object). */
json_t *presence_json(struct presence *p, const char *user_id);

#endif
