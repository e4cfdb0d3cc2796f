/*
 * What a file's bytes are (libmagic), and an image's size (its header, image_header.h) and
 * thumbnail (libvips), on the media lane's threads. One libmagic handle serves them in turn (its
 * database is several MB a copy); libvips starts on first use, with one thread per operation and
 * no cache, and is handed only images whose header's verdict bounds what decoding them costs.
 */
#ifndef PRACA_MEDIA_PROBE_H
#define PRACA_MEDIA_PROBE_H
#include <stddef.h>

#include "media/image_header.h"

struct media_stats {
    unsigned long long verdicts[MEDIA_THUMB_DECODE_BUDGET + 1]; /* thumbnails asked, by verdict */
};

/* The MIME type the bytes of the file at path have ("application/octet-stream" when
 * unknown). */
void media_type(const char *path, char *out, size_t cap);
/* The header of the JPEG, PNG, GIF or WebP at path (its first MEDIA_IMAGE_HEADER_BYTES): 0, or
 * -1 when it holds none. */
int media_image_file_header(const char *path, struct media_image_header *out);
/* A WebP thumbnail of the image at path whose header is h, at most side pixels wide and high,
 * written to out (metadata stripped): 0, or -1 when it cannot be made or h's verdict refuses it
 * (counted by verdict in media_stats). */
int media_thumbnail(const char *path, const struct media_image_header *h, const char *out,
                    int side);
/* The same cut to a side × side square from the image's middle (a small image grows to it). */
int media_square(const char *path, const struct media_image_header *h, const char *out, int side);
/* An emoji made of the picture at path whose header is h: fitted within side × side pixels and
 * written to out as WebP with no metadata; a GIF or WebP of several frames stays animated (at
 * most MEDIA_EMOJI_FRAMES frames, all of them within the whole-decode budget of
 * image_header.h). *animated says which. 0, or -1 when it cannot be made. */
#define MEDIA_EMOJI_FRAMES 200
int media_emoji(const char *path, const struct media_image_header *h, const char *out, int side,
                int *animated);
void media_stats(struct media_stats *out);
/* Pictures whose metadata cannot be taken out in place (HEIC/HEIF, AVIF, TIFF) are decoded and
 * written again to out, upright and with no metadata: a JPEG (Q 90), or a PNG when they have
 * transparency; type gets which. 0; -1 when it cannot be read; MEDIA_REENCODE_TOO_LARGE (from
 * its header, before decoding) past the whole-decode budget of image_header.h. */
int media_reencode(const char *path, const char *out, char *type, size_t cap);
#define MEDIA_REENCODE_TOO_LARGE (-2)
/* A video's width and height (media/video.h) from the file at path: 0, or -1. */
int media_video_file_size(const char *path, int *width, int *height);
/* At exit, after every worker: libvips stops, libmagic's handle goes. */
void media_shutdown(void);

#endif
