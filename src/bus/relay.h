/*
 * Several nodes over Redis: every event a node logs, and every change its writer makes to what
 * the in-memory state holds, is appended to a Redis stream right after the commit (XADD, capped
 * with MAXLEN ~); every node follows the streams on its I/O thread (XREAD through hiredis's
 * libuv adapter), drops its own entries, applies the others' changes to its state and publishes
 * their events to its bus for its own sockets. An event carries the audience its node computed
 * (the recipients' IDs), so delivery needs no state beyond the per-socket checks.
 * The stream can be sharded: one shard per Redis URL given, and what happens in one server
 * always goes to the same shard (bus_route), so its entries keep their order.
 */
#ifndef PRACA_BUS_RELAY_H
#define PRACA_BUS_RELAY_H
#include <uv.h>

#include "bus/bus.h"

struct relay;

/* A change another node's writer made: a server ID, "t:" and a token hash, "" (identities), or
 * NULL (everything), as store/snapshot.h names them. */
typedef void (*relay_change_fn)(void *user, const char *what);

/* Connects the writer's side to each shard in urls (redis://…, comma-separated, a URL given
 * twice being two streams on one Redis), on the streams praca:LOG_NAME:events, then
 * praca:LOG_NAME:events:1 … (store_events_name: deployments that share a Redis keep apart);
 * NULL, logged, when it cannot. Voice sessions travel on the first shard. For
 * failure tests, PRACA_FAULT_EXIT_BEFORE_RELAY=TEXT makes the process exit at once, as if killed,
 * after committing an event whose payload holds TEXT and before relaying it. */
struct relay *bus_relay_new(const char *urls, const char *log_name, struct bus *bus,
                            relay_change_fn on_change, void *change_user);
/* The writer's side: an event after its commit (a bus_relay_fn), and what a commit changed.
 * Either may be called from any thread; a failure is logged and the entry is lost: the other
 * nodes read such an event from the event log (gateway/sequence.h), and a node that follows
 * again after losing Redis has everyone drop what they hold in memory, itself included. */
void bus_relay_event(void *relay, const struct bus_event *ev);
void bus_relay_change(struct relay *r, const char *what);
/* After a commit's changes, on the writer's settler thread (store/writer.h), never the writer:
 * waits, at most RELAY_SETTLE_MS, until every node that follows the stream has applied the changes
 * this node relayed so far, so that a request answered here and followed by one to another node
 * finds the change there too. For failure tests, PRACA_FAULT_RELAY_READ_PAUSE_MS=N makes this node
 * wait N ms before each XREAD. */
#define RELAY_SETTLE_MS 500
void bus_relay_settle(struct relay *r);
/* Bytes of entries waiting to be appended (all shards): it grows while Redis is slow. */
size_t bus_relay_queued_bytes(struct relay *r);
/* Voice sessions across nodes (state/voice.h), as text the relay does not read. A change
 * is appended as an entry and kept in the hash praca:LOG_NAME:voice:OWNER under key (the node
 * that holds the session's socket; a removal deletes the key); a node that starts following
 * loads the other live nodes' hashes first, then applies their entries. On the loop's thread,
 * apply gets each session another node put or removed, and drop each node that stopped
 * following (NULL: every other node, before a fresh load). */
struct bus_relay_voice {
    void (*apply)(void *user, const char *text, size_t len, int removed);
    void (*drop)(void *user, const char *node);
    void *user;
};
void bus_relay_on_voice(struct relay *r, const struct bus_relay_voice *voice);
/* Queues a change (any thread, never waits). */
void bus_relay_voice(struct relay *r, const char *owner, const char *key, const char *text,
                     int removed);
/* This node's name in the stream (random at each start). */
const char *bus_relay_node(const struct relay *r);
/* The following side, on loop's thread: from now on, the other nodes' entries. */
int bus_relay_follow(struct relay *r, uv_loop_t *loop);
/* On the loop's thread, before the loop's last run: stops following. */
void bus_relay_stop(struct relay *r);
/* After the loop has closed and no thread relays any more. bus_relay_free(NULL) does nothing. */
void bus_relay_free(struct relay *r);

#endif
