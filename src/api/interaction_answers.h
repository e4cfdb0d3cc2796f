/* Interactions answered (interaction_answers.c), for the routes and the invoking in
 * interactions.c. */
#ifndef PRACA_API_INTERACTION_ANSWERS_H
#define PRACA_API_INTERACTION_ANSWERS_H

#include "api/api.h"
#include "bus/bus.h"

struct store_interaction;
/* The header of an event about interaction it for its invoker (the user it is addressed to),
 * about message mid (NULL: none). */
struct bus_where api__interaction_where(const struct store_interaction *it, const char *mid);

/* POST /api/bot/interactions/:id/respond {type, data} */
void api__interaction_respond(struct api_call *c);
/* Endpoint-URL mode: the interaction's payload to the application's endpoint, whose answer is
 * applied as its bot's; the person's request waits for it without holding a worker. */
void api__interaction_to_endpoint(struct api_call *c, const char *id, const char *payload,
                                  const char *app_id, const char *bot_user_id, const char *url,
                                  const char *secret);

#endif
