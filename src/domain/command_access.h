/*
 * Who may use a command in a channel, with no I/O: the command's default member permissions
 * and a server's overrides by role, member or channel (Discord's model, simplified as
 * docs/api.md says).
 */
#ifndef PRACA_DOMAIN_COMMAND_ACCESS_H
#define PRACA_DOMAIN_COMMAND_ACCESS_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "domain/json_rules.h"

#define CMD_OVERRIDES_MAX 100

/* The member asking, where. */
struct command_asker {
    const char *server_id; /* also the ID of @everyone */
    const char *user_id;
    const char *channel_id; /* NULL: not in a channel (no channel override applies) */
    const char *const *role_ids;
    size_t nroles;
    uint64_t perms; /* effective, in that channel (or the server's when channel_id is NULL) */
    int is_admin;   /* owner or ADMINISTRADOR: every command, whatever the overrides */
};

/*
 * default_perms < 0: everyone; 0: administrators only; else the member needs every bit.
 * overrides: [{type: role|member|channel, id, allow}] or NULL. A channel denied refuses; a
 * member's own override decides next; then the member's roles (an allow among them wins),
 * then @everyone's; with none of these the default applies.
 */
int rule_command_permitted(const struct command_asker *a, int64_t default_perms, json_t *overrides);

/* A server admin's override list: at most 100 {type, id, allow}, each target once. */
json_t *rule_command_clean_overrides(json_t *list, struct rule_error *err);

#endif
