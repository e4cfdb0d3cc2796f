/* The audit log of servers: entries written with the change they record, read back newest
 * first with filters, and dropped after AUDIT_TTL_MS. */
#ifndef PRACA_STORE_AUDIT_H
#define PRACA_STORE_AUDIT_H
#include <jansson.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

#define AUDIT_TTL_MS (90LL * 24 * 3600 * 1000)

struct store_audit_entry {
    const char *id, *server_id, *actor_id, *application_id, *action, *target_type, *target_id;
    const char *changes_json, *reason;
    int64_t now;
};
/* Also drops a few entries older than AUDIT_TTL_MS. _at inside the caller's transaction. */
int store_audit_insert(struct store_writer *w, struct store_audit_entry *e);
int store_audit_insert_at(struct store *db, struct store_audit_entry *e);

struct store_audit_query {
    const char *server_id;
    const char *actor_id, *action, *target_id; /* NULL: any */
    const char *before;                        /* an entry ID: older ones only; NULL: newest */
    int64_t limit, now;
};
/* [Entry], newest first, at most limit; *has_more when older ones match. NULL on error. */
json_t *store_audit_json(struct store *db, const struct store_audit_query *q, int *has_more);

#endif
