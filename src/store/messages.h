/*
 * Messages, reactions and pins in the database, and threads started from a message.
 * A message lives in channel_id (a channel, a thread or a DM); for a thread message the API's
 * channelId is the thread's parent and threadId the thread.
 */
#ifndef PRACA_STORE_MESSAGES_H
#define PRACA_STORE_MESSAGES_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/attachments.h"
#include "store/db.h"
#include "store/forwards.h"
#include "store/polls.h"
#include "store/writer.h"

#define PINS_MAX 50

/* A message posted by a webhook: which, and the name and avatar it showed (avatar_url NULL:
 * none). */
struct store_message_webhook {
    const char *id, *name, *avatar_url;
};

struct store_new_message {
    const struct store_message_webhook *webhook; /* NULL: not a webhook's */
    const char *id, *channel_id, *thread_parent_id, *server_id, *author_id, *application_id;
    const char *type, *content, *embeds_json, *components_json;
    const char *command_name, *command_invoker_id, *reply_to_id;
    const char *mentions_json, *role_ids_json;
    const char *attachments_json;             /* the attachment objects, or NULL */
    const struct store_attachment_set *files; /* their rows, or NULL */
    const struct store_new_poll *poll;        /* or NULL */
    const struct store_new_forward *forward;  /* what it forwards, or NULL */
    const char *nonce; /* enforced: STORE_TAKEN when the author's nonce made a message today */
    int64_t flags, now;
    int everyone;
};
int store_message_insert(struct store_writer *w, struct store_new_message *arg);
/* The same inside a writer job (its transaction). */
int store_message_insert_at(struct store *db, struct store_new_message *arg);

struct store_message_edit {
    const char *id, *content, *embeds_json, *components_json, *mentions_json, *role_ids_json;
    const char *attachments_json;             /* with files set: the new attachment objects */
    const struct store_attachment_set *files; /* NULL: the attachments stay as they are */
    const char *channel_id, *server_id;       /* for the rows, with files */
    int64_t flags, now;
    int everyone;
};
int store_message_edit(struct store_writer *w, const struct store_message_edit *e);
int store_message_delete(struct store_writer *w, const char *id, int64_t *changes);

/* How long a send's nonce is held for its author. */
#define MESSAGE_NONCE_TTL_MS (24 * 3600 * 1000LL)
/* The message the author's nonce made in the last day; NULL when none (*rc STORE_DONE). */
json_t *store_message_by_nonce(struct store *db, const char *author_id, const char *nonce,
                               int64_t now, int *rc);

/* The Message object with replyTo, reactions and its poll's counts; NULL when unknown (*rc
 * STORE_DONE). */
json_t *store_message_json(struct store *db, const char *id, int *rc);
/* The raw row bits the routes need: where it lives and who wrote it. 1 found, 0 not. */
struct store_message_ref {
    char channel_id[UUID_LEN + 1];
    char author_id[UUID_LEN + 1];
    char application_id[UUID_LEN + 1];
};
int store_message_ref(struct store *db, const char *id, struct store_message_ref *out);
/* The message's reply target if it is in channel_id: 1, else 0. */
int store_message_in_channel(struct store *db, const char *id, const char *channel_id);
/* The replyTo object {id, fromId, kind, preview} of message id when it is in channel_id;
 * NULL when it is not there (*rc STORE_DONE) or on error. */
json_t *store_reply_target(struct store *db, const char *id, const char *channel_id, int *rc);
/* The Message object of a message just inserted, as JSON text (malloc'd; *len its length),
 * written from what was written (no read, no tree); reply_to may be NULL. NULL when out of
 * memory. */
char *store_message_view_text(const struct store_new_message *m, const json_t *reply_to,
                              size_t *len);

/* The pinned messages of channel_id (at most PINS_MAX), newest first, without their reactions
 * (a pins list shows what was said). NULL on error. */
json_t *store_messages_pinned(struct store *db, const char *channel_id);
enum store_page_mode { PAGE_LATEST, PAGE_BEFORE, PAGE_AROUND };
/* A page of history, oldest first; *has_more tells whether older messages exist (for
 * PAGE_AROUND: messages beyond the page on either side). bound is a message ID or a UUIDv7
 * floor. NULL on error. */
json_t *store_messages_page(struct store *db, const char *channel_id, enum store_page_mode mode,
                            const char *bound, int64_t limit, int *has_more);

/* Toggles one person's reaction. STORE_FULL when it would be the message's
 * RULE_EMOJI_PER_MESSAGE + 1st distinct reaction. Out: added (1) or removed (0), and how many
 * people now have that reaction. */
struct store_reaction_toggle {
    const char *message_id, *channel_id, *emoji, *custom_emoji_id, *user_id;
    int64_t now;
    int added;
    int64_t count;
};
int store_reaction_toggle(struct store_writer *w, struct store_reaction_toggle *arg);
json_t *store_reactions_json(struct store *db, const char *message_id);

/* Toggles the pin; out: pinned. STORE_FULL when pinning would pass PINS_MAX. */
struct store_pin_toggle {
    const char *message_id, *channel_id;
    int pinned;
};
int store_pin_toggle(struct store_writer *w, struct store_pin_toggle *arg);

/* Users of a server by username (lowercase), for mentions: 1 found (id set), 0 not. */
int store__member_by_username(struct store *db, const char *sid, const char *username,
                              char id[UUID_LEN + 1]);
/* Mentionable roles of a server: [{id, name}]. */
json_t *store__mentionable_roles(struct store *db, const char *sid);

/* A thread started from a message (or, in a forum, from nothing): STORE_TAKEN when the message
 * has one. */
struct store_new_thread {
    const char *id, *server_id, *parent_id, *name, *origin_message_id;
    int64_t now;
};
int store_thread_create(struct store_writer *w, struct store_new_thread *arg);
/* The same inside a writer job (its transaction). */
int store_thread_create_at(struct store *db, struct store_new_thread *arg);

#endif
