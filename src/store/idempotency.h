/* Idempotency keys: a caller's key reserved by its first request, then the answer that request
 * got, kept a day so that a retry (on any node) gets the same answer. */
#ifndef PRACA_STORE_IDEMPOTENCY_H
#define PRACA_STORE_IDEMPOTENCY_H
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "store/writer.h"

#define IDEMPOTENCY_TTL_MS (24 * 3600 * 1000LL)

struct store_idempotency {
    char request_hash[65];
    int status; /* 0: the first request is still running */
    char *body; /* malloc'd, or NULL */
    size_t body_len;
};
/* The key's record younger than a day: 1 found (free out->body), 0 none, < 0 error. */
int store_idempotency_find(struct store *db, const char *caller, const char *key, int64_t now,
                           struct store_idempotency *out);

/* Argument of the writes below. */
struct store_idempotency_write {
    const char *caller, *key, *request_hash;
    int status;
    const char *body;
    size_t body_len;
    int64_t now;
};
/* Reserves the key (a day-old record of it gives way): STORE_DONE, or STORE_TAKEN when another
 * request holds it. _at runs inside the caller's transaction (the writer lane). */
int store_idempotency_reserve(struct store_writer *w, struct store_idempotency_write *arg);
int store_idempotency_reserve_at(struct store *db, struct store_idempotency_write *arg);
/* Keeps the answer (status > 0), or drops the reservation (status 0: the request failed and
 * may be tried again). */
int store_idempotency_settle(struct store_writer *w, struct store_idempotency_write *arg);
int store_idempotency_settle_at(struct store *db, struct store_idempotency_write *arg);

#endif
