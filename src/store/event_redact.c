/* Redacting a message's logged events: see event_redact.h. */
#include "store/event_redact.h"

#include <string.h>

static int is_message_event(const char *type)
{
    return !strcmp(type, "MESSAGE_CREATE") || !strcmp(type, "MESSAGE_UPDATE") ||
           !strcmp(type, "MESSAGE_DELETE");
}

int store__event_message_id(const struct store_event *e, char out[UUID_LEN + 1])
{
    const char *id = e->message_id;
    if (!e->type || !is_message_event(e->type) || !id || strlen(id) != UUID_LEN ||
        !uuid_valid(id, UUID_LEN))
        return 0;
    memcpy(out, id, UUID_LEN + 1);
    return 1;
}

int store__event_by_reference(const struct store_event *e)
{
    return e->stream && !e->user_id && e->type &&
           (!strcmp(e->type, "MESSAGE_CREATE") || !strcmp(e->type, "MESSAGE_UPDATE"));
}

int store__event_redacts(const struct store_event *e)
{
    return e->type && (!strcmp(e->type, "MESSAGE_UPDATE") || !strcmp(e->type, "MESSAGE_DELETE"));
}

int store__event_redact(struct store *db, const struct store_event *e, const char *message_id)
{
    static const char *SQL_DELETED =
        "UPDATE event_log SET redacted = 1, payload = '{}' WHERE message_id = $1"
        " AND type IN ('MESSAGE_CREATE', 'MESSAGE_UPDATE') AND payload <> ''";
    static const char *SQL_EDITED =
        "UPDATE event_log SET payload = $2 WHERE message_id = $1"
        " AND type IN ('MESSAGE_CREATE', 'MESSAGE_UPDATE') AND redacted = 0 AND payload <> ''";
    if (!strcmp(e->type, "MESSAGE_DELETE"))
        return store__exec(db, SQL_DELETED, SV_ARGS(SV_STR(message_id)));
    return store__exec(db, SQL_EDITED, SV_ARGS(SV_STR(message_id), SV_STRN(e->payload, e->len)));
}
