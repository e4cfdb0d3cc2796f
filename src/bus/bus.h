/*
 * The event bus. Handlers (any thread) publish an already-serialized event together with the
 * user IDs that should receive it; the bus hands it to the subscriber on the I/O thread, where
 * delivery is a lookup plus writes. Events reach the I/O thread through core/inbox; with
 * several nodes, a relay (bus/relay.h) also carries each event with an audience to the other
 * nodes, which publish it to their own bus for their own sockets.
 */
#ifndef PRACA_BUS_BUS_H
#define PRACA_BUS_BUS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "core/idset.h"
#include "core/inbox.h"
#include "core/uuid.h"

/* Control events: what the API (or the server's own parts) asks of every node's gateway, never
 * sent to a client. Each is typed (struct bus_control); its name travels between nodes with its
 * fields as JSON, written and read back once at the relay (bus_control_text, bus_control_read). */
enum bus_kind {
    BUS_KIND_CLIENT,       /* an event for clients, not a control */
    BUS_KIND_DISCONNECT,   /* close the recipients' connections (all, one token's, or all but one's)
                            */
    BUS_KIND_SWEEP,        /* another process changed the database: look for suspended apps now */
    BUS_KIND_VOICE_REVIEW, /* check again the rights of some voice sessions (serve/news.c's marks,
                            * and the API's when an application's intents change) */
    BUS_KIND_PRESENCE,     /* a user's shown status may have changed (on any node), for the
                            * member lists pages follow (gateway/member_lists.h) */
};
#define BUS_DISCONNECT   "__disconnect__"
#define BUS_SWEEP        "__sweep__"
#define BUS_VOICE_REVIEW "__voice_review__"
#define BUS_PRESENCE     "__presence__"

/* A control event's fields; which ones mean something depends on its kind. */
struct bus_control {
    char token_hash[65];       /* DISCONNECT: only that token's connections ("": all of them)… */
    int keep;                  /* …or, set, all of them but that token's */
    char server[UUID_LEN + 1]; /* VOICE_REVIEW: the sessions in that server… */
    char user[UUID_LEN + 1];   /* …and/or that user's; PRESENCE: whose status */
    int all;                   /* VOICE_REVIEW: every session */
    char status[16];           /* PRESENCE: the status shown */
    json_t *activity;          /* PRESENCE: the custom status shown (one reference; NULL: none) */
    int chosen;                /* PRESENCE: the user chose it now (gateway/presence_live.h) */
};

/* The JSON text a control travels as between nodes (malloc'd; NULL when out of memory), and
 * back: 0, or -1 when the text is not a control of that kind (out is then empty). */
char *bus_control_text(enum bus_kind kind, const struct bus_control *c, size_t *len);
int bus_control_read(enum bus_kind kind, const char *text, size_t len, struct bus_control *out);

/* Where an event happened, set by the code that publishes it: delivery, the event log, the relay
 * and the console route by it, and nothing reads a payload to learn it. Each is an ID or "". */
struct bus_where {
    char server[UUID_LEN + 1];  /* its server; "" for a DM's or one user's own */
    char channel[UUID_LEN + 1]; /* the channel whose rights apply (a thread's parent), or a DM */
    char room[UUID_LEN + 1];    /* what a page shows it in: the thread itself, else the channel */
    char message[UUID_LEN + 1]; /* the message it is about */
    char user[UUID_LEN + 1];    /* the one user it is addressed to (their own stream) */
};

/* The IDs given (NULL for none) as a header; an ID of the wrong length is left out. */
struct bus_where bus_where_of(const char *server, const char *channel, const char *room,
                              const char *message, const char *user);
/* "server,channel,room,message,user" (the relay's field), and back; bus_where_parse leaves out
 * what is not an ID. */
#define BUS_WHERE_TEXT (5 * (UUID_LEN + 1))
void bus_where_text(const struct bus_where *w, char out[BUS_WHERE_TEXT]);
struct bus_where bus_where_parse(const char *text, size_t len);

struct bus_event {
    char name[48]; /* MESSAGE_CREATE, GUILD_MEMBER_ADD … */
    enum bus_kind kind;
    struct bus_where where;
    struct bus_control control; /* a control event's fields (kind not BUS_KIND_CLIENT) */
    char *payload;              /* JSON text (owned) */
    size_t payload_len;
    struct idset *to;  /* user IDs (one reference; NULL = nobody) */
    uint64_t position; /* in the event log; 0: not logged (control and live-only events) */
    uint32_t route;    /* bus_route of its server (else user): which stream shard carries it */
    int from_peer;     /* relayed from another node: not relayed again */
    struct bus_event *next;
    struct job item; /* private: the way to the I/O thread */
    struct bus *bus; /* private */
};

/* Called on the I/O thread for each event; the event is freed after it returns. */
typedef void (*bus_deliver_fn)(void *user, const struct bus_event *ev);

struct bus;

struct bus *bus_new(uv_loop_t *loop);
void bus_subscribe(struct bus *b, bus_deliver_fn fn, void *user);
/* Thread-safe. Takes ownership of payload (malloc'd) and of the reference to `to` (may be
 * NULL), even when it fails. Returns 0 or -1. */
int bus_publish(struct bus *b, const char *name, char *payload, size_t len, struct idset *to);
/* The same from a JSON payload (serialized here; takes payload and to), to every node's sockets,
 * or with here_only this node's (bus__publish_local). */
int bus_publish_json(struct bus *b, const char *name, json_t *payload, struct idset *to,
                     int here_only);
/* Which of several streams carries what happens in a server (or to a user, or to a token):
 * a hash of its ID; 0 for NULL. The same on every node. */
uint32_t bus_route(const char *id);
/* The same for an event logged at position (0: live only) that happened where `where` says
 * (NULL: nowhere in particular). */
int bus_publish_at(struct bus *b, const char *name, char *payload, size_t len, struct idset *to,
                   uint64_t position, const struct bus_where *where);
/* A control event of that kind to the gateway of this node and (unless here_only) every other;
 * takes c->activity and the reference to `to` (the DISCONNECT's users; NULL otherwise). */
int bus_publish_control(struct bus *b, enum bus_kind kind, struct bus_control *c, struct idset *to,
                        int here_only);
/* Events held back until a commit: filled by one thread, then published or dropped whole. */
struct bus_held {
    struct bus_event *head, *tail;
};
/* An event another node relayed here: delivered to this node's sockets only. */
int bus__publish_peer(struct bus *b, const char *name, char *payload, size_t len, struct idset *to,
                      uint64_t position, const struct bus_where *where);
/* An event for this node's sockets only, never relayed: the I/O thread's own (it must not wait
 * on Redis). */
int bus__publish_local(struct bus *b, const char *name, char *payload, size_t len,
                       struct idset *to);
/* Several nodes: fn gets each event of this node that has an audience, on the thread that
 * publishes it (a logged one on the writer's, right after the commit, in commit order) before
 * it is queued, and each BUS_DISCONNECT (a session or token that ended closes its sockets on every
 * node). Set before any publishing thread starts. */
typedef void (*bus_relay_fn)(void *user, const struct bus_event *ev);
void bus_set_relay(struct bus *b, bus_relay_fn fn, void *user);
/* fn gets each client event this node publishes (not those another node relayed), as the relay
 * does: on the publishing thread, after the commit, in commit order. It must only copy what it
 * keeps and return (Web Push takes new messages this way, api/web_push.h). Set before any
 * publishing thread starts. */
void bus_set_observer(struct bus *b, bus_relay_fn fn, void *user);
/* Like bus_publish_at, into h. Takes payload and the reference to `to`. Returns where the held
 * event's position is kept (valid until h is published or dropped), or NULL. */
uint64_t *bus_hold(struct bus_held *h, const char *name, char *payload, size_t len,
                   struct idset *to, uint64_t position, const struct bus_where *where);
/* A control event held as bus_publish_control would publish it; 0 or -1. */
int bus_hold_control(struct bus_held *h, enum bus_kind kind, struct bus_control *c,
                     struct idset *to);
/* Drops the event held last (its change did not happen after all). */
void bus_held_drop_last(struct bus_held *h);
/* Publishes every held event in order and empties h. */
void bus_publish_held(struct bus *b, struct bus_held *h);
void bus_held_drop(struct bus_held *h);
/* Closes the loop handle; events published from then on are dropped. */
void bus_close(struct bus *b);
/* After the loop has run the close and every publishing thread has stopped (the writer, the
 * workers). bus_free(NULL) does nothing. */
void bus_free(struct bus *b);
/* Events published so far (any thread): what changed since a count was last taken. */
unsigned long bus_published(struct bus *b);

#endif
