/* Input readers: see api.h. Each failure answers 400 with "<path>: <motivo>". */
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "api/reply.h"
#include "api/input.h"
#include "domain/emoji.h"
#include "core/clock.h"
#include "domain/permissions.h"
#include "domain/text.h"

json_t *api__body(struct api_call *c)
{
    if (c->body)
        return c->body;
    json_error_t err;
    const struct buf *b = &c->req->body;
    struct slice text = {b->data ? b->data : "", b->len};
    if (c->req->upload) { /* multipart: the JSON is the payload_json field, if any */
        text = http_upload_field(c->req->upload, "payload_json");
        if (!text.ptr)
            text = SLICE_LIT("{}");
    }
    c->body = json_loadb(text.ptr, text.len, 0, &err);
    if (!c->body) {
        api__bad(c, "body", "JSON inválido");
        return NULL;
    }
    if (!json_is_object(c->body)) {
        api__bad(c, "body", "deve ser um objeto JSON");
        return NULL;
    }
    return c->body;
}

/* Common presence logic: 1 = go on with *v, 0 = absent/null accepted, -1 = answered. */
static int field(struct api_call *c, json_t *obj, const char *key, int flags, json_t **v)
{
    *v = json_object_get(obj, key);
    if (!*v || (json_is_null(*v) && (flags & API_IN_NULLABLE))) {
        if (!*v && (flags & API_IN_REQUIRED)) {
            api__bad(c, key, "obrigatório");
            return -1;
        }
        *v = NULL;
        return 0;
    }
    if (json_is_null(*v)) {
        api__bad(c, key, (flags & API_IN_REQUIRED) ? "obrigatório" : "não pode ser nulo");
        return -1;
    }
    return 1;
}

int api__in_str(struct api_call *c, json_t *obj, const char *key, size_t min, size_t max, int flags,
                const char **out)
{
    json_t *v;
    int rc = field(c, obj, key, flags, &v);
    *out = NULL;
    if (rc <= 0)
        return rc;
    if (!json_is_string(v)) {
        api__bad(c, key, "deve ser um texto");
        return -1;
    }
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    if (memchr(s, '\0', len)) {
        api__bad(c, key, "não pode conter o caractere nulo");
        return -1;
    }
    if (flags & API_IN_TRIM) {
        size_t tl = len;
        const char *t = rule_text_trim(s, &tl);
        if (t != s || tl != len) {
            json_t *trimmed = json_stringn(t, tl);
            json_object_set_new(obj, key, trimmed);
            v = trimmed;
            s = json_string_value(v);
            len = tl;
        }
    }
    size_t chars = rule_text_chars(s, len);
    if (chars < min || chars > max) {
        char msg[96];
        if (min == 0)
            snprintf(msg, sizeof msg, "deve ter no máximo %zu caracteres", max);
        else if (min == max)
            snprintf(msg, sizeof msg, "deve ter %zu caracteres", min);
        else
            snprintf(msg, sizeof msg, "deve ter entre %zu e %zu caracteres", min, max);
        api__bad(c, key, msg);
        return -1;
    }
    *out = s;
    return 1;
}

int api__in_int(struct api_call *c, json_t *obj, const char *key, int64_t min, int64_t max,
                int flags, int64_t *out)
{
    json_t *v;
    int rc = field(c, obj, key, flags, &v);
    if (rc <= 0)
        return rc;
    if (!json_is_integer(v)) {
        api__bad(c, key, "deve ser um número inteiro");
        return -1;
    }
    json_int_t i = json_integer_value(v);
    if (i < min || i > max) {
        char msg[96];
        snprintf(msg, sizeof msg, "deve estar entre %lld e %lld", (long long)min, (long long)max);
        api__bad(c, key, msg);
        return -1;
    }
    *out = i;
    return 1;
}

int api__in_bool(struct api_call *c, json_t *obj, const char *key, int flags, int *out)
{
    json_t *v;
    int rc = field(c, obj, key, flags, &v);
    if (rc <= 0)
        return rc;
    if (!json_is_boolean(v)) {
        api__bad(c, key, "deve ser verdadeiro ou falso");
        return -1;
    }
    *out = json_is_true(v);
    return 1;
}

int api__in_id(struct api_call *c, json_t *obj, const char *key, int flags, const char **out)
{
    json_t *v;
    int rc = field(c, obj, key, flags, &v);
    *out = NULL;
    if (rc <= 0)
        return rc;
    if (!json_is_string(v) || !uuid_valid(json_string_value(v), json_string_length(v))) {
        api__bad(c, key, "deve ser um UUID");
        return -1;
    }
    *out = json_string_value(v);
    return 1;
}

int api__in_perms(struct api_call *c, json_t *obj, const char *key, int flags, uint64_t *out)
{
    json_t *v;
    int rc = field(c, obj, key, flags, &v);
    if (rc <= 0)
        return rc;
    /* Discord sends permission bitfields as strings; accept both forms. */
    long long bits = -1;
    if (json_is_integer(v)) {
        bits = json_integer_value(v);
    } else if (json_is_string(v)) {
        struct slice text = {json_string_value(v), json_string_length(v)};
        if (slice_to_i64(text, 0, (long long)PERM_ALL, &bits))
            bits = -1;
    } else {
        api__bad(c, key, "deve ser um número inteiro");
        return -1;
    }
    if (!rule_perm_valid(bits)) {
        api__bad(c, key, "bits de permissão desconhecidos (válidos: 0 a 524287)");
        return -1;
    }
    *out = (uint64_t)bits;
    return 1;
}

int api__in_time(struct api_call *c, json_t *obj, const char *key, int64_t *out)
{
    json_t *v;
    int rc = field(c, obj, key, API_IN_NULLABLE, &v);
    *out = 0;
    if (rc <= 0)
        return rc == 0 && json_object_get(obj, key) ? 2 : rc; /* 2 = explicitly null */
    if (!json_is_string(v) || clock_parse(json_string_value(v), json_string_length(v), out)) {
        api__bad(c, key, "deve ser uma data ISO 8601 ou YYYY-MM-DD HH:MM:SS");
        return -1;
    }
    return 1;
}

int api__in_icon(struct api_call *c, json_t *obj, int *set, const char **icon)
{
    *set = json_object_get(obj, "iconUrl") != NULL;
    json_t *v = json_object_get(obj, "iconUrl");
    /* Size first: a huge icon is a 413 whatever else is wrong with it. */
    if (v && json_is_string(v) && json_string_length(v) > API_ICON_MAX) {
        api__error(c, 413, "iconUrl: a imagem passa de 2 MB");
        return -1;
    }
    int rc = api__in_str(c, obj, "iconUrl", 0, API_ICON_MAX, API_IN_NULLABLE, icon);
    if (rc <= 0)
        return rc;
    if (strncmp(*icon, "data:image/", 11) != 0) {
        api__bad(c, "iconUrl", "deve ser uma URL data:image/");
        return -1;
    }
    return 1;
}

int api__query_position(struct api_call *c, const char *name, long long *out)
{
    struct slice v;
    if (http_query_param(c->req->query, name, &v) && slice_to_i64(v, 0, INT64_MAX, out)) {
        api__bad(c, name, "deve ser uma posição (número inteiro ≥ 0)");
        return -1;
    }
    return 0;
}

int api__in_reaction(struct api_call *c, json_t *body, const char **emoji, const char **custom)
{
    if (api__in_str(c, body, "emoji", 1, 32, API_IN_NULLABLE, emoji) < 0 ||
        api__in_str(c, body, "customEmojiId", 1, RULE_CUSTOM_EMOJI_MAX, API_IN_NULLABLE, custom) <
            0)
        return -1;
    if (!*emoji == !*custom) {
        api__bad(c, "emoji",
                 *emoji ? "envie emoji ou customEmojiId, não os dois"
                        : "obrigatório (ou customEmojiId)");
        return -1;
    }
    if (*emoji && !rule_emoji_valid(*emoji, strlen(*emoji))) {
        api__bad(c, "emoji", "deve ser um emoji");
        return -1;
    }
    if (*custom && !rule_emoji_custom_id_valid(*custom, strlen(*custom))) {
        api__bad(c, "customEmojiId", "só letras, dígitos, _ e -");
        return -1;
    }
    return 0;
}
