/* A person's saved messages ("Salvos"): kept until taken back or until the message goes. */
#ifndef PRACA_STORE_SAVED_H
#define PRACA_STORE_SAVED_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

struct store_saved {
    const char *user_id, *message_id;
    int64_t now, max; /* max: saved messages a person keeps */
    int64_t changes;  /* out: 1 when it changed something */
};
/* Saves (again: nothing changes): STORE_DONE, or STORE_FULL at max. */
int store_saved_put(struct store_writer *w, struct store_saved *s);
/* Takes back: STORE_DONE, changes 0 when it was not saved. */
int store_saved_delete(struct store_writer *w, struct store_saved *s);
/* uid's saved messages, the last saved first, saved before before_ms (0: any), at most limit:
 * [{messageId, channelId, savedAt, authorName}], or NULL. */
json_t *store_saved_json(struct store *db, const char *uid, int64_t before_ms, int64_t limit);

#endif
