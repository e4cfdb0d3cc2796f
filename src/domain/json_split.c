/* A JSON document's long array, an element at a time: see json_split.h. */
#include "domain/json_split.h"

#include <string.h>

void rule_json_split_init(struct rule_json_split *s, const char *key, size_t header_max,
                          size_t element_max)
{
    memset(s, 0, sizeof *s);
    s->key = key;
    buf_init(&s->header, header_max);
    buf_init(&s->element, element_max);
}

void rule_json_split_cleanup(struct rule_json_split *s)
{
    buf_cleanup(&s->header);
    buf_cleanup(&s->element);
}

/* A string's byte at depth 1 (the root object's keys and values): the last one is kept. */
static void root_string_byte(struct rule_json_split *s, char c)
{
    if (s->last_len + 1 < sizeof s->last)
        s->last[s->last_len++] = c;
    else
        s->last_too_long = 1;
}

/* Follows strings and nesting (the depth after the byte). */
static void track(struct rule_json_split *s, char c)
{
    if (s->in_string) {
        if (s->escape)
            s->escape = 0;
        else if (c == '\\')
            s->escape = 1;
        else if (c == '"')
            s->in_string = 0;
        else if (s->reading_root_string)
            root_string_byte(s, c);
        if (!s->in_string)
            s->reading_root_string = 0;
        return;
    }
    if (c == '"') {
        s->in_string = 1;
        if (s->depth == 1) {
            s->reading_root_string = 1;
            s->last_len = 0;
            s->last_too_long = 0;
        }
    } else if (c == '{' || c == '[') {
        s->depth++;
    } else if (c == '}' || c == ']') {
        s->depth--;
    }
}

static int is_key(const struct rule_json_split *s)
{
    return !s->last_too_long && s->last_len == strlen(s->key) &&
           !memcmp(s->last, s->key, s->last_len);
}

static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

int rule_json_split_feed(struct rule_json_split *s, const char *data, size_t n,
                         int (*on_element)(void *arg, const char *json, size_t len), void *arg,
                         const char **why)
{
    for (size_t i = 0; i < n; i++) {
        char c = data[i];
        int before = s->depth, outside = !s->in_string;
        track(s, c);
        if (!s->in_array) {
            if (buf_append(&s->header, &c, 1)) {
                *why = "the document past its bound outside the array";
                return -1;
            }
            if (outside && c == '[' && before == 1 && is_key(s))
                s->in_array = 1; /* its elements stay out of the header */
            continue;
        }
        if (s->skipping) { /* an element that is not an object, until its end */
            if (s->depth > 1) {
                if (!s->in_string && s->depth == 2 && c == ',')
                    s->skipping = 0;
                continue;
            }
            s->skipping = 0; /* the array's end, below */
        }
        if (s->element.len) { /* inside an object */
            if (buf_append(&s->element, &c, 1)) {
                *why = "an element of the array past its bound";
                return -1;
            }
            if (!s->in_string && s->depth == 2) {
                int rc = on_element(arg, s->element.data, s->element.len);
                buf_reset(&s->element);
                if (rc)
                    return rc;
            }
            continue;
        }
        if (before == 2 && s->depth == 1) { /* the array's end */
            s->in_array = 0;
            if (buf_append(&s->header, &c, 1)) {
                *why = "the document past its bound outside the array";
                return -1;
            }
        } else if (c == '{') {
            buf_append(&s->element, &c, 1); /* within any bound: the first byte */
        } else if (!is_space(c) && c != ',') {
            s->stray++;
            s->skipping = 1;
        }
    }
    return 0;
}
