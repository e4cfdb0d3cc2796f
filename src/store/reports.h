/* Reports (migration 035): made by a person, read and settled by those who moderate. */
#ifndef PRACA_STORE_REPORTS_H
#define PRACA_STORE_REPORTS_H
#include <jansson.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

#define STORE_REPORTS_PAGE 100

struct store_report_new {
    const char *id, *server_id, *channel_id, *message_id, *target_id, *reporter_id;
    const char *reason, *details;
    const char *content; /* JSON text of the message, or NULL */
    int64_t now;
    char existing[UUID_LEN + 1]; /* out: the same reporter's open report of it, when there is one */
};
/* Files the report unless the reporter has an open one of the same message (or person, in the
 * same place): then existing names it and nothing is written. */
int store_report_create(struct store_writer *w, struct store_report_new *r);

/* The Report object; NULL when unknown (*rc STORE_DONE) or on error. */
json_t *store_report_json(struct store *db, const char *id, int *rc);
/* The reports of server sid (NULL: the DMs', for the operators), newest first, in a state or
 * any (status NULL), at most STORE_REPORTS_PAGE before the report `before` (NULL: the newest). */
json_t *store_reports_json(struct store *db, const char *sid, const char *status,
                           const char *before);

struct store_report_settle {
    const char *id, *server_id; /* server_id NULL: a DM's */
    const char *status, *by, *note;
    int64_t now;
    int64_t changes; /* out: 0 when no such report there */
};
int store_report_settle(struct store_writer *w, struct store_report_settle *s);
/* The same on a connection of one's own (praca admin). */
int store_report_settle_db(struct store *db, struct store_report_settle *s);

#endif
