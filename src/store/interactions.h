/* Interactions: created by a person, answered once by the application. */
#ifndef PRACA_STORE_INTERACTIONS_H
#define PRACA_STORE_INTERACTIONS_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

#define INTERACTION_TTL_MS (15 * 60 * 1000)
/* An autocomplete interaction is answered within 3 s or not at all. */
#define AUTOCOMPLETE_TTL_MS (3 * 1000)

/* Argument of store_interaction_insert (store_write). With open_modal_of set it is a form
 * submission: the form must be open (answered with that customId by user_id, within the TTL,
 * not yet submitted) or the write returns STORE_TAKEN and inserts nothing. */
struct store_new_interaction {
    const char *id, *application_id, *server_id, *channel_id, *user_id, *type;
    const char *command_name, *message_id, *payload;
    const char *token_hash;    /* SHA-256 of the interaction's own token */
    const char *open_modal_of; /* customId of the form being submitted, or NULL */
    int64_t now;
};
int store_interaction_insert(struct store_writer *w, struct store_new_interaction *arg);
/* The same inside a writer job (its transaction). */
int store_interaction_insert_at(struct store *db, struct store_new_interaction *arg);

struct store_interaction {
    char id[UUID_LEN + 1];
    char application_id[UUID_LEN + 1];
    char server_id[UUID_LEN + 1];
    char channel_id[UUID_LEN + 1];
    char user_id[UUID_LEN + 1];
    char message_id[UUID_LEN + 1]; /* "" when not a component interaction */
    char type[16];
    char command_name[4 * 32 + 1]; /* "" when not a command; 32 characters of UTF-8 */
    int64_t created_at;
    int answered;
    int deferred;  /* answered "later": a thinking message, or nothing for a component */
    int ephemeral; /* its answer is seen by the invoker only (and kept nowhere) */
    char response_message_id[UUID_LEN + 1]; /* the answer's message ("" when none) */
    char token_hash[65];
    int followups;
};
/* 1 found, 0 not, <0 error. */
int store_interaction_find(struct store *db, const char *id, struct store_interaction *out);

/* Argument of store_interaction_answer (store_write): marks it answered if it was not and is
 * younger than the TTL, else returns STORE_TAKEN. modal_custom_id records an opened form; deferred,
 * ephemeral and response_message_id what the answer was (the message may be set later, by
 * store_interaction_set_response). */
struct store_interaction_answer {
    const char *id, *modal_custom_id;
    const char *modal; /* the form's clean JSON, to check its submission */
    int deferred, ephemeral;
    const char *response_message_id;
    int64_t now;
};
int store_interaction_answer(struct store_writer *w, struct store_interaction_answer *arg);
/* The clean form (JSON) user_id may submit to the application under that customId: answered
 * within the TTL and not submitted yet. NULL when none (*rc STORE_DONE) or on error. */
json_t *store_interaction_open_modal(struct store *db, const char *user_id, const char *app_id,
                                     const char *custom_id, int64_t now, int *rc);
/* The answer's message, once written; also clears `deferred` when done is set (the thinking
 * message was replaced). */
int store_interaction_set_response(struct store_writer *w, const char *id, const char *message_id,
                                   int done);
/* Counts one follow-up: STORE_DONE, or STORE_FULL past `max`. */
int store_interaction_followup(struct store_writer *w, const char *id, int max);

/* {url, secret} of an application's interactions endpoint (either may be null); NULL when there
 * is no such application (*rc STORE_DONE) or on error. */
json_t *store_app_endpoint(struct store *db, const char *app_id, int *rc);

/* Is the application installed in that server? 1 yes, 0 no, <0 error. */
int store_app_installed(struct store *db, const char *app_id, const char *server_id);

#endif
