/* Event recipients: see events.h. */
#include "store/events.h"

#include <stdlib.h>

#include "core/buf.h"

int store_event_recipients(struct store *db, const char *sid, int64_t intent,
                           char (**out)[UUID_LEN + 1], size_t *n)
{
    static const char *SQL =
        "SELECT a.bot_user_id FROM installs i JOIN applications a ON a.id = i.application_id"
        " WHERE i.server_id = $1 AND a.suspended = 0 AND (a.intents & $2) != 0";
    *out = NULL;
    *n = 0;
    struct store_stmt *st = store_query(db, SQL, SV_ARGS(SV_STR(sid), SV_INT(intent)));
    if (!st)
        return STORE_ERR;
    size_t cap = 0;
    int rc;
    while ((rc = store_step(st)) == STORE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            char(*grown)[UUID_LEN + 1] = realloc(*out, cap * sizeof **out);
            if (!grown) {
                rc = STORE_ERR;
                break;
            }
            *out = grown;
        }
        slice_copy(slice_from(store_text(st, 0)), (*out)[(*n)++], UUID_LEN + 1);
    }
    store_finish(st);
    if (rc != STORE_DONE) {
        free(*out);
        *out = NULL;
        *n = 0;
        return rc;
    }
    return STORE_DONE;
}
