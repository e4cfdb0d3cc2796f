/* How a handler answers: JSON, with errors in one format (status + {"error": "<mensagem>"} plus
 * marker fields; 400 messages are "<path>: <motivo>"), each call answering once. */
#ifndef PRACA_API_REPLY_H
#define PRACA_API_REPLY_H
#include <jansson.h>
#include <stdint.h>

#include "api/api.h"

void api__reply(struct api_call *c, int status, json_t *body); /* steals body */
/* 200 {"key": json} from JSON text already serialized (key is a plain name); takes json. */
void api__reply_wrapped(struct api_call *c, const char *key, char *json);
/* Forgets the answer made (a refusal to be told another way, e.g. a 403 as a 404). */
void api__unanswer(struct api_call *c);
void api__error(struct api_call *c, int status, const char *msg);
/* Adds `flag: true` to the error object (automod, requires2FA …). */
void api__error_flag(struct api_call *c, int status, const char *msg, const char *flag);
void api__bad(struct api_call *c, const char *path, const char *reason);
/* Whether server sid has room for one more of what count_sql counts (under max): 1; else it has
 * answered (400 `name: <full>`, or 500) and 0. */
int api__room_for_one(struct api_call *c, const char *count_sql, const char *sid, int64_t max,
                      const char *full);
/* A rule's refusal (domain/json_rules.h) as that 400: always -1, for `return`. */
struct rule_error;
int api__rule_refused(struct api_call *c, const struct rule_error *err);
void api__ok(struct api_call *c);
/* status {key: obj}, or 500 when obj is NULL (a storage error). Takes obj. */
void api__reply_found(struct api_call *c, int status, const char *key, json_t *obj);
/* 200 {key: list}, or 500 when list is NULL (a storage error). Takes list. */
void api__reply_list(struct api_call *c, const char *key, json_t *list);
void api__internal(struct api_call *c);
/* status with a body that is not JSON (takes body, malloc'd; content_type must outlive the
 * answer), kept from running as a page: nosniff, and a policy that loads nothing. */
void api__reply_bytes(struct api_call *c, int status, const char *content_type, char *body,
                      size_t len);
/* What to say when a store write stops on one of the data's rules (store/db.h), by its code. */
struct api_store_words {
    const char *missing; /* STORE_MISSING: 404 */
    const char *refused; /* STORE_REFUSED: 403 */
    const char *taken;   /* STORE_TAKEN: 409 */
    const char *full;    /* STORE_FULL: 400 */
};
/* Answers a failed store write (rc < 0): the words for its code, or 500 (also for a code with
 * no words). Returns 1 when it answered, 0 when rc is a success. */
int api__store_answer(struct api_call *c, int rc, const struct api_store_words *w);
#define API_UNAVAILABLE "O banco de dados está indisponível; tente novamente em instantes"
/* 503 {error: msg} with Retry-After: 1: a bounded queue or pool is full; try again soon. */
void api__busy(struct api_call *c, const char *msg);
void api__rate_limited(struct api_call *c, int64_t retry_after_ms);

/* {messages, hasMore} of a channel, from the limit/before/beforeId/around query (messages.c). */
void api__reply_history(struct api_call *c, const char *channel_id);
/* The same page as an object ({messages, hasMore}), or NULL when it has answered. */
json_t *api__history(struct api_call *c, const char *channel_id);
/* {server, channels (those the caller can see), roles}, 200 (servers.c). */
void api__reply_server_view(struct api_call *c, const char *sid);

#endif
