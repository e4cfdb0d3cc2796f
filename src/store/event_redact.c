/* Redacting a message's logged events: see event_redact.h. */
#include "store/event_redact.h"

#include <jansson.h>
#include <string.h>

static int is_message_event(const char *type)
{
    return !strcmp(type, "MESSAGE_CREATE") || !strcmp(type, "MESSAGE_UPDATE") ||
           !strcmp(type, "MESSAGE_DELETE");
}

int store__event_message_id(const struct store_event *e, char out[UUID_LEN + 1])
{
    static const char PREFIX[] = "{\"id\":\"";
    const size_t n = sizeof PREFIX - 1;
    if (!e->type || !is_message_event(e->type))
        return 0;
    /* The Message object and the deletion both begin with their id: no parse on a send. */
    if (e->len > n + UUID_LEN && !memcmp(e->payload, PREFIX, n) &&
        e->payload[n + UUID_LEN] == '"' && uuid_valid(e->payload + n, UUID_LEN)) {
        memcpy(out, e->payload + n, UUID_LEN);
        out[UUID_LEN] = '\0';
        return 1;
    }
    json_t *v = json_loadb(e->payload, e->len, 0, NULL);
    const char *id = json_string_value(json_object_get(v, "id"));
    int found = id && uuid_valid(id, strlen(id));
    if (found)
        memcpy(out, id, UUID_LEN + 1);
    json_decref(v);
    return found;
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
