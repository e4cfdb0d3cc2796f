/* Two-factor's proofs and recovery codes, shared by sign-in and the account routes. */
#ifndef PRACA_API_MFA_H
#define PRACA_API_MFA_H
#include <jansson.h>

#include "api/api.h"
#include "store/people.h"

#define TOTP_STEP_MS     30000
#define MFA_RECOVERY_LEN 10 /* letters and digits, shown as xxxxx-xxxxx */

/* 1 when code proves the second factor: a TOTP code not used before, or one of the person's
 * recovery codes (then used up). */
int api__mfa_accept(struct api_call *c, const struct store_login *who, const char *code);
/* A new set of recovery codes for the caller, stored as hashes; the codes themselves (to show
 * once), or NULL. */
json_t *api__mfa_new_recovery_codes(struct api_call *c);
/* POST /api/users/@me/mfa/recovery-codes {code}: a new set; the old one stops working. */
void api__mfa_recovery_codes(struct api_call *c);
/* DELETE /api/users/@me/mfa {code}: two-factor off. */
void api__mfa_off(struct api_call *c);

#endif
