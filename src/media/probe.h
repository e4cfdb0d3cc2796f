/*
 * What a file's bytes are (libmagic), and an image's size and thumbnail (libvips). Worker
 * threads only: each keeps its own libmagic handle; libvips starts on first use, with one
 * thread per operation and no cache, so an image costs only the memory it needs while it is
 * read.
 */
#ifndef PRACA_MEDIA_PROBE_H
#define PRACA_MEDIA_PROBE_H
#include <stddef.h>

#define MEDIA_PIXELS_MAX (100L * 1000 * 1000) /* larger images get no size nor thumbnail */

/* The MIME type the bytes of the file at path have ("application/octet-stream" when
 * unknown). */
void media_type(const char *path, char *out, size_t cap);
/* An image's width and height: 0, or -1 when libvips cannot read it. */
int media_image_size(const char *path, int *width, int *height);
/* A WebP thumbnail of the image at path, at most side pixels wide and high, written to out
 * (metadata stripped): 0 or -1. */
int media_thumbnail(const char *path, const char *out, int side);
/* The thread's libmagic handle goes (a worker thread's last call). */
void media_thread_cleanup(void);
/* At exit, after every worker: libvips stops. */
void media_shutdown(void);

#endif
