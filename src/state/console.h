/*
 * The event console of the developer portal: while an application's owner has it open, what
 * happened to each event of the application's servers on its way to the bot: delivered to a
 * socket, or withheld because the bot was not connected or was not among the event's recipients
 * (the reason is worked out when read: see api/console.c).
 *
 * Bounded: at most CONSOLE_APPS applications watched at once, the last CONSOLE_KEPT events
 * each, and a watch lapses CONSOLE_WATCH_MS after the page last asked. Nothing is recorded
 * while nobody watches, so delivery pays one atomic load. Thread-safe.
 */
#ifndef PRACA_STATE_CONSOLE_H
#define PRACA_STATE_CONSOLE_H
#include <stddef.h>
#include <stdint.h>

#include "core/idset.h"
#include "core/uuid.h"

#define CONSOLE_APPS     64
#define CONSOLE_KEPT     200
#define CONSOLE_WATCH_MS 60000

enum console_outcome {
    CONSOLE_DELIVERED,     /* written to at least one of the bot's sockets */
    CONSOLE_NOT_CONNECTED, /* among the recipients, with no socket open */
    CONSOLE_NOT_RECIPIENT, /* left out when the event was published */
    CONSOLE_NOT_HERE,      /* several nodes: no socket on this node; the first read asks presence */
};

struct console_entry {
    uint64_t position;
    char type[32];
    char kind[16]; /* an interaction's type (autocomplete…), "thinking" for a deferred answer */
    char server_id[UUID_LEN + 1];
    char channel_id[UUID_LEN + 1]; /* "" when the event has none */
    int64_t at;                    /* milliseconds */
    enum console_outcome outcome;
};

struct console;
struct console *state_console_new(void);
void state_console_free(struct console *c);

/* The owner looks at app_id, whose bot is bot_user_id, installed in servers (takes the
 * reference). Returns 0, or -1 when CONSOLE_APPS others are being watched. */
int state_console_watch(struct console *c, const char *app_id, const char *bot_user_id,
                        struct idset *servers, int64_t now);
/* Whether anyone watches (any thread; cheap). */
int state_console_watching(const struct console *c);

/* For the gateway: decides the outcome of the event for one watched bot. */
typedef enum console_outcome (*console_outcome_fn)(void *arg, const char *bot_user_id);
/* Records a logged event of server_id for every watched bot installed there. */
void state_console_record(struct console *c, const struct console_entry *e,
                          console_outcome_fn outcome, void *arg);

/* Settles a CONSOLE_NOT_HERE entry of app_id once presence has told (the first read's word is
 * kept). */
void state_console_settle(struct console *c, const char *app_id, uint64_t position,
                          enum console_outcome outcome);
/* Entries of app_id after position `after`, oldest first, at most max. */
size_t state_console_read(struct console *c, const char *app_id, uint64_t after,
                          struct console_entry *out, size_t max);

#endif
