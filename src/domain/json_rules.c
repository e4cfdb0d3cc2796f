/*
 * Checks shared by the body rules of the domain (messages, commands): each copies a field from
 * the input object to the clean one, or fails with the field's path and a Portuguese reason.
 */
#include "domain/json_rules.h"

#include <stdarg.h>
#include <stdio.h>

#include "domain/text.h"

int rule__json_fail(struct rule_error *err, const char *path, const char *fmt, ...)
{
    snprintf(err->path, sizeof err->path, "%s", path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->reason, sizeof err->reason, fmt, ap);
    va_end(ap);
    return -1;
}

/* Paths are for messages only: a path too deep to fit is cut, never overflowed. */
void rule__json_sub(char *out, size_t cap, const char *base, const char *key)
{
    if (snprintf(out, cap, "%s.%s", base, key) >= (int)cap)
        out[cap - 1] = '\0';
}

void rule__json_idx(char *out, size_t cap, const char *base, size_t i)
{
    if (snprintf(out, cap, "%s.%zu", base, i) >= (int)cap)
        out[cap - 1] = '\0';
}

int rule__json_text(json_t *src, const char *key, const char *base, char path[RULE_PATH_MAX],
                    struct rule_error *err, int required, json_t **out)
{
    rule__json_sub(path, RULE_PATH_MAX, base, key);
    json_t *v = *out = json_object_get(src, key);
    if (!v || json_is_null(v))
        return required ? rule__json_fail(err, path, "obrigatório") : 0;
    if (!json_is_string(v))
        return rule__json_fail(err, path, "deve ser um texto");
    return 1;
}

/* Copies an optional string field of at most max characters (min when present). */
int rule__json_str(json_t *src, json_t *dst, const char *key, size_t min, size_t max,
                   const char *base, struct rule_error *err, int required)
{
    char path[RULE_PATH_MAX];
    json_t *v;
    int rc = rule__json_text(src, key, base, path, err, required, &v);
    if (rc <= 0)
        return rc;
    size_t n = rule_text_chars(json_string_value(v), json_string_length(v));
    if (n < min || n > max)
        return min ? rule__json_fail(err, path, "deve ter entre %zu e %zu caracteres", min, max)
                   : rule__json_fail(err, path, "deve ter no máximo %zu caracteres", max);
    json_object_set(dst, key, v);
    return 1;
}

int rule__json_int(json_t *src, json_t *dst, const char *key, json_int_t lo, json_int_t hi,
                   const char *base, struct rule_error *err, int required)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, key);
    json_t *v = json_object_get(src, key);
    if (!v || json_is_null(v))
        return required ? rule__json_fail(err, path, "obrigatório") : 0;
    if (!json_is_integer(v))
        return rule__json_fail(err, path, "deve ser um número inteiro");
    json_int_t i = json_integer_value(v);
    if (i < lo || i > hi)
        return rule__json_fail(err, path, "deve estar entre %lld e %lld", (long long)lo,
                               (long long)hi);
    json_object_set(dst, key, v);
    return 1;
}

int rule__json_bool(json_t *src, json_t *dst, const char *key, const char *base,
                    struct rule_error *err)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, key);
    json_t *v = json_object_get(src, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v))
        return rule__json_fail(err, path, "deve ser verdadeiro ou falso");
    json_object_set(dst, key, v);
    return 1;
}

json_t *rule__json_objects(json_t *list, const char *path, struct rule_error *err,
                           rule_item_fn item, void *arg)
{
    json_t *out = json_array();
    size_t i;
    json_t *src;
    json_array_foreach(list, i, src)
    {
        char at[RULE_PATH_MAX];
        rule__json_idx(at, sizeof at, path, i);
        json_t *clean = json_object();
        json_array_append_new(out, clean);
        if (!json_is_object(src) ? rule__json_fail(err, at, "deve ser um objeto") < 0
                                 : item(src, clean, at, err, arg) < 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

const char *rule__json_string(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

const char *rule__json_some_string(const json_t *o, const char *key)
{
    const char *s = rule__json_string(o, key);
    return s && *s ? s : NULL;
}
