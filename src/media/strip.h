/*
 * Removing what a photo says besides its pixels (where it was taken, the camera, the time, the
 * editor's notes) from JPEG and PNG files, without decoding or re-encoding them. No I/O: bytes
 * come from io->read and go to io->write.
 *
 * JPEG keeps its image segments, JFIF (APP0), the colour profile (APP2 ICC_PROFILE) and Adobe's
 * colour marker (APP14); Exif becomes a minimal one holding only the orientation (so a phone's
 * portrait stays upright), and XMP, IPTC, comments and anything after the image's end go.
 * PNG keeps its critical chunks and those that change how pixels look (transparency, gamma,
 * colour space, physical size, animation); text, Exif and time chunks go.
 * WebP keeps every chunk but EXIF and XMP, which are emptied where they stand (renamed JUNK and
 * zeroed, so the RIFF's size written first stays true) and unflagged in VP8X.
 * GIF keeps its images, colour tables, graphic controls and the loop count (NETSCAPE2.0,
 * ANIMEXTS1.0); comments, plain text and other applications' blocks (XMP) go, as does anything
 * after the trailer.
 */
#ifndef PRACA_MEDIA_STRIP_H
#define PRACA_MEDIA_STRIP_H
#include <stddef.h>
#include <sys/types.h>

struct media_io {
    /* Up to n bytes into buf: how many, 0 at the end, -1 on an error. */
    ssize_t (*read)(void *ctx, void *buf, size_t n);
    /* All n bytes, or -1. */
    int (*write)(void *ctx, const void *buf, size_t n);
    void *ctx;
};

enum media_strip_result {
    MEDIA_STRIP_OK = 0,
    MEDIA_STRIP_MALFORMED = -1, /* not a well-formed file of its kind */
    MEDIA_STRIP_IO = -2,        /* read or write failed */
};

int media_strip_jpeg(const struct media_io *io);
int media_strip_png(const struct media_io *io);
int media_strip_webp(const struct media_io *io);
int media_strip_gif(const struct media_io *io);
/* The orientation (1-8) an Exif block (from "Exif\0\0") records, or 0 when none. */
int media_exif_orientation(const unsigned char *p, size_t len);

#endif
