/*
 * Field checks for JSON bodies, with no I/O. Each rule_* copies src[key] to dst when it is
 * valid and returns 1, returns 0 when the field is absent (or null) and optional, and -1 with
 * err holding the path ("base.key") and the reason otherwise.
 */
#ifndef PRACA_DOMAIN_JSON_RULES_H
#define PRACA_DOMAIN_JSON_RULES_H
#include <jansson.h>
#include <stddef.h>

#define RULE_PATH_MAX 128

struct rule_error {
    char path[RULE_PATH_MAX];
    char reason[160];
};

/* o[key] when it is a string (NULL otherwise), and the same when it is also not empty: how the
 * importers' readers take an export's fields, where an empty string says as little as none. */
const char *rule__json_string(const json_t *o, const char *key);
const char *rule__json_some_string(const json_t *o, const char *key);

/* Sets err and returns -1. */
int rule__json_fail(struct rule_error *err, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "base.key" and "base.i" into out; a path too deep to fit is cut, never overflowed. */
void rule__json_sub(char *out, size_t cap, const char *base, const char *key);
void rule__json_idx(char *out, size_t cap, const char *base, size_t i);

/* Looks up the string src[key] into *out and its path into path, copying nothing. */
int rule__json_text(json_t *src, const char *key, const char *base, char path[RULE_PATH_MAX],
                    struct rule_error *err, int required, json_t **out);
/* A string of min..max characters (code points). */
int rule__json_str(json_t *src, json_t *dst, const char *key, size_t min, size_t max,
                   const char *base, struct rule_error *err, int required);
int rule__json_int(json_t *src, json_t *dst, const char *key, json_int_t lo, json_int_t hi,
                   const char *base, struct rule_error *err, int required);
int rule__json_bool(json_t *src, json_t *dst, const char *key, const char *base,
                    struct rule_error *err);

/* Cleans each item of the array list (at path) with item(src, dst, item_path, err, arg) into a
 * new array; an item that is not an object fails with "deve ser um objeto". NULL on failure. */
typedef int (*rule_item_fn)(json_t *src, json_t *dst, const char *path, struct rule_error *err,
                            void *arg);
json_t *rule__json_objects(json_t *list, const char *path, struct rule_error *err,
                           rule_item_fn item, void *arg);

#endif
