/* What the DM routes share: the conversation a request names, checked to be the caller's. */
#ifndef PRACA_API_DM_H
#define PRACA_API_DM_H
#include <jansson.h>

#include "api/api.h"
#include "api/limits.h"

/* :cid when it is a DM the caller is in; NULL when it has answered 404 (or 500). */
const char *api__dm_of_caller(struct api_call *c);
/* Whether uid is a user (*is_bot says which kind): 1; else answered (404, or 500) and 0. */
int api__user_known(struct api_call *c, const char *uid, int *is_bot);
/* Whether one of the caller and the other person (of DM cid, or `other` when cid is NULL)
 * blocked the other: 1 when it has answered 403 (or 500), 0 when neither did. */
int api__dm_blocked(struct api_call *c, const char *cid, const char *other);

/* Posts body (a DM send's: text, files or a forward) in conversation cid, which is the caller's:
 * MESSAGE_CREATE to its people. limit (NULL: none) is counted once the body is good. The message
 * (a new reference), or NULL when it has answered. */
json_t *api__dm_post(struct api_call *c, const char *cid, json_t *body,
                     const struct api_limit *limit);

/* POST /api/users/@me/dms with userIds: a new group of the caller and those people
 * (dm_groups.c). */
void api__dm_group_create(struct api_call *c, json_t *body);

#endif
