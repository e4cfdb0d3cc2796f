/*
 * The in-memory state the hot paths read instead of SQL: identities by token hash, and each
 * server as its newest immutable version (server.h). It follows the database and never leads it:
 *   - a miss loads the whole server from the caller's own connection and keeps the result,
 *     unless the server changed while it was being read (then the reader uses its copy once and
 *     keeps nothing);
 *   - the writer, after each commit and before it wakes anyone, names what the batch changed
 *     (store/snapshot.h: a server's shape, a member, an install, a token); the state notes it
 *     against the server, and the next reader reads just those rows and files a new version
 *     made from the old one, so a handler reads its own writes and a change costs O(log n);
 *   - changes made by another process (praca admin) are seen by the writer's data_version
 *     check, at most a second later, and drop everything.
 * Thread-safe: one mutex guards the tables; versions are shared by reference.
 */
#ifndef PRACA_STATE_STATE_H
#define PRACA_STATE_STATE_H
#include <stdint.h>

#include "state/server.h"
#include "store/db.h"
#include "store/people.h"

struct state;
struct store_writer;
struct tickets;

struct state *state_new(void);
void state_free(struct state *s);
/* The gateway tickets of sessions (state/tickets.h), owned by the state. */
struct tickets *state_tickets(struct state *s);
/* Who reads which room now (state/reading.h), owned by the state. */
struct reading;
struct reading *state_reading(struct state *s);

/* Who holds a token (by its SHA-256 hex): 1 found, 0 no such token, < 0 storage error. */
int state_identity(struct state *s, struct store *db, const char *token_hash,
                   struct store_token_owner *out);
/* A person's session ends once unused for idle_days; its use is written through w at most
 * hourly. Set once, before serving. */
void state_sessions_expire(struct state *s, struct store_writer *w, int idle_days);
/* A count that moves whenever an identity leaves memory (a token revoked or changed, or all
 * of them read again): an identity found before and the same count now is still current,
 * without a lookup. */
uint64_t state_identity_epoch(struct state *s);
/* 1 when a person's session last used at last_used has been idle too long (it is then
 * deleted); else 0, having recorded this use when the last one written is an hour old. */
int state_session_expired(struct state *s, const char *token_hash, int64_t last_used);
/* 1 when a person's session last used at last_used needs no write on this use (neither ended
 * nor due the hourly record of its use): it may be admitted from memory, off the writer. */
int state_session_fresh(const struct state *s, int64_t last_used);
/* Who holds a token now: state_identity, with a person's session idle too long ended (0). */
int state_identity_current(struct state *s, struct store *db, const char *token_hash,
                           struct store_token_owner *out);
/* The same from memory only, never blocking on storage: 1 known, 0 not in memory (ask
 * state_identity). */
int state_identity_known(struct state *s, const char *token_hash, struct store_token_owner *out);
/* Records in memory that a session was used at now (after the store has recorded it). */
void state_identity_used(struct state *s, const char *token_hash, int64_t now);
/* Loads every bot token's identity, so the bots reconnecting after a start cost no query.
 * Returns how many, or < 0. */
long state_identities_preload(struct state *s, struct store *db);
/* Server sid: a reference (release with state_server_unref), or NULL with *found 0 (no such
 * server) or < 0 (storage error). May end db's read transaction to read what changed. */
struct state_server *state_server(struct state *s, struct store *db, const char *sid, int *found);

/* Whether server sid may have changed since *seen (what an earlier call left there; 0 at
 * first): 1 yes or cannot tell, 0 no. *seen is then the count of changes so far. A lock and a
 * look at the last changes: cheap enough to ask often. */
int state_server_changed(struct state *s, const char *sid, uint64_t *seen);
/* The writer's side: what a commit changed (a mark, store/snapshot.h); everything changed. */
void state__changed(struct state *s, const char *mark);
void state__changed_all(struct state *s);
/* Forgets server sid, so its next reader reads it whole. */
void state__forget(struct state *s, const char *sid);
/* Forgets the servers not asked for since idle_ms before now (they load again on use): a node
 * holds the servers it serves, not every server it ever served. Returns how many. */
size_t state_forget_idle(struct state *s, int64_t now, int64_t idle_ms);
/* The same as a store_change_fn (store/writer.h): NULL means everything. */
void state_on_change(void *state, const char *sid);

/* What is held now: servers loaded and their bytes, identities cached. */
struct state_stats {
    size_t servers, identities;
    int64_t bytes;
};
void state__stats(struct state *s, struct state_stats *out);

#endif
