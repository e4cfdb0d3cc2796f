/* File types and images: see probe.h. */
#include "media/probe.h"

#include <fcntl.h>
#include <magic.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vips/vips.h>

#include "core/log.h"
#include "media/video.h"

/* One libmagic handle for all threads, in turn: its database takes several MB per copy. */
static pthread_mutex_t magic_lock = PTHREAD_MUTEX_INITIALIZER;
static magic_t cookie;
static int magic_failed;
static pthread_once_t vips_once = PTHREAD_ONCE_INIT;
static int vips_ready;

#define MAGIC_HEAD (64 * 1024) /* what libmagic reads of a file */

void media_type(const char *path, char *out, size_t cap)
{
    char *head = malloc(MAGIC_HEAD);
    int fd = head ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    ssize_t n = fd >= 0 ? read(fd, head, MAGIC_HEAD) : -1;
    if (fd >= 0)
        close(fd);
    const char *type = NULL;
    pthread_mutex_lock(&magic_lock);
    if (!cookie && !magic_failed && (cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR)) &&
        magic_load(cookie, NULL)) {
        log_error("media: libmagic's database cannot be loaded: %s", magic_error(cookie));
        magic_close(cookie);
        cookie = NULL;
        magic_failed = 1;
    }
    if (cookie && n >= 0)
        type = magic_buffer(cookie, head, (size_t)n);
    snprintf(out, cap, "%s", type && strchr(type, '/') ? type : "application/octet-stream");
    pthread_mutex_unlock(&magic_lock);
    free(head);
}

/* libvips keeps nothing between operations (no cache of images, files or memory) and runs one
 * thread per operation: its memory is what the image being shrunk needs, which the header's
 * verdict bounds before it starts. */
static void start_vips(void)
{
    if (VIPS_INIT("praca")) {
        log_error("media: libvips cannot start: %s", vips_error_buffer());
        return;
    }
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_ready = 1;
}

static atomic_ullong verdicts[MEDIA_THUMB_DECODE_BUDGET + 1];

int media_image_file_header(const char *path, struct media_image_header *out)
{
    uint8_t *head = malloc(MEDIA_IMAGE_HEADER_BYTES);
    int fd = head ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    ssize_t n = fd >= 0 ? read(fd, head, MEDIA_IMAGE_HEADER_BYTES) : -1;
    if (fd >= 0)
        close(fd);
    int rc = n > 0 ? media_image_header(head, (size_t)n, out) : -1;
    free(head);
    return rc;
}

/* Shrinks while decoding where the format allows (JPEG), and turns to the orientation; a square
 * is cut from the middle when crop is set. */
static int thumbnail(const char *path, const struct media_image_header *h, const char *out,
                     int side, int crop)
{
    enum media_thumb_verdict v = media_image_thumb_verdict(h);
    atomic_fetch_add(&verdicts[v], 1);
    if (v != MEDIA_THUMB_OK)
        return -1;
    pthread_once(&vips_once, start_vips);
    if (!vips_ready)
        return -1;
    VipsImage *thumb = NULL;
    if (vips_thumbnail(path, &thumb, side, "height", side, "size",
                       crop ? VIPS_SIZE_BOTH : VIPS_SIZE_DOWN, "crop",
                       crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, NULL)) {
        vips_error_clear();
        return -1;
    }
    /* libvips 8.14's WebP saver writes Exif made from the source's fields (a phone's GPS
     * position among them) despite "strip": every field that can go goes from a copy first. */
    VipsImage *bare = NULL;
    int rc = vips_copy(thumb, &bare, NULL);
    g_object_unref(thumb);
    if (!rc) {
        gchar **fields = vips_image_get_fields(bare);
        for (size_t i = 0; fields && fields[i]; i++)
            vips_image_remove(bare, fields[i]);
        g_strfreev(fields);
        rc = vips_webpsave(bare, out, "Q", 75, "strip", TRUE, NULL);
        g_object_unref(bare);
    }
    if (rc)
        vips_error_clear();
    return rc ? -1 : 0;
}

/* Every field a saver could write goes, but those an animation is made of. */
static void keep_only_animation(VipsImage *im)
{
    static const char *const KEEP[] = {"page-height", "delay", "loop", "gif-delay", "gif-loop"};
    gchar **fields = vips_image_get_fields(im);
    for (size_t i = 0; fields && fields[i]; i++) {
        int keep = 0;
        for (size_t k = 0; k < sizeof KEEP / sizeof *KEEP; k++)
            keep |= !strcmp(fields[i], KEEP[k]);
        if (!keep)
            vips_image_remove(im, fields[i]);
    }
    g_strfreev(fields);
}

/* The frames of the GIF or WebP at spec ("path[n=-1]"), from its header: their count, or -1
 * when they are too many or would decode past the budget. */
static int frames_within_budget(const char *spec)
{
    VipsImage *all = vips_image_new_from_file(spec, NULL); /* the header only */
    if (!all) {
        vips_error_clear();
        return -1;
    }
    int pages = vips_image_get_n_pages(all);
    uint64_t pixels = (uint64_t)vips_image_get_width(all) * (uint64_t)vips_image_get_height(all);
    g_object_unref(all);
    return pages < 1 || pages > MEDIA_EMOJI_FRAMES || pixels > MEDIA_WHOLE_PIXELS_MAX ? -1 : pages;
}

int media_emoji(const char *path, const struct media_image_header *h, const char *out, int side,
                int *animated)
{
    enum media_thumb_verdict v = media_image_thumb_verdict(h);
    atomic_fetch_add(&verdicts[v], 1);
    pthread_once(&vips_once, start_vips);
    if (v != MEDIA_THUMB_OK || !vips_ready)
        return -1;
    char spec[PATH_MAX + 8];
    int many = h->format == MEDIA_IMAGE_GIF || h->format == MEDIA_IMAGE_WEBP;
    if (snprintf(spec, sizeof spec, "%s%s", path, many ? "[n=-1]" : "") >= (int)sizeof spec)
        return -1;
    int pages = many ? frames_within_budget(spec) : 1;
    if (pages < 0)
        return -1;
    *animated = pages > 1;
    VipsImage *fitted = NULL, *bare = NULL;
    if (vips_thumbnail(spec, &fitted, side, "height", side, "size", VIPS_SIZE_DOWN, NULL) ||
        vips_copy(fitted, &bare, NULL)) {
        if (fitted)
            g_object_unref(fitted);
        vips_error_clear();
        return -1;
    }
    g_object_unref(fitted);
    keep_only_animation(bare);
    int rc = vips_webpsave(bare, out, "Q", 80, "strip", TRUE, NULL);
    g_object_unref(bare);
    if (rc)
        vips_error_clear();
    return rc ? -1 : 0;
}

int media_thumbnail(const char *path, const struct media_image_header *h, const char *out, int side)
{
    return thumbnail(path, h, out, side, 0);
}

int media_square(const char *path, const struct media_image_header *h, const char *out, int side)
{
    return thumbnail(path, h, out, side, 1);
}

int media_reencode(const char *path, const char *out, char *type, size_t cap)
{
    pthread_once(&vips_once, start_vips);
    VipsImage *im = vips_ready ? vips_image_new_from_file(path, NULL) : NULL; /* the header */
    if (!im) {
        vips_error_clear();
        return -1;
    }
    uint64_t pixels = (uint64_t)vips_image_get_width(im) * (uint64_t)vips_image_get_height(im);
    uint64_t decoded = pixels * (uint64_t)vips_image_get_bands(im) *
                       (uint64_t)vips_format_sizeof(vips_image_get_format(im));
    if (pixels > MEDIA_WHOLE_PIXELS_MAX || decoded > MEDIA_WHOLE_DECODED_MAX) {
        g_object_unref(im);
        return MEDIA_REENCODE_TOO_LARGE;
    }
    VipsImage *upright = NULL, *srgb = NULL;
    int rc = vips_autorot(im, &upright, NULL) ||
             vips_colourspace(upright, &srgb, VIPS_INTERPRETATION_sRGB, NULL);
    if (!rc) {
        int alpha = vips_image_hasalpha(srgb);
        snprintf(type, cap, "%s", alpha ? "image/png" : "image/jpeg");
        rc = alpha ? vips_pngsave(srgb, out, "strip", TRUE, NULL)
                   : vips_jpegsave(srgb, out, "Q", 90, "strip", TRUE, NULL);
    }
    if (rc)
        vips_error_clear();
    if (srgb)
        g_object_unref(srgb);
    if (upright)
        g_object_unref(upright);
    g_object_unref(im);
    return rc ? -1 : 0;
}

void media_stats(struct media_stats *out)
{
    for (int v = 0; v <= MEDIA_THUMB_DECODE_BUDGET; v++)
        out->verdicts[v] = atomic_load(&verdicts[v]);
}

static ssize_t fd_pread(void *ctx, void *buf, size_t n, uint64_t offset)
{
    return pread(*(int *)ctx, buf, n, (off_t)offset);
}

int media_video_file_size(const char *path, int *width, int *height)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    int rc = -1;
    if (fstat(fd, &st) == 0) {
        struct media_source src = {fd_pread, (uint64_t)st.st_size, &fd};
        rc = media_video_size(&src, width, height);
    }
    close(fd);
    return rc;
}

void media_shutdown(void)
{
    if (vips_ready)
        vips_shutdown();
    if (cookie)
        magic_close(cookie);
    cookie = NULL;
}
