/* What the DM routes share: the conversation a request names, checked to be the caller's. */
#ifndef PRACA_API_DM_H
#define PRACA_API_DM_H
#include "api/api.h"

/* :cid when it is a DM the caller is in; NULL when it has answered 404 (or 500). */
const char *api__dm_of_caller(struct api_call *c);

#endif
