/* Link previews of a message (api/previews.c). */
#ifndef PRACA_API_PREVIEWS_H
#define PRACA_API_PREVIEWS_H

#include "api/api.h"
#include "api/place.h"

/* After message mid (content, at p) is in: its links' previews are read and kept on their own
 * time, and told when they come. Returns at once. */
void api__previews_start(struct api_call *c, const struct place *p, const char *mid,
                         const char *content);

#endif
