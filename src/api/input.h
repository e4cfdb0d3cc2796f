/* What a handler reads: route parameters, the JSON body and its fields, query parameters; a
 * reader that finds the input wrong answers 400 (or 404 for a route parameter) itself. */
#ifndef PRACA_API_INPUT_H
#define PRACA_API_INPUT_H
#include <jansson.h>
#include <stdint.h>

#include "api/api.h"

/* ---- route parameters (api.c) ---- */
const char *api__param(struct api_call *c, const char *name);
/* The parameter as a UUID; when it is not one, answers 404 with not_found and returns NULL. */
const char *api__param_id(struct api_call *c, const char *name, const char *not_found);

/* ---- input (input.c) ---- */
enum { API_IN_REQUIRED = 1, API_IN_NULLABLE = 2, API_IN_TRIM = 4 };
/* Parses the body as a JSON object; answers 400 and returns NULL otherwise. */
json_t *api__body(struct api_call *c);
/* Field readers: 1 = present and valid, 0 = absent (or null when API_IN_NULLABLE: *out NULL),
 * -1 = invalid (already answered 400 with path: motivo). Lengths are in characters. */
int api__in_str(struct api_call *c, json_t *obj, const char *key, size_t min, size_t max, int flags,
                const char **out);
int api__in_int(struct api_call *c, json_t *obj, const char *key, int64_t min, int64_t max,
                int flags, int64_t *out);
int api__in_bool(struct api_call *c, json_t *obj, const char *key, int flags, int *out);
int api__in_id(struct api_call *c, json_t *obj, const char *key, int flags, const char **out);
int api__in_perms(struct api_call *c, json_t *obj, const char *key, int flags, uint64_t *out);
/* iconUrl: a data:image/ URL up to API_ICON_MAX (413 above) or null; *set tells whether the
 * field was present at all. */
#define API_ICON_MAX (2 * 1000 * 1000) /* 2 MB */
int api__in_icon(struct api_call *c, json_t *obj, int *set, const char **icon);
/* A nullable timestamp (ISO 8601 or "YYYY-MM-DD HH:MM:SS"); null sets *present and *out = 0. */
int api__in_time(struct api_call *c, json_t *obj, const char *key, int64_t *out);
/* Query parameter `name` as an event-log position (0 when absent): 400 answered, -1, when it is
 * not a whole number ≥ 0. */
int api__query_position(struct api_call *c, const char *name, long long *out);
/* A reaction's body: exactly one of emoji (one Unicode emoji) or customEmojiId; 0, or -1 when
 * it has answered 400. */
int api__in_reaction(struct api_call *c, json_t *body, const char **emoji, const char **custom);
/* A custom emoji may be added by the caller to message mid in server sid (NULL: a
 * conversation): it is an emoji of that server or of a server the caller is in, or one the
 * caller reacted with there already (a toggle takes it back, even once it is deleted). 0, or -1
 * answered (400). Nothing to check without custom. */
int api__custom_emoji_usable(struct api_call *c, const char *sid, const char *mid,
                             const char *custom);

#endif
