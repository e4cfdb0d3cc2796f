/*
 * Writing a message where a route has placed it: the end of the bot send and edit routes,
 * shared with interaction responses (which add the command, the invoker, and ephemerality).
 */
#ifndef PRACA_API_MESSAGES_H
#define PRACA_API_MESSAGES_H
#include <jansson.h>

#include "api/attachments.h"
#include "api/compose.h"
#include "api/limits.h"
#include "api/place.h"

struct message_write {
    const struct api_limit *limit; /* counted just before the write; NULL: none */
    const char *application_id;    /* the author's application */
    const char *command_name;      /* replies to an interaction */
    const char *command_invoker_id;
    int ephemeral;           /* not stored nor published: the caller shows it to the invoker */
    int text_only;           /* a person's edit: embeds, components and flags are not read */
    struct api_files *files; /* the message's files (a send with an upload, a bot's edit) */
    const struct store_message_webhook *webhook; /* posted by a webhook: its ID is the author */
    const struct store_new_poll *poll;           /* the message's poll, or NULL */
    const struct store_new_forward *forward;     /* the copy it forwards, or NULL */
    /* The last check before the write (after every 400/422): answers and returns nonzero to
     * stop. NULL: none. */
    int (*gate)(struct api_call *c, void *arg);
    void *gate_arg;
};

/* Creates the message from a checked draft. Returns its object as JSON text (malloc'd, *len
 * its length; MESSAGE_CREATE already published from the same text unless ephemeral), or NULL
 * when it has answered. */
char *api__message_create(struct api_call *c, const struct place *p, struct draft *d,
                          const struct message_write *w, size_t *len);
/* The human route's send at p, whose gates the caller passed (api__send_allowed): text, files,
 * a poll or a forward read from body, limit (NULL: none) counted last. The message's object as
 * text (as api__message_create), or NULL when it has answered. */
char *api__channel_post(struct api_call *c, const struct place *p, json_t *body,
                        const struct api_limit *limit, size_t *len);
/* Whether the caller may send on the human route at p (a text channel, or a thread for a
 * person; not timed out; ENVIAR_MENSAGENS; the rules accepted; the verification level met):
 * 0, or -1 when it has answered. */
int api__send_allowed(struct api_call *c, const struct place *p);
/* Timeouts, ENVIAR_MENSAGENS, rules acceptance and the verification level, as a person's send
 * meets them (the owner is exempt from the rules and the level, as the one who sets them); also
 * for whatever else posts text (threads, forum posts). -1 when it has answered. */
int api__human_gates(struct api_call *c, const struct place *p);
/* Edits message mid (known to be at p) with an edit body: absent keeps a field. Returns the
 * updated object (MESSAGE_UPDATE published), or NULL when it has answered. */
json_t *api__message_edit(struct api_call *c, const struct place *p, const char *mid, json_t *body,
                          const struct message_write *w);

#endif
