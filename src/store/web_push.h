/*
 * Web Push's rows: the service's VAPID key pair (made at the first start, the same for every
 * node), each person's devices' push subscriptions, and each person's notification settings
 * per server or channel (domain/notify_rules.h says what they mean).
 */
#ifndef PRACA_STORE_WEB_PUSH_H
#define PRACA_STORE_WEB_PUSH_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "core/webpush.h"
#include "domain/notify_rules.h"
#include "store/db.h"
#include "store/writer.h"

#define STORE_PUSH_DEVICES_MAX  10   /* subscriptions per person; the oldest makes way */
#define STORE_PUSH_ENDPOINT_MAX 1024 /* bytes of a subscription's URL */
#define STORE_NOTIFY_SCOPES_MAX 1000 /* settings rows per person */

/* Makes the key pair unless there is one (on the start's own connection). STORE_DONE or an
 * error. */
int store_vapid_ensure(struct store *db, int64_t now);
/* The key pair: STORE_DONE, STORE_NOT_FOUND before store_vapid_ensure, or an error. */
int store_vapid_read(struct store *db, struct webpush_keys *out);
/* A new key pair in place of the old, and every subscription dropped (browsers made them for the
 * old public key, and push services would refuse its successor). STORE_DONE or an error. */
int store_vapid_rotate(struct store *db, int64_t now);

struct store_push_sub {
    char user_id[UUID_LEN + 1];
    char endpoint[STORE_PUSH_ENDPOINT_MAX + 1];
    unsigned char p256dh[WEBPUSH_PUBLIC_LEN];
    unsigned char auth[WEBPUSH_AUTH_LEN];
};

/* Registers a device of uid (p256dh and auth as the browser gave them, base64url); an endpoint
 * already known becomes uid's (the device signed in as someone else). Past
 * STORE_PUSH_DEVICES_MAX the person's oldest goes. */
int store_push_sub_put(struct store_writer *w, const char *uid, const char *endpoint,
                       const char *p256dh, const char *auth, int64_t now);
/* Forgets uid's endpoint; *deleted gets 1 or 0. */
int store_push_sub_delete(struct store_writer *w, const char *uid, const char *endpoint,
                          int64_t *deleted);
/* Every device of uid forgotten (signed out everywhere). */
int store_push_subs_forget(struct store_writer *w, const char *uid);
/* The push service said the endpoint is gone (404, 410): forgotten, whoever had it. */
int store_push_sub_gone(struct store_writer *w, const char *endpoint);
/* How many subscriptions there are, everyone's (< 0 on error). */
int64_t store_push_subs_total(struct store *db);
/* [{endpoint, createdAt}] of uid's devices, newest first; NULL on error. */
json_t *store_push_subs_json(struct store *db, const char *uid);
/* fn with each device of uid (keys decoded; a row whose keys do not decode is skipped). How many,
 * or < 0. */
long store_push_subs_of(struct store *db, const char *uid,
                        void (*fn)(void *arg, const struct store_push_sub *s), void *arg);
/* fn with each member of server sid who has a device (for @everyone and role mentions), and,
 * with members_too 0, only the people whose level for sid or cid is "all". How many, or < 0. */
long store_push_people_in(struct store *db, const char *sid, const char *cid, int members_too,
                          void (*fn)(void *arg, const char *uid), void *arg);

/* What a notification names: the author (their nickname in server sid when they have one), the
 * server and the room ("" for what is not there, or a DM). */
struct store_push_names {
    char author[128], server[128], room[128];
};
int store_push_names(struct store *db, const char *author, const char *sid, const char *room,
                     struct store_push_names *out);

/* uid's setting for scope (a server or channel ID): the defaults when there is none. STORE_DONE
 * or an error. */
int store_notify_setting(struct store *db, const char *uid, const char *scope,
                         struct notify_setting *out);
/* Saves it (the defaults delete the row). */
int store_notify_setting_put(struct store_writer *w, const char *uid, const char *scope,
                             const struct notify_setting *s);
/* {scopeId: {level, mutedUntil, suppressEveryone, suppressRoles}} of uid's settings; NULL on
 * error. */
json_t *store_notify_settings_json(struct store *db, const char *uid);
int64_t store_notify_settings_count(struct store *db, const char *uid);

#endif
