/*
 * Claiming a placeholder an import brought (store/imports.h): a code the server's owner makes
 * for one placeholder, and its use by a person, who then owns the placeholder's messages,
 * reactions, nickname and roles; the placeholder is gone. Codes are kept by their SHA-256.
 */
#ifndef PRACA_STORE_CLAIMS_H
#define PRACA_STORE_CLAIMS_H
#include <jansson.h>
#include <stdint.h>

#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

/* A code for placeholder user_id, a member of server_id, replacing any earlier one: STORE_DONE,
 * STORE_MISSING when user_id is not an imported member of server_id. */
struct store_claim_code {
    const char *code_hash, *server_id, *user_id, *by;
    int64_t now, expires_at;
};
int store_claim_code_put(struct store_writer *w, struct store_claim_code *arg);

/* What a code claims, {serverId, serverName, userId, displayName, messages}; NULL when no code
 * is good at now (*rc STORE_DONE). */
json_t *store_claim_json(struct store *db, const char *code_hash, int64_t now, int *rc);

struct store_claim_take {
    const char *code_hash, *user_id; /* the person claiming */
    int64_t now;
    /* out */
    char server_id[UUID_LEN + 1], placeholder_id[UUID_LEN + 1];
    int64_t messages;
    int joined; /* the person was not a member before */
};
/* STORE_DONE; STORE_MISSING when no code is good; STORE_REFUSED when the person is banned from
 * the server, or is a bot or a placeholder. */
int store_claim_take(struct store_writer *w, struct store_claim_take *arg);

/* The placeholders whose imported address is the person's verified one, in any server:
 * [{serverId, serverName, userId, displayName, messages}] ([] without a verified address); NULL
 * on error. */
json_t *store_claims_by_email_json(struct store *db, const char *user_id);
/* Takes placeholder t->placeholder_id (set by the caller) for t->user_id when its imported
 * address is the person's verified one: as store_claim_take, STORE_MISSING otherwise. */
int store_claim_by_email(struct store_writer *w, struct store_claim_take *arg);

#endif
