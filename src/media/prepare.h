/*
 * A file as Praça keeps it, whoever brings it (an upload, an import): its type read from its
 * bytes; a HEIC/HEIF, AVIF or TIFF picture written again as a JPEG or PNG; a JPEG's, PNG's,
 * WebP's or GIF's metadata taken out; an image's or a video's size; an image's thumbnail. On the
 * media lane's threads, or in a command of its own.
 */
#ifndef PRACA_MEDIA_PREPARE_H
#define PRACA_MEDIA_PREPARE_H
#include <stddef.h>

#define MEDIA_PATH_MAX 1024

struct media_file {
    /* in: the file, in the spool; out: the file to keep (when it was written again, a new file
     * and the old one deleted) */
    char path[MEDIA_PATH_MAX];
    char content_type[128];
    int rewritten;     /* written again as a JPEG or a PNG (its name takes the extension) */
    int width, height; /* an image's or a video's; 0 when unknown */
    char thumb[MEDIA_PATH_MAX]; /* an image's thumbnail, in the spool; "" when none */
};

enum media_prepare_result {
    MEDIA_PREPARED = 0,
    MEDIA_MALFORMED = -1, /* an image that cannot be read */
    MEDIA_TOO_LARGE = -2, /* a picture past the decoding budget, to be written again */
    MEDIA_NO_SPOOL = -3,  /* the spool cannot hold a new file */
};

/* Prepares f->path, making new files in the folder spool: a thumbnail at most thumb_side pixels
 * wide and high (missing when it cannot be made: the file is shown without one). On an error,
 * f->path is still the caller's to delete, and no thumbnail is left. */
enum media_prepare_result media_prepare(const char *spool, int thumb_side, struct media_file *f);

#endif
