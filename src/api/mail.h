/*
 * E-mail from Praça (--smtp-url, --mail-from): a verification code for an address a person adds,
 * and a link to set a new password. Sent by libcurl's SMTP on a thread of its own, never on the
 * request path; at most MAIL_QUEUE_MAX wait, past which a message is dropped and logged (the
 * person asks again). Without --smtp-url nothing is sent and the routes that would say so.
 */
#ifndef PRACA_API_MAIL_H
#define PRACA_API_MAIL_H

#include "api/api.h"

#define MAIL_QUEUE_MAX 1000

struct mailer;

/* NULL when smtp_url is empty (no e-mail) or on failure (*failed set). */
struct mailer *api_mailer_new(const struct config *cfg, int *failed);
/* Sends what is queued, then stops. NULL does nothing. */
void api_mailer_free(struct mailer *m);
/* Queues a plain-text message to `to` (subject and body UTF-8): 0, or -1 (full, no mail). */
int api__mail(struct mailer *m, const char *to, const char *subject, const char *body);

#endif
