/* JSON text: see jsonout.h. */
#include "core/jsonout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"

#define JSONOUT_BAD (-3)
#define JSONOUT_MAX ((size_t)64 * 1024 * 1024) /* far above any answer or event we build */
#define DEPTH_MAX   64

/* The characters JSON escapes with a letter (or themselves), as jansson does. */
static const char SHORT_ESCAPES[][2] = {{'"', '"'},  {'\\', '\\'}, {'\b', 'b'}, {'\f', 'f'},
                                        {'\n', 'n'}, {'\r', 'r'},  {'\t', 't'}};

static int append_string(struct buf *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    int rc = buf_append(out, "\"", 1);
    size_t run = 0; /* bytes since the last escape, copied in one append */
    for (size_t i = 0; i < n && rc == BUF_OK; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        rc = buf_append(out, s + run, i - run);
        run = i + 1;
        char esc[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
        size_t elen = 6;
        for (size_t k = 0; k < sizeof SHORT_ESCAPES / sizeof SHORT_ESCAPES[0]; k++)
            if (SHORT_ESCAPES[k][0] == (char)ch) {
                esc[1] = SHORT_ESCAPES[k][1];
                elen = 2;
            }
        if (rc == BUF_OK)
            rc = buf_append(out, esc, elen);
    }
    if (rc == BUF_OK)
        rc = buf_append(out, s + run, n - run);
    return rc == BUF_OK ? buf_append(out, "\"", 1) : rc;
}

static int append_integer(struct buf *out, json_int_t v)
{
    char digits[24];
    size_t i = sizeof digits;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        digits[--i] = '-';
    return buf_append(out, digits + i, sizeof digits - i);
}

/* As jansson: 17 significant digits, a '.' or an exponent, no '+' or leading zeros in it. */
static int append_real(struct buf *out, double v)
{
    if (!isfinite(v))
        return JSONOUT_BAD;
    char text[32];
    int n = snprintf(text, sizeof text - 2, "%.17g", v);
    if (n < 0 || (size_t)n >= sizeof text - 2)
        return JSONOUT_BAD;
    char *e = strchr(text, 'e');
    if (!e && !strchr(text, '.')) {
        memcpy(text + n, ".0", 2);
        n += 2;
    }
    if (e) { /* e+300 and e-05 as e300 and e-5 */
        char *digits = e + 1, *from = digits;
        if (*from == '+')
            from++;
        else if (*from == '-')
            digits = ++from;
        while (*from == '0' && from[1])
            from++;
        memmove(digits, from, strlen(from) + 1);
        n = (int)strlen(text);
    }
    return buf_append(out, text, (size_t)n);
}

static int append_value(struct buf *out, const json_t *v, int depth)
{
    if (depth > DEPTH_MAX)
        return JSONOUT_BAD;
    switch (json_typeof(v)) {
    case JSON_NULL:
        return buf_append(out, "null", 4);
    case JSON_TRUE:
        return buf_append(out, "true", 4);
    case JSON_FALSE:
        return buf_append(out, "false", 5);
    case JSON_INTEGER:
        return append_integer(out, json_integer_value(v));
    case JSON_REAL:
        return append_real(out, json_real_value(v));
    case JSON_STRING:
        return append_string(out, json_string_value(v), json_string_length(v));
    case JSON_ARRAY: {
        int rc = buf_append(out, "[", 1);
        for (size_t i = 0; i < json_array_size(v) && rc == BUF_OK; i++) {
            if (i)
                rc = buf_append(out, ",", 1);
            if (rc == BUF_OK)
                rc = append_value(out, json_array_get(v, i), depth + 1);
        }
        return rc == BUF_OK ? buf_append(out, "]", 1) : rc;
    }
    case JSON_OBJECT: {
        int rc = buf_append(out, "{", 1);
        int first = 1;
        for (void *it = json_object_iter((json_t *)v); it && rc == BUF_OK;
             it = json_object_iter_next((json_t *)v, it)) {
            if (!first)
                rc = buf_append(out, ",", 1);
            first = 0;
            const char *key = json_object_iter_key(it);
            if (rc == BUF_OK)
                rc = append_string(out, key, json_object_iter_key_len(it));
            if (rc == BUF_OK)
                rc = buf_append(out, ":", 1);
            if (rc == BUF_OK)
                rc = append_value(out, json_object_iter_value(it), depth + 1);
        }
        return rc == BUF_OK ? buf_append(out, "}", 1) : rc;
    }
    }
    return JSONOUT_BAD;
}

int jsonout_append(struct buf *out, const json_t *v)
{
    return v ? append_value(out, v, 0) : JSONOUT_BAD;
}

char *jsonout_dump(const json_t *v, size_t *len)
{
    struct buf out;
    buf_init(&out, JSONOUT_MAX);
    if (jsonout_append(&out, v) != BUF_OK) {
        buf_cleanup(&out);
        return NULL;
    }
    return buf_detach(&out, len);
}

void jsonout_obj_begin(struct jsonout_obj *o, struct buf *out)
{
    o->out = out;
    o->members = 0;
    o->rc = buf_append(out, "{", 1);
}

/* The separator and the key; 0 when the member may be written. */
static int member(struct jsonout_obj *o, const char *key)
{
    if (o->rc == BUF_OK && o->members++)
        o->rc = buf_append(o->out, ",", 1);
    if (o->rc == BUF_OK)
        o->rc = append_string(o->out, key, strlen(key));
    if (o->rc == BUF_OK)
        o->rc = buf_append(o->out, ":", 1);
    return o->rc;
}

void jsonout_obj_str(struct jsonout_obj *o, const char *key, const char *s)
{
    if (!member(o, key))
        o->rc = s ? append_string(o->out, s, strlen(s)) : buf_append(o->out, "null", 4);
}

void jsonout_obj_str_opt(struct jsonout_obj *o, const char *key, const char *s)
{
    if (s)
        jsonout_obj_str(o, key, s);
}

void jsonout_obj_int(struct jsonout_obj *o, const char *key, json_int_t v)
{
    if (!member(o, key))
        o->rc = append_integer(o->out, v);
}

void jsonout_obj_bool(struct jsonout_obj *o, const char *key, int v)
{
    if (!member(o, key))
        o->rc = v ? buf_append(o->out, "true", 4) : buf_append(o->out, "false", 5);
}

void jsonout_obj_time(struct jsonout_obj *o, const char *key, int64_t ms)
{
    char iso[CLOCK_ISO_LEN + 1];
    clock_format_iso(ms, iso);
    jsonout_obj_str(o, key, iso);
}

void jsonout_obj_raw(struct jsonout_obj *o, const char *key, const char *text, const char *or_else)
{
    if (!member(o, key))
        o->rc = buf_append_str(o->out, text ? text : or_else);
}

void jsonout_obj_value(struct jsonout_obj *o, const char *key, const json_t *v)
{
    if (!member(o, key))
        o->rc = v ? append_value(o->out, v, 0) : buf_append(o->out, "null", 4);
}

int jsonout_obj_end(struct jsonout_obj *o)
{
    if (o->rc == BUF_OK)
        o->rc = buf_append(o->out, "}", 1);
    return o->rc;
}

json_t *jsonout_time(int64_t ms)
{
    char iso[CLOCK_ISO_LEN + 1];
    clock_format_iso(ms, iso);
    return json_string(iso);
}

json_t *jsonout_time_or_null(int64_t ms, int is_null)
{
    return is_null ? json_null() : jsonout_time(ms);
}

json_t *jsonout_str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}
