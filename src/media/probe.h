/*
 * What a file's bytes are (libmagic), and an image's size and thumbnail (libvips), on worker
 * threads. One libmagic handle serves them in turn (its database is several MB a copy); libvips
 * starts on first use, with one thread per operation and no cache, so an image costs only the
 * memory it needs while it is read.
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
/* A video's width and height (media/video.h) from the file at path: 0, or -1. */
int media_video_file_size(const char *path, int *width, int *height);
/* At exit, after every worker: libvips stops, libmagic's handle goes. */
void media_shutdown(void);

#endif
