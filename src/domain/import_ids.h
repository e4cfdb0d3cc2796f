/*
 * The IDs and names an import gives what it writes, derived from the source's own with no I/O:
 * the same import (its key) and the same source ID give the same Praça ID on every run, so an
 * import run again after a crash finds what it wrote instead of writing it twice.
 */
#ifndef PRACA_DOMAIN_IMPORT_IDS_H
#define PRACA_DOMAIN_IMPORT_IDS_H
#include <stddef.h>
#include <stdint.h>

#include "core/uuid.h"

/* A UUID-shaped ID (version 8: hashed) for a thing of kind (server, channel, person…). */
void rule_import_id(const char *key, const char *kind, const char *source, char out[UUID_LEN + 1]);
/* A message's: a UUIDv7 of its time (ms), then its part (a message split in several, in order),
 * then hashed bits, so imported history sorts by time as new messages do. */
void rule_import_message_id(const char *key, const char *source, int64_t ms, unsigned part,
                            char out[UUID_LEN + 1]);
/* A placeholder's username: name's letters a-z, 0-9, _ and . (lowercased, at most 20; "pessoa"
 * when none), a dot and the first 8 hex digits of its ID. out holds 30 characters and a NUL. */
void rule_import_username(const char *name, const char *id, char out[32]);

#endif
