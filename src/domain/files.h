/* Rules for attached files, with no I/O: names people see and save, and what a browser may show
 * in place. */
#ifndef PRACA_DOMAIN_FILES_H
#define PRACA_DOMAIN_FILES_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define RULE_FILENAME_MAX 100 /* bytes */

/* A file name safe to show, store and save: the last path component only, no control
 * characters nor any of <>:"/\|?*, no Unicode format characters (bidirectional overrides,
 * zero-width characters), no leading dots or spaces, valid UTF-8 cut at a character boundary to
 * RULE_FILENAME_MAX bytes; "arquivo" when nothing is left. out holds RULE_FILENAME_MAX + 1. */
void rule_filename_clean(const char *in, char out[RULE_FILENAME_MAX + 1]);
/* The name with its extension (what follows its last '.', if any) replaced by ext ("jpg"), cut
 * before it where the whole would pass RULE_FILENAME_MAX. */
void rule_filename_set_extension(char name[RULE_FILENAME_MAX + 1], const char *ext);
/* 1 when a browser may show a file of this type in the page (pictures, sound, video and plain
 * text that run nothing); every other type is served as a download. */
int rule_file_inline(const char *content_type);
/* 1 for the image types thumbnails are made of. */
int rule_file_is_image(const char *content_type);
/* "%"-encodes a file name for a URL path segment or an RFC 8187 filename* (out holds 3x+1). */
void rule_filename_url(const char *name, char *out, size_t cap);
/* A message's file as the API shows it: {id, filename, size, contentType, url, thumbnailUrl,
 * width and height when known (> 0)}, its links at site_url ("" for a path). NULL when out of
 * memory. */
struct rule_attachment_shown {
    const char *id, *filename, *content_type;
    int64_t size;
    int has_thumbnail, width, height;
};
json_t *rule_attachment_object(const char *site_url, const struct rule_attachment_shown *a);

#endif
