/* A zip archive's central directory: see zip.h. */
#include "domain/zip.h"

#include <string.h>

#define END_SIG      0x06054b50u
#define CENTRAL_SIG  0x02014b50u
#define LOCAL_SIG    0x04034b50u
#define END_LEN      22
#define CENTRAL_LEN  46
#define NAME_MAX_LEN 1000

static uint32_t u16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t u32(const unsigned char *p)
{
    return u16(p) | u16(p + 2) << 16;
}

int rule_zip_end(const unsigned char *tail, size_t n, uint64_t archive_size,
                 struct zip_directory *out, const char **why)
{
    /* The end record is last, but for its comment: look back from the end. */
    for (size_t i = n >= END_LEN ? n - END_LEN + 1 : 0; i-- > 0;) {
        const unsigned char *e = tail + i;
        if (u32(e) != END_SIG || i + END_LEN + u16(e + 20) != n)
            continue;
        if (u16(e + 4) || u16(e + 6) || u16(e + 8) != u16(e + 10)) {
            *why = "an archive on several disks";
            return -1;
        }
        out->entries = u16(e + 10);
        out->size = u32(e + 12);
        out->offset = u32(e + 16);
        if (out->entries == 0xFFFF || out->size == 0xFFFFFFFFu || out->offset == 0xFFFFFFFFu) {
            *why = "a Zip64 archive (past 4 GiB or 65,535 files)";
            return -1;
        }
        if (out->offset + out->size > archive_size) {
            *why = "a central directory past the end of the file";
            return -1;
        }
        return 0;
    }
    *why = "not a zip archive (no end record)";
    return -1;
}

int rule_zip_entry(const unsigned char *dir, size_t n, size_t *at, struct zip_entry *out,
                   const char **why)
{
    if (*at == n)
        return 1;
    const unsigned char *c = dir + *at;
    if (n - *at < CENTRAL_LEN || u32(c) != CENTRAL_SIG) {
        *why = "a central directory record cut short";
        return -1;
    }
    size_t name_len = u16(c + 28), extra = u16(c + 30), comment = u16(c + 32);
    if (n - *at - CENTRAL_LEN < name_len + extra + comment) {
        *why = "a central directory record cut short";
        return -1;
    }
    uint32_t method = u16(c + 10), flags = u16(c + 8);
    if (flags & 1) {
        *why = "an encrypted file";
        return -1;
    }
    if (method != 0 && method != 8) {
        *why = "a file compressed otherwise than by deflate";
        return -1;
    }
    *out = (struct zip_entry){.name = (const char *)c + CENTRAL_LEN,
                              .name_len = name_len,
                              .deflated = method == 8,
                              .crc = u32(c + 16),
                              .compressed = u32(c + 20),
                              .size = u32(c + 24),
                              .local_offset = u32(c + 42)};
    if (out->compressed == 0xFFFFFFFFu || out->size == 0xFFFFFFFFu ||
        out->local_offset == 0xFFFFFFFFu) {
        *why = "a Zip64 entry";
        return -1;
    }
    if (!out->deflated && out->compressed != out->size) {
        *why = "a stored file whose sizes differ";
        return -1;
    }
    *at += CENTRAL_LEN + name_len + extra + comment;
    return 0;
}

int rule_zip_name_safe(const char *name, size_t len)
{
    if (!len || len > NAME_MAX_LEN || name[0] == '/')
        return 0;
    for (size_t i = 0, start = 0; i <= len; i++) {
        if (i < len && (name[i] == '\\' || name[i] == 0))
            return 0;
        if (i == len || name[i] == '/') {
            if (i - start == 2 && name[start] == '.' && name[start + 1] == '.')
                return 0;
            if (i - start == 0 && i < len && i > 0)
                return 0; /* "a//b" */
            start = i + 1;
        }
    }
    return 1;
}

int rule_zip_local(const unsigned char *local, uint64_t local_offset, uint64_t *data_offset,
                   const char **why)
{
    if (u32(local) != LOCAL_SIG) {
        *why = "a file's local header is missing";
        return -1;
    }
    *data_offset = local_offset + ZIP_LOCAL_LEN + u16(local + 26) + u16(local + 28);
    return 0;
}
