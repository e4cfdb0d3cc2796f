/*
 * A call the server makes for a person with no request of theirs (a scheduled message sent, a
 * preview told): their identity, a worker's database connection, and an answer kept aside so
 * that the request paths (places, permissions, sends) run as they do for a request.
 */
#ifndef PRACA_API_BACKGROUND_H
#define PRACA_API_BACKGROUND_H
#include <stddef.h>

#include "api/api.h"
#include "http/request.h"

struct api_as_person {
    struct api_call c;
    struct http_request req;
    struct http_response res;
};

void api__as_person_begin(struct api_as_person *a, struct api_service *svc, struct store *db,
                          const char *user_id);
/* Why a refused call was refused: its answer's error, or "Erro interno". */
void api__as_person_refusal(const struct api_as_person *a, char *out, size_t cap);
/* Releases what the call held (and the connection's read transaction). */
void api__as_person_end(struct api_as_person *a);

#endif
