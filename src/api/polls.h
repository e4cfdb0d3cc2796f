/* A send's poll (api/polls.c holds the poll routes too). */
#ifndef PRACA_API_POLLS_H
#define PRACA_API_POLLS_H
#include <jansson.h>

#include "api/api.h"
#include "store/polls.h"

/* Reads body's `poll` when there is one (*has 1, out filled with what the request holds until
 * its end). 0, or -1 when it has answered (400 naming the part refused). */
int api__poll_take(struct api_call *c, json_t *body, struct store_new_poll *out, int *has);

#endif
