/* People's e-mail addresses (migration 037): a code sent to a new address, the address kept once
 * the code comes back, and a reset link made for the account an address belongs to. */
#ifndef PRACA_STORE_EMAILS_H
#define PRACA_STORE_EMAILS_H
#include <stdint.h>

#include "core/crypto.h"
#include "core/uuid.h"
#include "store/db.h"
#include "store/writer.h"

#define STORE_EMAIL_MAX        254
#define STORE_EMAIL_CODE_MS    (30LL * 60 * 1000)
#define STORE_EMAIL_CODE_TRIES 5

/* The person's verified address into out ("" when none): 1, 0 no such person, < 0 error. */
int store_email_of(struct store *db, const char *user_id, char out[STORE_EMAIL_MAX + 1]);
/* Whether another account holds the address: 1, 0, < 0 error. */
int store_email_taken(struct store *db, const char *email, const char *user_id);

struct store_email_code {
    const char *user_id, *email, *code_hash;
    int64_t expires_at;
};
/* The code for a new address (one at a time per person: it replaces any earlier one). */
int store_email_code_set(struct store_writer *w, struct store_email_code *c);

enum store_email_verdict {
    STORE_EMAIL_VERIFIED = 1,
    STORE_EMAIL_WRONG = 2, /* another try counted */
    STORE_EMAIL_GONE = 3,  /* no code, past its time or its tries */
    STORE_EMAIL_TAKEN = 4, /* another account verified the address meanwhile */
};
struct store_email_verify {
    const char *user_id, *code_hash;
    int64_t now;
    int verdict; /* out: an enum store_email_verdict */
};
int store_email_verify(struct store_writer *w, struct store_email_verify *v);
/* The person keeps no address (and no pending code). */
int store_email_clear(struct store_writer *w, const char *user_id);

struct store_email_reset {
    const char *email, *token_hash;
    int64_t expires_at;
    char user_id[UUID_LEN + 1]; /* out: "" when no account (not deleted) has the address */
};
/* A one-time link (store/password_resets.h) for the account that verified the address. */
int store_email_reset_make(struct store_writer *w, struct store_email_reset *r);

#endif
