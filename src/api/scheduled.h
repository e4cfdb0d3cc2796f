/* A person's scheduled messages and reminders: what api/due.c tells their pages. */
#ifndef PRACA_API_SCHEDULED_H
#define PRACA_API_SCHEDULED_H
#include <jansson.h>

#include "api/api.h"

/* SCHEDULED_UPDATE {id, scheduled} to the caller's pages: the message as it is now (sent,
 * failed, pending), or null once cancelled. */
void api__scheduled_told(struct api_call *c, const char *id);
/* Ends the reminder of row (as store_reminders_due lists it) and, in the same transaction, logs
 * REMINDER_DUE {reminder, message} to the caller's pages, with its message when the caller can
 * still read it (else null). STORE_DONE or an error. */
int api__reminder_told(struct api_call *c, json_t *row);

#endif
