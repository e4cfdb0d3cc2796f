/*
 * Who may use which command, as handlers ask it: the caller's standing in a server (and a
 * channel) against a command's defaultMemberPermissions and the server's overrides.
 */
#ifndef PRACA_API_COMMAND_ACCESS_H
#define PRACA_API_COMMAND_ACCESS_H
#include <jansson.h>
#include <stdint.h>

#include "api/access.h"

/* command: a Command object (store/commands.h); overrides: its [{type, id, allow}] or NULL;
 * cid: the channel asked about (NULL: the server as a whole); perms: effective there. */
int api__command_permitted(const struct access *a, const char *cid, uint64_t perms, json_t *command,
                           json_t *overrides);

/* Sets nameLocalized and descriptionLocalized on each Command of list for the locale (the
 * default name and description when it has no translation). */
void api__commands_localize(json_t *list, const char *locale);

#endif
