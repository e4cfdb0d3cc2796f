/*
 * Events that handlers publish to the bus. The publisher resolves who receives each event
 * (bots in that server), so delivery needs no database.
 */
#ifndef PRACA_API_EVENTS_H
#define PRACA_API_EVENTS_H

#include "api/api.h"
#include "api/place.h"
#include "bus/bus.h"

/* GUILD_MEMBER_ADD with the member object of the new member. */
void api__event_member_add(struct api_call *c, const char *sid, const char *uid);
/* GUILD_MEMBER_REMOVE {serverId, userId, reason}; reason NULL when the member left. */
void api__event_member_remove(struct api_call *c, const char *sid, const char *uid,
                              const char *reason);
/* The same when a person leaves or is removed, and to that person's own pages too (live only), so
 * they leave the server at once; bots get nothing of their own removal. */
void api__event_person_removed(struct api_call *c, const char *sid, const char *uid,
                               const char *reason);

/* An event for one user's gateway connections (a person's or a bot's), at->user, logged in that
 * user's own stream; at says where it happened. Takes payload. */
void api__event_to_user(struct api_call *c, const char *name, const struct bus_where *at,
                        json_t *payload);

/* Runs fn as store_write does and, when it succeeds, logs `name` for at->user in the same
 * transaction; the event is delivered after the commit. Takes payload. Returns fn's result (or
 * STORE_ERR when the commit failed). Not on the writer lane (there, write, then publish). */
int api__write_with_event(struct api_call *c, store_write_fn fn, void *arg, const char *name,
                          const struct bus_where *at, json_t *payload);

/* Closes the gateway connections of a user (only those made with token_hash when given). */
void api__event_disconnect(struct api_call *c, const char *user_id, const char *token_hash);
/* Disconnects the user's connections except those made with keep_hash. */
void api__event_disconnect_others(struct api_call *c, const char *user_id, const char *keep_hash);

struct idset;
/* The header of an event at place p (its server, the channel whose rights apply, the room p
 * shows) about message mid (NULL: none). */
struct bus_where api__where(const struct place *p, const char *mid);
/* A message event (MESSAGE_CREATE / UPDATE / DELETE) about mid at place p, a server channel: to
 * the bots with messages.read that can see it now and to its people; logged. Takes payload. */
void api__event_message(struct api_call *c, const char *name, const struct place *p,
                        const char *mid, json_t *payload);
/* An event only people's connections get (the web client's: a thread's messages, reactions,
 * pins, typing), to the people who may see place p; about mid (or NULL); live only, never logged
 * nor replayed. Takes payload. */
void api__event_people(struct api_call *c, const char *name, const struct place *p, const char *mid,
                       json_t *payload);
/* An event for the people in `to` only, live, never logged, about nowhere in particular (a
 * presence). Takes payload and the reference to `to`. */
void api__event_to_people(struct api_call *c, const char *name, struct idset *to, json_t *payload);
/* The same in DM or group cid, about message mid (or NULL). */
void api__event_dm(struct api_call *c, const char *name, const char *cid, const char *mid,
                   struct idset *to, json_t *payload);
/* The payloads of MESSAGE_REACTIONS_UPDATE (one person's change) and CHANNEL_PINS_UPDATE, for a
 * channel or (sid NULL) a DM. */
json_t *api__reaction_change(const char *sid, const char *cid, const char *mid, const char *emoji,
                             const char *custom, const char *user_id, int64_t count, int added);
json_t *api__pin_change(const char *sid, const char *cid, const char *mid, int pinned);
/* A control event for every node's gateway (bus.h), with no audience: after the commit on the
 * writer lane, at once elsewhere. Takes ctl->activity. */
void api__event_control(struct api_call *c, enum bus_kind kind, struct bus_control *ctl);
/* SERVER_UPDATE {serverId, changed}: what changed ("server", "channels", "roles", "members")
 * is to be read again. */
void api__event_server_changed(struct api_call *c, const char *sid, const char *what);
/* Pages that show the caller learn of a new name or picture in each server they share: one
 * SERVER_UPDATE {changed: "members"} per server (the page reads its members again). */
void api__event_profile_changed(struct api_call *c);
/* api__event_message with the payload already serialized (a send answers with the same text);
 * takes text. */
void api__event_message_text(struct api_call *c, const char *name, const struct place *p,
                             const char *mid, char *text, size_t len);

#endif
