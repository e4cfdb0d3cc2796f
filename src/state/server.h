/*
 * One server as the hot paths read it, in two parts:
 *   - its shape: settings, roles, channels with their overwrites (small; read again whole when
 *     any of it changes);
 *   - its members and installed bots: persistent maps (core/pmap.h), so a join, a leave, a role
 *     grant, a timeout or an install makes a new version that shares everything but one path
 *     per map with the old one: O(log n) whatever the server's size.
 * A version is immutable once handed out and shared by reference between threads; state.h
 * replaces it by a newer one. The audiences of events are computed from a version on first use
 * and kept with it; a new version made by member changes carries them over with only those
 * members' places changed (O(log n) each). A new shape carries those of channels whose rights
 * read the same (plan_carry in server.c); a role's changed bits start them all again.
 */
#ifndef PRACA_STATE_SERVER_H
#define PRACA_STATE_SERVER_H
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/idset.h"
#include "core/pmap.h"
#include "core/uuid.h"
#include "state/index.h"
#include "store/access.h"
#include "store/db.h"

struct state_role {
    char id[UUID_LEN + 1];
    char *name; /* owned */
    uint64_t perms;
    int64_t key; /* order key (store/roles.h): compared, never shown */
    int mentionable;
    int hoist; /* its connected holders are listed apart (state/member_list.h) */
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

/* Settings, roles and channels: shared by every version until one of them changes. */
struct state_shape {
    atomic_int refs;
    char owner_id[UUID_LEN + 1];
    int verification_level, requires_2fa, requires_rules;
    json_t *automod_words; /* array of strings (owned; read-only once built) */
    int64_t automod_max;   /* -1 = none */
    int automod_on;
    uint64_t everyone;
    struct state_role *roles; /* highest first; neither @everyone nor bots' managed roles */
    struct state_channel *channels;
    struct state_overwrite *overwrites;
    size_t nroles, nchannels, noverwrites;
    size_t cap_roles, cap_channels, cap_overwrites;
    struct state_index role_ix, channel_ix;
    int64_t bytes;
};

/* A member: immutable once filed; a change files a new one. */
struct state_member {
    struct pmap_value v; /* first: filed by user ID and by username */
    char user_id[UUID_LEN + 1];
    char *username; /* owned */
    char *name;     /* as shown here: nickname, else display name (owned, or username) */
    int is_bot, mfa_enabled;
    int64_t account_created_at, joined_at, timeout_until, rules_accepted_at;
    char (*role_ids)[UUID_LEN + 1]; /* owned; in no particular order */
    size_t nroles, cap_roles;
    int64_t bytes;
};

/* An installed application's bot: filed by bot user ID and by application ID. Its managed role
 * lives here, not in the shape, so an install changes one entry, not the server's shape. */
struct state_bot {
    struct pmap_value v;
    char user_id[UUID_LEN + 1];
    char app_id[UUID_LEN + 1];
    uint32_t intents;
    int suspended;
    struct state_role role; /* id "" when none; name not kept (NULL) */
};

struct state_server {
    atomic_int refs;
    char id[UUID_LEN + 1];
    struct state_shape *shape; /* one reference */
    struct pmap members;       /* struct state_member by user ID */
    struct pmap usernames;     /* the same by username */
    struct pmap bots;          /* struct state_bot by bot user ID (installed, member or not) */
    struct pmap apps;          /* the same by application ID */
    /* Audiences computed so far: [people?][channel + 1][intent bit], each valid until a timeout
     * ends. */
    pthread_mutex_t lock;
    struct state_audience *audiences;
    /* A private version (state__server_apply's `private`): the version it was made from and
     * the users whose places it changed, so an audience it lacks is asked of that version (which
     * keeps it for the next change) and carried over. */
    struct state_server *parent;
    char (*touched)[UUID_LEN + 1];
    size_t ntouched;
    int64_t bytes;   /* what this version holds, for the footprint report */
    int64_t used_at; /* when state_server last handed it out (under the state's lock) */
};

/* Reads server sid from db: *found 1 (returned, one reference), 0 no such server, < 0 error. */
struct state_server *state__server_load(struct store *db, const char *sid, int *found);
/* What changed since base, for state__server_apply. */
struct state_delta {
    int shape;                           /* read the shape again */
    const char (*members)[UUID_LEN + 1]; /* read these members again */
    size_t nmembers;
    const char (*apps)[UUID_LEN + 1]; /* and these applications' installs */
    size_t napps;
};
/* A new version of base with what d names read again from db: *found 1 (returned, one
 * reference), 0 the server is gone, < 0 error. base is unchanged. A private version (one
 * handler's, inside the writer's transaction) keeps base to ask it for audiences. */
struct state_server *state__server_apply(struct state_server *base, struct store *db,
                                         const struct state_delta *d, int private, int *found);
struct state_server *state__server_ref(struct state_server *s);
void state_server_unref(struct state_server *s);

int64_t state_server_channel(const struct state_server *s, const char *cid);
/* The member with that user ID or username, or NULL (valid while s is). */
const struct state_member *state_server_member(const struct state_server *s, const char *uid);
const struct state_member *state_server_member_by_username(const struct state_server *s,
                                                           const char *username);
size_t state_server_member_count(const struct state_server *s);
/* How many applications are installed, and whether app_id is one of them. */
size_t state_server_install_count(const struct state_server *s);
int state_server_installed(const struct state_server *s, const char *app_id);

/* What store_access_load answered for uid, from memory. */
void state_server_access(const struct state_server *s, const char *uid, struct store_access *a);
/* A member's effective permissions in a channel (a valid index), at time now. */
uint64_t state_server_channel_perms(const struct state_server *s, const struct state_member *m,
                                    size_t channel, int64_t now);
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
