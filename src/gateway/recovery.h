/*
 * Connection-state recovery, as Socket.IO's own: connections that opt in get a private session
 * id (pid) and an offset as the last argument of each event; the events of the last two minutes
 * are kept (bounded), and a reconnect that presents its pid, last offset and the same token
 * receives what it missed. I/O thread only.
 */
#ifndef PRACA_GATEWAY_RECOVERY_H
#define PRACA_GATEWAY_RECOVERY_H
#include <stddef.h>
#include <stdint.h>

#include "core/idset.h"
#include "core/uuid.h"

#define RECOVERY_WINDOW_MS (2 * 60 * 1000)

struct recovery;

struct recovery *gateway__recovery_new(void);
void gateway__recovery_free(struct recovery *r);
/* Records an event delivered now to `to` (payload copied, a reference to `to` kept); returns its
 * offset (sequence number). */
uint64_t gateway__recovery_record(struct recovery *r, const char *name, const char *payload,
                                  size_t len, struct idset *to, int64_t now);
/* The same with the offset given (an event log position, increasing). */
uint64_t gateway__recovery_record_at(struct recovery *r, uint64_t seq, const char *name,
                                     const char *payload, size_t len, struct idset *to,
                                     int64_t now);
/* Offsets continue after last (the log's last position at start): nothing before is kept. */
void gateway__recovery_start_at(struct recovery *r, uint64_t last);
/* A pid: the position the connection began at, a dot, and 20 random characters, so a client
 * that comes back to a restarted server before it received any event still says where it was. */
#define RECOVERY_PID_MAX 48
/* A new pid for an opted-in connection that begins after position `since`. */
void gateway__recovery_new_pid(char out[RECOVERY_PID_MAX], uint64_t since);
/* The position a pid was made at (0 when it carries none). */
uint64_t gateway__recovery_pid_position(const char *pid);
/* An opted-in connection dropped without being kicked: its missed events stay claimable. */
/* since: the last offset before the connection began (its first event is after it). */
void gateway__recovery_park(struct recovery *r, const char *pid, const char *user_id,
                            const char *token_hash, uint64_t since, int64_t now);
/* The offset of the last event recorded so far. */
uint64_t gateway__recovery_last(const struct recovery *r);
/* Forgets a pid (a kick, or a recovery that happened). */
void gateway__recovery_forget(struct recovery *r, const char *pid);
/* 1 when pid can be recovered by this user and token (every missed event is still kept); the
 * pid is then forgotten. *offset is the client's last offset, or 0 when it sent none (then the
 * connection's start is used, and written back). */
int gateway__recovery_claim(struct recovery *r, const char *pid, const char *user_id,
                            const char *token_hash, uint64_t *offset, int64_t now);
/* Calls fn for each kept event after offset addressed to user_id, oldest first. */
void gateway__recovery_replay(struct recovery *r, uint64_t offset, const char *user_id,
                              void (*fn)(void *arg, uint64_t seq, const char *name,
                                         const char *payload, size_t len),
                              void *arg);
/* Drops what is older than the window. */
void gateway__recovery_expire(struct recovery *r, int64_t now);

#endif
