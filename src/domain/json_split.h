/*
 * Reading a large JSON export a piece at a time, with no I/O: the bytes of a document whose root
 * object holds one very long array (an export's "messages") are fed in chunks; each element of
 * that array comes out on its own, and everything else is kept as the document with that array
 * empty (its header: a channel's name, its guild). Memory is the header and one element, however
 * long the array. Strings and escapes are followed, so brackets inside text do not count.
 */
#ifndef PRACA_DOMAIN_JSON_SPLIT_H
#define PRACA_DOMAIN_JSON_SPLIT_H
#include <stddef.h>

#include "core/buf.h"

struct rule_json_split {
    const char *key; /* the root's array to split ("messages") */
    struct buf header, element;
    size_t stray; /* elements of the array that were not objects, left out */
    int depth, in_string, escape, in_array, skipping;
    /* the last string closed in the root object (its member's key, when an array follows) */
    char last[32];
    size_t last_len;
    int reading_root_string, last_too_long;
};

/* header_max and element_max bound what is held (BUF_ETOOBIG past them). */
void rule_json_split_init(struct rule_json_split *s, const char *key, size_t header_max,
                          size_t element_max);
/* Feeds the next n bytes; on_element(arg, json, len) is called with each whole object of the
 * array (return non-zero to stop). 0, or the first non-zero on_element returned, or -1 with
 * *why (an element or the header past its bound). */
int rule_json_split_feed(struct rule_json_split *s, const char *data, size_t n,
                         int (*on_element)(void *arg, const char *json, size_t len), void *arg,
                         const char **why);
void rule_json_split_cleanup(struct rule_json_split *s);

#endif
