/* Forwarding a message into the room of a send (api/forward.c). */
#ifndef PRACA_API_FORWARD_H
#define PRACA_API_FORWARD_H
#include <jansson.h>

#include "api/api.h"
#include "api/attachments.h"
#include "api/compose.h"
#include "store/forwards.h"

/* Reads body's `forward: {messageId}` when there is one: the message must be one the caller can
 * read, and the send carries nothing else (no text, files, poll or reply). *has 1 with out (the
 * copy) and files (its files as the new message's) filled with what the request holds. 0, or -1
 * when it has answered (400 naming what is refused). */
int api__forward_take(struct api_call *c, json_t *body, const struct draft *d,
                      struct store_new_forward *out, struct api_files *files, int *has);

#endif
