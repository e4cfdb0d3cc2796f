/*
 * Who may be where, and who sees it, answered from the in-memory servers for the gateway and
 * the API alike: a user's standing in a voice channel, who watches a voice channel's
 * participants, and who sees a user's presence change. Each reads through the calling worker's
 * own connection (db) and releases its read transaction before returning.
 */
#ifndef PRACA_STATE_WATCHERS_H
#define PRACA_STATE_WATCHERS_H
#include <stddef.h>

#include "core/idset.h"
#include "domain/voice_rules.h"
#include "state/state.h"

/* Where user_id stands in voice channel channel_id now: allowed (and whether it may speak), or
 * why not. */
void state_voice_standing(struct state *s, struct store *db, const char *user_id, int is_bot,
                          const char *channel_id, struct voice_standing *out);
/* Who watches channel_id's voice participants: the bots with voice.connect and the people who
 * may see it (a malloc'd array, NULL when none). 0, or -1 on a storage error. */
int state_voice_observers(struct state *s, struct store *db, const char *server_id,
                          const char *channel_id, char (**to)[UUID_LEN + 1], size_t *n);
/* Only the first servers a user joined count for its presence: a popular bot's reconnects
 * cost little. */
#define PRESENCE_SERVERS_MAX 100

/* The people user_id's shown status goes to, user_id not among them: those of the first
 * PRESENCE_SERVERS_MAX servers it joined, none of a server of more than people_max people
 * (their pages follow the member list's ranges instead). A new reference, or NULL on error. */
struct idset *state_presence_watchers(struct state *s, struct store *db, const char *user_id,
                                      size_t people_max);

#endif
