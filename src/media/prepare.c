/*
 * A file made ready to keep (prepare.h): the steps an upload's file goes through, in order, so
 * that an import's files are kept exactly as a person's upload would be.
 */
#include "media/prepare.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "media/probe.h"
#include "media/strip.h"

struct fd_io {
    int in, out;
};

static ssize_t fd_read(void *ctx, void *buf, size_t n)
{
    return read(((struct fd_io *)ctx)->in, buf, n);
}

static int fd_write(void *ctx, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(((struct fd_io *)ctx)->out, p, n);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A new empty file in the spool, named in out: its descriptor, or -1. */
static int spool_file(const char *spool, const char *kind, char out[MEDIA_PATH_MAX])
{
    if (snprintf(out, MEDIA_PATH_MAX, "%s/%s-XXXXXX", spool, kind) >= MEDIA_PATH_MAX)
        return -1;
    return mkstemp(out);
}

/* The new file at out replaces the one at f->path. */
static void replace(struct media_file *f, const char out[MEDIA_PATH_MAX])
{
    unlink(f->path);
    memcpy(f->path, out, MEDIA_PATH_MAX);
}

/* Pictures whose metadata cannot be taken out in place. */
static int rewritten(const char *t)
{
    return !strcmp(t, "image/heic") || !strcmp(t, "image/heif") || !strcmp(t, "image/avif") ||
           !strcmp(t, "image/tiff");
}

/* What takes a type's metadata out in place, or NULL when it has none to take: the images a
 * thumbnail is made of, too. */
static int (*stripper(const char *type))(const struct media_io *)
{
    return !strcmp(type, "image/jpeg")   ? media_strip_jpeg
           : !strcmp(type, "image/png")  ? media_strip_png
           : !strcmp(type, "image/webp") ? media_strip_webp
           : !strcmp(type, "image/gif")  ? media_strip_gif
                                         : NULL;
}

static enum media_prepare_result rewrite(const char *spool, struct media_file *f)
{
    char out[MEDIA_PATH_MAX];
    int fd = spool_file(spool, "rewrite", out);
    if (fd < 0)
        return MEDIA_NO_SPOOL;
    close(fd);
    int rc = media_reencode(f->path, out, f->content_type, sizeof f->content_type);
    if (rc) {
        unlink(out);
        return rc == MEDIA_REENCODE_TOO_LARGE ? MEDIA_TOO_LARGE : MEDIA_MALFORMED;
    }
    replace(f, out);
    f->rewritten = 1;
    return MEDIA_PREPARED;
}

static enum media_prepare_result strip(const char *spool, struct media_file *f)
{
    char out[MEDIA_PATH_MAX];
    struct fd_io io = {open(f->path, O_RDONLY | O_CLOEXEC), spool_file(spool, "strip", out)};
    int rc = -1;
    if (io.in >= 0 && io.out >= 0) {
        struct media_io m = {fd_read, fd_write, &io};
        rc = stripper(f->content_type)(&m);
    }
    if (io.in >= 0)
        close(io.in);
    if (io.out >= 0)
        close(io.out);
    if (io.out < 0)
        return MEDIA_NO_SPOOL;
    if (rc) {
        unlink(out);
        return MEDIA_MALFORMED;
    }
    replace(f, out);
    return MEDIA_PREPARED;
}

/* An image's size and thumbnail; a file shown without a thumbnail when it cannot be made. */
static void measure(const char *spool, int thumb_side, struct media_file *f)
{
    struct media_image_header header;
    if (stripper(f->content_type) && !media_image_file_header(f->path, &header)) {
        f->width = (int)header.width;
        f->height = (int)header.height;
        int fd = spool_file(spool, "thumb", f->thumb);
        if (fd < 0) {
            f->thumb[0] = '\0';
        } else {
            close(fd);
            if (media_thumbnail(f->path, &header, f->thumb, thumb_side)) {
                unlink(f->thumb);
                f->thumb[0] = '\0';
            }
        }
    }
    if (!strncmp(f->content_type, "video/", 6) &&
        media_video_file_size(f->path, &f->width, &f->height))
        f->width = f->height = 0;
}

enum media_prepare_result media_prepare(const char *spool, int thumb_side, struct media_file *f)
{
    f->rewritten = f->width = f->height = 0;
    f->thumb[0] = '\0';
    media_type(f->path, f->content_type, sizeof f->content_type);
    enum media_prepare_result rc = MEDIA_PREPARED;
    if (rewritten(f->content_type))
        rc = rewrite(spool, f);
    if (!rc && stripper(f->content_type))
        rc = strip(spool, f);
    if (!rc)
        measure(spool, thumb_side, f);
    return rc;
}
