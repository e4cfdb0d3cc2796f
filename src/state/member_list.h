/*
 * A channel's member list as a page shows it, in rows a page asks for by range (Discord's lazy
 * member list): the members who may see the channel, in groups — each hoisted role, highest
 * first, with its connected holders; then "online", the others connected; then "offline" —
 * each sorted by shown name (case-insensitively, then by user ID). A group's header is a row
 * before its members, and empty groups have none, so rows are numbered across the whole list.
 * A header names its group only (the counts are in the summary): a change past a range leaves
 * the range's rows as they were.
 *
 * The list follows a server's versions by their difference (pmap_diff), and presence user by
 * user; a group holds its members in sorted chunks, so a change moves at most one chunk's
 * pointers and a range is found by walking chunk counts. A new shape (roles, channels,
 * overwrites) builds the list again. Not thread-safe: a list belongs to one thread (the
 * gateway's I/O thread); state_member_list_delta runs on any, reading versions only.
 */
#ifndef PRACA_STATE_MEMBER_LIST_H
#define PRACA_STATE_MEMBER_LIST_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "state/server.h"

#define STATE_MEMBER_LIST_RANGE_MAX 100 /* rows in one range a page asks for */

/* A user's shown status: "online", "idle", "dnd" or "offline" (static strings). */
typedef const char *(*state_member_list_status_fn)(void *arg, const char *user_id);

struct state_member_list;

/* The list of channel cid of srv ("" or NULL: every member), statuses read through status.
 * NULL when out of memory or when there is no such channel. */
struct state_member_list *state_member_list_build(struct state_server *srv, const char *cid,
                                                  state_member_list_status_fn status, void *arg);
void state_member_list_free(struct state_member_list *l);
/* The version the list shows: a new reference (state_server_unref). */
struct state_server *state_member_list_version(const struct state_member_list *l);

/* What changed from the list's version to a newer one with the same shape, with the statuses
 * of the members new to it: made on a worker, applied on the list's thread. */
struct state_member_list_delta;
/* From the version `from` (the list's) to newer. NULL when out of memory, or when newer has
 * another shape (build the list again). */
struct state_member_list_delta *state_member_list_delta(struct state_server *from,
                                                        struct state_server *newer,
                                                        state_member_list_status_fn status,
                                                        void *arg);
void state_member_list_delta_free(struct state_member_list_delta *d);
/* Moves l to the delta's version. Returns 1 when a row changed, 0 when none did, -1 when out
 * of memory (the list is then to be built again). The delta is consumed. */
int state_member_list_apply(struct state_member_list *l, struct state_member_list_delta *d);

/* A user's shown status changed: 1 when a row changed, 0 not listed or the same, -1 no memory. */
int state_member_list_presence(struct state_member_list *l, const char *user_id,
                               const char *status);

/* A listed member's custom status (an object, as the presence shows it, or NULL: none), kept
 * by the list (a reference) and shown in their row while they are not offline: 1 when a row
 * changed, 0 not listed or the same, -1 no memory. */
int state_member_list_activity(struct state_member_list *l, const char *user_id, json_t *activity);

/* Members listed. */
size_t state_member_list_members(const struct state_member_list *l);
/* Rows in all. */
size_t state_member_list_rows(const struct state_member_list *l);
/* {memberCount, onlineCount, groups: [{id, count}]}: a new object, or NULL. */
json_t *state_member_list_summary(const struct state_member_list *l);
/* Rows start..end (inclusive; past the end: fewer), each {group: {id}} or
 * {member: {userId, name, username, isBot, status, roleIds}}: a new array, or NULL. */
json_t *state_member_list_range(const struct state_member_list *l, size_t start, size_t end);

#endif
