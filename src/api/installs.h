/* Removing an install, shared by every way it happens (owner, server admin, kick, ban,
 * application deletion), with its GUILD_MEMBER_REMOVE event. */
#ifndef PRACA_API_INSTALLS_H
#define PRACA_API_INSTALLS_H

#include "api/api.h"

/* 1 removed, 0 was not installed, -1 error (already answered 500). reason NULL: no event. */
int api__uninstall(struct api_call *c, const char *app_id, const char *bot_user_id, const char *sid,
                   const char *reason);
/* The application installed as this bot user, if any: 1 found (app_id filled), 0 none. */
int api__app_of_bot(struct api_call *c, const char *bot_user_id, char app_id[UUID_LEN + 1]);
/* Deletes an application: uninstalled from every server (GUILD_MEMBER_REMOVE, reason
 * "app_uninstalled"), its bot's sockets closed. 0, or -1 when it answered 500. */
struct store_app;
int api__app_remove(struct api_call *c, const struct store_app *app);
/* The Application object with intents named. */
json_t *api__app_view(json_t *app);

#endif
