/* Interactions: see interactions.h. */
#include "store/interactions.h"
#include "store/fields.h"

#include <string.h>

#include "core/buf.h"
#include "store/rows.h"
#include "store/writer.h"

int store_interaction_insert_at(struct store *db, struct store_new_interaction *in)
{
    static const char *SQL_USE_MODAL =
        "UPDATE interactions SET modal_used = 1"
        " WHERE id = (SELECT id FROM interactions WHERE user_id = $1 AND application_id = $2"
        "   AND modal_custom_id = $3 AND modal_used = 0 AND answered_at > $4"
        "   ORDER BY answered_at DESC LIMIT 1)";
    static const char *SQL_INSERT =
        "INSERT INTO interactions (id, application_id, server_id, channel_id, user_id, type,"
        " command_name, message_id, payload, created_at, token_hash) VALUES ($1, $2, $3, $4, $5,"
        " $6, $7, $8, $9, $10, $11)";
    int rc;
    if (in->open_modal_of) {
        rc = store__exec(db, SQL_USE_MODAL,
                         SV_ARGS(SV_STR(in->user_id), SV_STR(in->application_id),
                                 SV_STR(in->open_modal_of), SV_INT(in->now - INTERACTION_TTL_MS)));
        if (rc != STORE_DONE)
            return rc;
        if (store__changes(db) != 1)
            return STORE_TAKEN;
    }
    return store__exec(db, SQL_INSERT,
                       SV_ARGS(SV_STR(in->id), SV_STR(in->application_id), SV_STR(in->server_id),
                               SV_STR(in->channel_id), SV_STR(in->user_id), SV_STR(in->type),
                               SV_STR(in->command_name), SV_STR(in->message_id),
                               SV_STR(in->payload), SV_INT(in->now), SV_STR(in->token_hash)));
}

STORE_WRITE_AS(store_interaction_insert, struct store_new_interaction, store_interaction_insert_at)

int store_interaction_find(struct store *db, const char *id, struct store_interaction *out)
{
    static const char *SQL =
        "SELECT id, application_id, server_id, channel_id, user_id, message_id, type,"
        " command_name, created_at, answered_at IS NOT NULL, deferred, ephemeral,"
        " COALESCE(response_message_id, ''), COALESCE(token_hash, ''), followups"
        " FROM interactions WHERE id = $1";
    static const struct store_field FIELDS[] = {
        STORE_FIELD_TEXT(struct store_interaction, id),
        STORE_FIELD_TEXT(struct store_interaction, application_id),
        STORE_FIELD_TEXT(struct store_interaction, server_id),
        STORE_FIELD_TEXT(struct store_interaction, channel_id),
        STORE_FIELD_TEXT(struct store_interaction, user_id),
        STORE_FIELD_TEXT(struct store_interaction, message_id),
        STORE_FIELD_TEXT(struct store_interaction, type),
        STORE_FIELD_TEXT(struct store_interaction, command_name),
        STORE_FIELD_INT(struct store_interaction, created_at),
        STORE_FIELD_INT(struct store_interaction, answered),
        STORE_FIELD_INT(struct store_interaction, deferred),
        STORE_FIELD_INT(struct store_interaction, ephemeral),
        STORE_FIELD_TEXT(struct store_interaction, response_message_id),
        STORE_FIELD_TEXT(struct store_interaction, token_hash),
        STORE_FIELD_INT(struct store_interaction, followups),
    };
    return store__row_fields(db, SQL, id, STORE_FIELDS(FIELDS), out, sizeof *out);
}

static int interaction_answer_at(struct store *db, struct store_interaction_answer *a)
{
    static const char *SQL =
        "UPDATE interactions SET answered_at = $2, modal_custom_id = $3, deferred = $5,"
        " ephemeral = $6, response_message_id = $7, modal = $8"
        " WHERE id = $1 AND answered_at IS NULL AND created_at > $4";
    int rc = store__exec(db, SQL,
                         SV_ARGS(SV_STR(a->id), SV_INT(a->now), SV_STR(a->modal_custom_id),
                                 SV_INT(a->now - INTERACTION_TTL_MS), SV_INT(a->deferred),
                                 SV_INT(a->ephemeral), SV_STR(a->response_message_id),
                                 SV_STR(a->modal)));
    if (rc != STORE_DONE)
        return rc;
    return store__changes(db) == 1 ? STORE_DONE : STORE_TAKEN;
}

STORE_WRITE_AS(store_interaction_answer, struct store_interaction_answer, interaction_answer_at)

json_t *store_interaction_open_modal(struct store *db, const char *user_id, const char *app_id,
                                     const char *custom_id, int64_t now, int *rc)
{
    static const char *SQL =
        "SELECT modal FROM interactions WHERE user_id = $1 AND application_id = $2"
        " AND modal_custom_id = $3 AND modal_used = 0 AND answered_at > $4"
        " ORDER BY answered_at DESC LIMIT 1";
    static const struct store_col COLS[] = {{"modal", COL_JSON}};
    json_t *row = store__get_json(db, SQL,
                                  SV_ARGS(SV_STR(user_id), SV_STR(app_id), SV_STR(custom_id),
                                          SV_INT(now - INTERACTION_TTL_MS)),
                                  STORE_COLS(COLS), rc);
    json_t *modal = json_incref(json_object_get(row, "modal"));
    json_decref(row);
    return json_is_object(modal) ? modal : (json_decref(modal), NULL);
}

struct set_response {
    const char *id, *message_id;
    int done;
};

static int set_response_job(struct store *db, void *arg)
{
    static const char *SQL = "UPDATE interactions SET response_message_id = $2,"
                             " deferred = CASE WHEN $3 = 1 THEN 0 ELSE deferred END WHERE id = $1";
    const struct set_response *r = arg;
    return store__exec(db, SQL, SV_ARGS(SV_STR(r->id), SV_STR(r->message_id), SV_INT(r->done)));
}

int store_interaction_set_response(struct store_writer *w, const char *id, const char *message_id,
                                   int done)
{
    struct set_response r = {id, message_id, done};
    return store_write(w, set_response_job, &r);
}

struct followup {
    const char *id;
    int max;
};

static int followup_job(struct store *db, void *arg)
{
    static const char *SQL =
        "UPDATE interactions SET followups = followups + 1 WHERE id = $1 AND followups < $2";
    const struct followup *f = arg;
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(f->id), SV_INT(f->max)));
    if (rc != STORE_DONE)
        return rc;
    return store__changes(db) == 1 ? STORE_DONE : STORE_FULL;
}

int store_interaction_followup(struct store_writer *w, const char *id, int max)
{
    struct followup f = {id, max};
    return store_write(w, followup_job, &f);
}

int store_app_installed(struct store *db, const char *app_id, const char *server_id)
{
    static const char *SQL = "SELECT 1 FROM installs WHERE application_id = $1 AND server_id = $2";
    return store__exists(db, SQL, SV_ARGS(SV_STR(app_id), SV_STR(server_id)));
}

json_t *store_app_endpoint(struct store *db, const char *app_id, int *rc)
{
    static const char *SQL =
        "SELECT interactions_endpoint_url, signing_secret FROM applications WHERE id = $1";
    static const struct store_col COLS[] = {{"url", COL_TEXT}, {"secret", COL_TEXT}};
    return store__get_json(db, SQL, SV_ARGS(SV_STR(app_id)), STORE_COLS(COLS), rc);
}
