/*
 * Idempotency-Key on mutations (POST, PUT, PATCH, DELETE) of authenticated callers: the same key
 * from the same caller within a day gets the first answer again (status and body) without the
 * work being done twice, on any node; the same key with another request is 409.
 */
#ifndef PRACA_API_IDEMPOTENCY_H
#define PRACA_API_IDEMPOTENCY_H
#include "api/api.h"

#define IDEMPOTENCY_KEY_MAX 64

struct api_idempotency {
    int reserved; /* this request holds the key: its answer is kept when it ends */
    char key[IDEMPOTENCY_KEY_MAX + 1];
    char request_hash[65];
};

/* Before the handler: 0 to run it (id->reserved when a key was given), 1 when it has answered
 * (the first answer replayed, or 400/409). */
int api__idempotency_begin(struct api_call *c, struct api_idempotency *id);
/* After the handler: keeps the answer, or frees the key when the request failed on the
 * server's side (5xx) or answers later, so that a retry runs again. */
void api__idempotency_end(struct api_call *c, struct api_idempotency *id);

#endif
