/* Members of servers in the database, and the invites and bans that let them in or keep them out.
 */
#ifndef PRACA_STORE_MEMBERS_H
#define PRACA_STORE_MEMBERS_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

json_t *store_member_json(struct store *db, const char *sid, const char *uid, int *rc);
/* faces: each user with avatarUrl (a person's page asks; bots get the interface's shape). */
json_t *store_members_json(struct store *db, const char *sid, const char *after, int64_t limit,
                           int faces);

/* Adds a member; 1 when added, 0 when already a member (and nothing changed). */
int store_member_add(struct store_writer *w, const char *sid, const char *uid);
int store_member_remove(struct store_writer *w, const char *sid, const char *uid, int64_t *changes);
int store_member_update(struct store_writer *w, const char *sid, const char *uid, int set_timeout,
                        int64_t timeout_until, const char *timeout_reason, int set_nick,
                        const char *nickname);

/* ---- bans ---- */
/* 1 when banned. */
int store_is_banned(struct store *db, const char *sid, const char *uid);
int store_ban(struct store_writer *w, const char *sid, const char *uid, const char *reason,
              const char *by);
int store_unban(struct store_writer *w, const char *sid, const char *uid, int64_t *changes);
json_t *store_bans_json(struct store *db, const char *sid);

/* ---- invites ---- */
int store_invite_create(struct store_writer *w, const char *code, const char *sid, const char *by,
                        int64_t max_uses, int64_t expires_at);
/* Uses an invite and adds the member in one transaction: returns 1 joined, 0 already a member,
 * STORE_MISSING unknown / expired / used up, STORE_REFUSED banned, or a store error.
 * server_id gets the server. */
struct store_invite_join {
    const char *code, *user_id;
    int64_t now;
    char server_id[40];
};
int store_invite_join(struct store_writer *w, struct store_invite_join *arg);
json_t *store_invite_json(struct store *db, const char *code, int64_t now, int *rc);
/* Server sid's invites still usable at `now`, the newest first (at most STORE_INVITES_MAX):
 * [{code, maxUses, uses, expiresAt, createdAt, createdBy: {id, username, displayName}}]; NULL
 * on error. */
#define STORE_INVITES_MAX 500
json_t *store_invites_json(struct store *db, const char *sid, int64_t now);
/* Revokes invite code of server sid: 1 when it was there, 0 when not, < 0 on error. */
int store_invite_delete(struct store_writer *w, const char *sid, const char *code);

#endif
