/*
 * Bounded growable byte buffers and {ptr,len} slices.
 *
 * Every buffer has a maximum set at init; an append past it fails with BUF_ETOOBIG instead of
 * growing, so wire input can never make us allocate without limit. The data is always kept
 * NUL-terminated (one byte past len) so it can be handed to APIs that want C strings.
 */
#ifndef PRACA_CORE_BUF_H
#define PRACA_CORE_BUF_H
#include <stdarg.h>
#include <stddef.h>

enum buf_error {
    BUF_OK = 0,
    BUF_ETOOBIG = -1, /* the append would pass the buffer's maximum */
    BUF_ENOMEM = -2,
};

struct buf {
    char *data; /* owned; NULL until the first append */
    size_t len;
    size_t cap;
    size_t max;
};

struct slice {
    const char *ptr;
    size_t len;
};

#define SLICE_LIT(s) ((struct slice){(s), sizeof(s) - 1})

void buf_init(struct buf *b, size_t max);
void buf_cleanup(struct buf *b);
void buf_reset(struct buf *b);
int buf_append(struct buf *b, const void *p, size_t n);
int buf_append_str(struct buf *b, const char *s);
int buf_appendf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drops the first n bytes. */
void buf_consume(struct buf *b, size_t n);
/* Hands the bytes to the caller (free() them); the buffer is left empty. */
char *buf_detach(struct buf *b, size_t *len);

struct slice slice_from(const char *s);
int slice_eq(struct slice a, const char *s);
int slice_eq_nocase(struct slice a, const char *s);
/* Copies into out (size cap, NUL-terminated); returns -1 when it does not fit. */
int slice_copy(struct slice s, char *out, size_t cap);
/* Parses a whole slice as a decimal integer in [min, max]; -1 on anything else. */
int slice_to_i64(struct slice s, long long min, long long max, long long *out);

#endif
