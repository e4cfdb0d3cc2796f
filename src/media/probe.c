/* File types and images: see probe.h. */
#include "media/probe.h"

#include <magic.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

#include "core/log.h"

static _Thread_local magic_t cookie;
static pthread_once_t vips_once = PTHREAD_ONCE_INIT;
static int vips_ready;

void media_type(const char *path, char *out, size_t cap)
{
    if (!cookie && (cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR)) &&
        magic_load(cookie, NULL)) {
        log_error("media: libmagic's database cannot be loaded: %s", magic_error(cookie));
        magic_close(cookie);
        cookie = NULL;
    }
    const char *type = cookie ? magic_file(cookie, path) : NULL;
    snprintf(out, cap, "%s", type && strchr(type, '/') ? type : "application/octet-stream");
}

void media_thread_cleanup(void)
{
    if (cookie)
        magic_close(cookie);
    cookie = NULL;
}

static void start_vips(void)
{
    if (VIPS_INIT("praca")) {
        log_error("media: libvips cannot start: %s", vips_error_buffer());
        return;
    }
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_ready = 1;
}

static VipsImage *open_image(const char *path)
{
    pthread_once(&vips_once, start_vips);
    if (!vips_ready)
        return NULL;
    VipsImage *im = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!im)
        vips_error_clear();
    return im;
}

int media_image_size(const char *path, int *width, int *height)
{
    VipsImage *im = open_image(path);
    if (!im)
        return -1;
    *width = vips_image_get_width(im);
    *height = vips_image_get_height(im);
    g_object_unref(im);
    return 0;
}

int media_thumbnail(const char *path, const char *out, int side)
{
    int w, h;
    if (media_image_size(path, &w, &h) || (long)w * h > MEDIA_PIXELS_MAX)
        return -1;
    VipsImage *thumb = NULL;
    /* Shrinks while decoding where the format allows (JPEG), and turns to the orientation. */
    if (vips_thumbnail(path, &thumb, side, "height", side, "size", VIPS_SIZE_DOWN, NULL)) {
        vips_error_clear();
        return -1;
    }
    int rc = vips_webpsave(thumb, out, "Q", 75, "strip", TRUE, NULL);
    g_object_unref(thumb);
    if (rc)
        vips_error_clear();
    return rc ? -1 : 0;
}

void media_shutdown(void)
{
    if (vips_ready)
        vips_shutdown();
}
