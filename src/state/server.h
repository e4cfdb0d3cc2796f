/*
 * One server as the hot paths read it: settings, roles, channels with overwrites, members with
 * their roles and a username index, installed bots with their application's intents. Built from
 * the database in one pass (store/snapshot.h), then immutable and shared by reference between
 * threads; a change to the server replaces it as a whole (state.h). The audiences of events are
 * computed from it on first use and kept with it, so a send does not scan the installs.
 */
#ifndef PRACA_STATE_SERVER_H
#define PRACA_STATE_SERVER_H
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/idset.h"
#include "core/uuid.h"
#include "state/index.h"
#include "store/access.h"
#include "store/db.h"

struct state_role {
    char id[UUID_LEN + 1];
    char *name; /* owned */
    uint64_t perms;
    int64_t position;
    int mentionable;
};

struct state_overwrite {
    char target_id[UUID_LEN + 1];
    int is_member;
    uint64_t allow, deny;
};

struct state_channel {
    char id[UUID_LEN + 1];
    char type[8];                 /* text, forum, voice, thread */
    char parent_id[UUID_LEN + 1]; /* "" unless a thread */
    uint32_t first_overwrite, noverwrites;
};

struct state_member {
    char user_id[UUID_LEN + 1];
    char *username; /* owned */
    int is_bot, mfa_enabled;
    int64_t account_created_at, joined_at, timeout_until, rules_accepted_at;
    uint32_t first_role, nroles; /* into member_roles: role indexes, highest position first */
    int32_t bot;                 /* index into bots, or -1 */
};

struct state_bot {
    uint32_t member;
    char app_id[UUID_LEN + 1];
    uint32_t intents;
    int suspended;
};

struct state_server {
    atomic_int refs;
    char id[UUID_LEN + 1];
    char owner_id[UUID_LEN + 1];
    int verification_level, requires_2fa, requires_rules;
    json_t *automod_words; /* array of strings (owned; read-only once built) */
    int64_t automod_max;   /* -1 = none */
    int automod_on;
    uint64_t everyone;
    struct state_role *roles; /* highest position first, @everyone not included */
    struct state_channel *channels;
    struct state_overwrite *overwrites;
    struct state_member *members;
    uint32_t *member_roles;
    struct state_bot *bots;
    size_t nroles, nchannels, noverwrites, nmembers, nmember_roles, nbots;
    size_t cap_roles, cap_channels, cap_overwrites, cap_members, cap_member_roles, cap_bots;
    struct state_index role_ix, channel_ix, member_ix, username_ix;
    /* Audiences computed so far: [people?][channel + 1][intent bit], each valid until a timeout
     * ends. */
    pthread_mutex_t lock;
    struct state_audience *audiences;
    int64_t bytes;   /* what this snapshot holds, for the footprint report */
    int64_t used_at; /* when state_server last handed it out (under the state's lock) */
};

/* Reads server sid from db: *found 1 (returned, one reference), 0 no such server, < 0 error. */
struct state_server *state__server_load(struct store *db, const char *sid, int *found);
struct state_server *state__server_ref(struct state_server *s);
void state_server_unref(struct state_server *s);

int64_t state_server_channel(const struct state_server *s, const char *cid);
int64_t state_server_member(const struct state_server *s, const char *uid);
int64_t state_server_member_by_username(const struct state_server *s, const char *username);

/* What store_access_load answered for uid, from memory. */
void state_server_access(const struct state_server *s, const char *uid, struct store_access *a);
/* A member's effective permissions in a channel (both indexes valid), at time now. */
uint64_t state_server_channel_perms(const struct state_server *s, size_t member, size_t channel,
                                    int64_t now);
/* The bots (user IDs) that get an event of that intent bit: with channel >= 0, those that may
 * see that channel; with -1, every bot installed. Applications suspended or without the intent
 * are left out. A new reference, or NULL when out of memory. */
struct idset *state_server_audience(struct state_server *s, int64_t channel, uint32_t intent,
                                    int64_t now);
/* The same bots, and every person who may see that channel: the audience of the events people
 * see live too (messages). */
struct idset *state_server_audience_with_people(struct state_server *s, int64_t channel,
                                                uint32_t intent, int64_t now);
/* Only the people who may see that channel (-1: every person in the server): the audience of
 * the events only people's connections get (reactions, pins, changes to the server). */
struct idset *state_server_people(struct state_server *s, int64_t channel, int64_t now);

#endif
