/*
 * multipart/form-data (RFC 7578 over RFC 2046), parsed incrementally and with no I/O.
 *
 * Bytes go in as they arrive, split anywhere; each part is reported as begin (its name, file
 * name and type), data (any number of spans, straight from the input, never copied) and end.
 * Memory is fixed: the part's header block (at most HTTP_MULTIPART_HEAD_MAX bytes) and the
 * boundary. The preamble before the first boundary and the epilogue after the last are ignored.
 */
#ifndef PRACA_HTTP_MULTIPART_H
#define PRACA_HTTP_MULTIPART_H
#include <stddef.h>

#include "core/buf.h"

#define HTTP_MULTIPART_HEAD_MAX     4096 /* one part's header lines */
#define HTTP_MULTIPART_BOUNDARY_MAX 70   /* RFC 2046 §5.1.1 */

enum multipart_error {
    HTTP_MULTIPART_OK = 0,
    HTTP_MULTIPART_EMALFORMED = -1, /* not multipart/form-data as RFC 7578 writes it */
    HTTP_MULTIPART_EHEAD = -2,      /* a part's headers passed HTTP_MULTIPART_HEAD_MAX */
    /* a callback's own nonzero result is handed back as it is */
};

struct http_multipart_part {
    char name[128];         /* the form field's name (Content-Disposition name=) */
    char filename[256];     /* as the client wrote it, unsanitised */
    int has_filename;       /* a file part (filename= present, even empty) */
    char content_type[128]; /* the client's word, "" when absent */
};

struct http_multipart_callbacks {
    /* Each returns 0 to go on, or a nonzero value that stops the parse and is returned. */
    int (*begin)(void *user, const struct http_multipart_part *part);
    int (*data)(void *user, const char *p, size_t len);
    int (*end)(void *user);
};

struct http_multipart {
    const struct http_multipart_callbacks *cb;
    void *user;
    int state;
    int result;                                  /* sticky once nonzero */
    char delim[4 + HTTP_MULTIPART_BOUNDARY_MAX]; /* "\r\n--" boundary */
    size_t delim_len;
    size_t matched; /* bytes of delim matched so far */
    size_t head_len;
    char head[HTTP_MULTIPART_HEAD_MAX];
    struct http_multipart_part part;
};

/* Reads the boundary from a Content-Type value; HTTP_MULTIPART_EMALFORMED when the type is not
 * multipart/form-data or the boundary is missing or invalid. */
int http_multipart_init(struct http_multipart *mp, struct slice content_type,
                        const struct http_multipart_callbacks *cb, void *user);
/* Parses len more bytes: 0, a multipart_error, or a callback's result (sticky). */
int http_multipart_feed(struct http_multipart *mp, const char *data, size_t len);
/* After the last byte: 0 when the closing boundary was seen, else HTTP_MULTIPART_EMALFORMED. */
int http_multipart_finish(const struct http_multipart *mp);

#endif
