/* Applications: the owner-only lookup their routes share (api/applications.c, api/console.c). */
#ifndef PRACA_API_APPLICATIONS_H
#define PRACA_API_APPLICATIONS_H
#include "api/api.h"
#include "store/apps.h"

/* Loads the caller's application :id into app (release with store_app_cleanup). Someone
 * else's, unknown or malformed: 404 answered, -1. */
int api__owned_app(struct api_call *c, struct store_app *app);

#endif
