/*
 * The audit log, as handlers write it: after a moderation or configuration change succeeds, one
 * entry with the caller as actor, the target, what changed ({key, old, new}) and the reason the
 * request gave in X-Audit-Log-Reason (URL-encoded UTF-8, at most 512 characters).
 */
#ifndef PRACA_API_AUDIT_H
#define PRACA_API_AUDIT_H
#include <jansson.h>

#include "api/api.h"

#define AUDIT_REASON_MAX 512

/* Before a mutation: a reason that cannot be read is 400 (nothing is done). 0 or -1 answered. */
int api__audit_reason_check(struct api_call *c);

/* Writes the entry (changes taken; NULL for none). A failure is logged, not answered: the change
 * it records is done. */
void api__audit(struct api_call *c, const char *sid, const char *action, const char *target_type,
                const char *target_id, json_t *changes);

/* [{key, old, new}] for the keys (NULL-terminated) whose values differ between before and
 * after; either may be NULL (a creation: old null; a deletion: new null). */
json_t *api__audit_changes(json_t *before, json_t *after, const char *const *keys);

/* An update's entry: the keys (NULL-terminated) whose values differ between before and after,
 * both let go. */
void api__audit_update(struct api_call *c, const char *sid, const char *action,
                       const char *target_type, const char *target_id, json_t *before,
                       json_t *after, const char *const *keys);

/* An entry for a creation (gone 0: each field of what as new) or a deletion (gone 1: as old);
 * what is taken. */
void api__audit_object(struct api_call *c, const char *sid, const char *action,
                       const char *target_type, const char *target_id, json_t *what, int gone);

#endif
