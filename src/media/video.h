/*
 * A video's width and height, read from its container's headers with no I/O of its own: MP4
 * and QuickTime (the first track whose header gives a size: moov → trak → tkhd) and WebM /
 * Matroska (Segment → Tracks → TrackEntry → Video → PixelWidth, PixelHeight). Bytes are read at
 * the offsets asked, so a moov at the end of the file costs no more than at its start.
 */
#ifndef PRACA_MEDIA_VIDEO_H
#define PRACA_MEDIA_VIDEO_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct media_source {
    /* Up to n bytes at offset: how many (0 past the end), or -1. */
    ssize_t (*pread)(void *ctx, void *buf, size_t n, uint64_t offset);
    uint64_t size;
    void *ctx;
};

/* 0 with width and height, or -1 when the container is neither or holds no sized track. */
int media_video_size(const struct media_source *src, int *width, int *height);

#endif
