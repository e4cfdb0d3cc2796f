/*
 * What permission checks need about one person in one server, loaded in two queries:
 * the server's settings and owner, the person's membership, and their roles.
 */
#ifndef PRACA_STORE_ACCESS_H
#define PRACA_STORE_ACCESS_H
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"

#define ACCESS_MAX_ROLES 250
/* @everyone's order key: STORE_ROLE_EVERYONE_KEY (store/roles.h) as a number. */
#define ROLE_KEY_EVERYONE (-INT64_C(4611686018427387904))

struct store_access {
    int server_found;
    int is_member;
    char owner_id[UUID_LEN + 1];
    int verification_level;
    int requires_2fa;
    int requires_rules;
    int mfa_enabled; /* of the person */
    int is_bot;
    int64_t account_created_at;
    int64_t joined_at;
    int64_t timeout_until;     /* 0 = none */
    int64_t rules_accepted_at; /* 0 = never */
    uint64_t everyone;         /* @everyone's bits */
    int automod_on;            /* the server has blocked words or a mention cap */
    size_t nroles;
    char role_ids[ACCESS_MAX_ROLES][UUID_LEN + 1];
    uint64_t role_perms[ACCESS_MAX_ROLES];
    int64_t top_key; /* highest order key among the member's roles (store/roles.h);
                      * ROLE_KEY_EVERYONE = only @everyone */
};

/* Returns STORE_DONE or an error; a->server_found and a->is_member tell the rest. */
int store_access_load(struct store *db, const char *server_id, const char *user_id,
                      struct store_access *a);

#endif
