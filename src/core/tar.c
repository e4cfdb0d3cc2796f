/* Writing a tar archive: see tar.h. */
#include "core/tar.h"

#include <string.h>

static void octal(char *field, size_t width, uint64_t value)
{
    /* width - 1 digits and a NUL, as ustar writes its numbers */
    field[width - 1] = '\0';
    for (size_t i = width - 1; i-- > 0; value >>= 3)
        field[i] = (char)('0' + (value & 7));
}

int tar_header(unsigned char block[TAR_BLOCK], const char *name, uint64_t size, int64_t mtime)
{
    size_t len = strlen(name);
    if (!len || len > TAR_NAME_MAX || size >= (1ULL << 33) || mtime < 0)
        return -1; /* 11 octal digits hold up to 8 GiB */
    char *h = (char *)block;
    memset(block, 0, TAR_BLOCK);
    memcpy(h, name, len);
    octal(h + 100, 8, 0644);
    octal(h + 108, 8, 0);
    octal(h + 116, 8, 0);
    octal(h + 124, 12, size);
    octal(h + 136, 12, (uint64_t)mtime);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8); /* the checksum counts its own field as spaces */
    unsigned sum = 0;
    for (size_t i = 0; i < TAR_BLOCK; i++)
        sum += block[i];
    octal(h + 148, 7, sum);
    h[155] = ' ';
    return 0;
}

int tar_entry_begin(FILE *f, struct tar_entry *e)
{
    static const unsigned char zero[TAR_BLOCK];
    e->header_at = ftello(f);
    return e->header_at < 0 || fwrite(zero, 1, TAR_BLOCK, f) != TAR_BLOCK ? -1 : 0;
}

int tar_entry_end(FILE *f, const struct tar_entry *e, const char *name, int64_t mtime)
{
    static const unsigned char zero[TAR_BLOCK];
    off_t end = ftello(f);
    if (end < e->header_at + TAR_BLOCK)
        return -1;
    uint64_t size = (uint64_t)(end - e->header_at - TAR_BLOCK);
    unsigned char header[TAR_BLOCK];
    size_t pad = (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
    if (tar_header(header, name, size, mtime) || fwrite(zero, 1, pad, f) != pad ||
        fseeko(f, e->header_at, SEEK_SET) || fwrite(header, 1, TAR_BLOCK, f) != TAR_BLOCK ||
        fseeko(f, 0, SEEK_END))
        return -1;
    return 0;
}

int tar_finish(FILE *f)
{
    static const unsigned char zero[2 * TAR_BLOCK];
    return fwrite(zero, 1, sizeof zero, f) == sizeof zero && fflush(f) == 0 ? 0 : -1;
}
