/*
 * Permission checks for handlers: load who the caller is in a server, compute their effective
 * permissions (domain/permissions.h), and answer 404/403 in the one wording used everywhere.
 * Each function returns 0 when the caller may go on, -1 when it has already answered.
 */
#ifndef PRACA_API_ACCESS_H
#define PRACA_API_ACCESS_H
#include <jansson.h>
#include <stdint.h>

#include "api/api.h"
#include "domain/permissions.h"
#include "store/access.h"
#include "store/perm_channels.h"

struct access {
    struct store_access s;
    const char *server_id;
    const char *user_id;
    int is_owner;
    int timed_out;
    uint64_t base; /* server-level effective permissions */
};

/* Loads uid's access without answering: 0 a member (a computed), 1 not a member or no such
 * server, -1 storage error. */
int api__access_quiet(struct api_call *c, const char *sid, const char *uid, struct access *a);
/* What @everyone holds in sid, as for someone who is not a member (a visitor's preview): 0, 1
 * no such server, -1 storage error (not answered). */
int api__access_visitor(struct api_call *c, const char *sid, struct access *a);
/* Whether the caller can read room cid (a conversation of theirs, or a server's channel or
 * thread they can see): 1, 0, or -1 on a storage error (nothing answered). */
int api__may_read(struct api_call *c, const char *cid);
/* The caller is not banned from sid: 0, or -1 answered (403, or 500). */
int api__not_banned(struct api_call *c, const char *sid);
/* Loads the caller's access; a non-member gets 404 (a server they cannot see). */
int api__access(struct api_call *c, const char *sid, struct access *a);
/* The opening of most server routes: reads :sid, loads the caller's access and requires bits
 * (0 = membership only). Returns the server ID, or NULL when it has answered. */
const char *api__server(struct api_call *c, struct access *a, uint64_t bits);
/* Fills the `status` of member objects (one, or an array) from presence. */
void api__member_status(struct api_call *c, json_t *members);
/* Answers 200 {member} for that member. */
void api__reply_member(struct api_call *c, const char *sid, const char *uid);
/* Loads another member's standing (for hierarchy checks): 404 when not a member. */
int api__access_of(struct api_call *c, const char *sid, const char *uid, struct access *a,
                   const char *not_found);
int api__require(struct api_call *c, const struct access *a, uint64_t bits);
/* Effective permissions in a channel by its own overwrites (a thread is read by its channel's). */
uint64_t api__channel_perms(const struct access *a, const struct store_perm_channel *channel);
/* The objects of channels (a server's, as store_channels_json lists them) that a sees by rows,
 * the same server's: channels first, then categories; a category shows when it may be seen, or
 * when a channel in it may (as on Discord). A new array, NULL when out of memory. */
json_t *api__channels_seen(const struct access *a, const struct store_perm_channels *rows,
                           json_t *channels);
/* Channel (thread, category, conversation) cid, held until the request ends: 1 (*row), 0 none,
 * -1 answered 500. */
int api__perm_channel(struct api_call *c, const char *cid, const struct store_perm_channel **row);
/* Server sid's channels and categories, held until the request ends; NULL when it answered 500. */
const struct store_perm_channels *api__server_perm_channels(struct api_call *c, const char *sid);
/* A channel of this server that the caller can see (VER_CANAL), held until the request ends,
 * with their permissions there; NULL when it has answered (404, 403 or 500). */
const struct store_perm_channel *api__channel(struct api_call *c, const struct access *a,
                                              const char *cid, uint64_t *perms);
/* The same for a channel or a category (the settings' routes act on both). */
const struct store_perm_channel *api__channel_or_category(struct api_call *c,
                                                          const struct access *a, const char *cid,
                                                          uint64_t *perms);
int api__require_in(struct api_call *c, uint64_t perms, uint64_t bits);
/* The calling bot's application has the intent (a bit of domain/intents.h, read now): 403
 * naming it otherwise. */
int api__bot_intent(struct api_call *c, uint32_t intent);
/* In a server that requires 2FA, moderation is refused to bots and to people without it. */
int api__moderation_allowed(struct api_call *c, const struct access *a);
/* The actor may act on the target: not the owner, not themselves, and ranked above them. */
int api__outranks(struct api_call *c, const struct access *actor, const struct access *target);
/* The actor may manage the role keyed `key` (store/roles.h), or move one to rank `rank`: the
 * owner always; others only below their highest role. */
int api__role_below(struct api_call *c, const struct access *actor, int64_t key);
int api__rank_below(struct api_call *c, const struct access *actor, int64_t rank);

#endif
