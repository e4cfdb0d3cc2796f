/*
 * A zip archive's central directory, read with no I/O (APPNOTE.TXT, 4.3.12–4.3.16): what a
 * Slack workspace's export is. The caller reads the archive's tail and then its directory; each
 * entry says where its local header is, how its bytes are stored (stored, or deflated), and the
 * sizes and CRC its data must match. Zip64, encryption and multi-disk archives are refused: a
 * Slack export is none of them.
 */
#ifndef PRACA_DOMAIN_ZIP_H
#define PRACA_DOMAIN_ZIP_H
#include <stddef.h>
#include <stdint.h>

#define ZIP_TAIL_MAX  (65535 + 22) /* the end record and its comment, at most */
#define ZIP_LOCAL_LEN 30           /* a local header before its name and extra field */

struct zip_directory {
    uint64_t offset, size; /* of the central directory in the archive */
    size_t entries;
};
/* The end record in the archive's last bytes (tail, of an archive of archive_size bytes): 0, or
 * -1 with *why. */
int rule_zip_end(const unsigned char *tail, size_t n, uint64_t archive_size,
                 struct zip_directory *out, const char **why);

struct zip_entry {
    const char *name; /* not NUL-terminated: name_len bytes, pointing into the directory */
    size_t name_len;
    int deflated; /* 0: stored */
    uint32_t crc;
    uint64_t compressed, size, local_offset;
};
/* The entry at *at in the directory's bytes, moving *at past it: 0, 1 at the end, or -1 with
 * *why (a method other than stored or deflate, encryption, a record cut short). */
int rule_zip_entry(const unsigned char *dir, size_t n, size_t *at, struct zip_entry *out,
                   const char **why);
/* Whether a name is a safe relative path to write under a folder: no absolute path, no "..",
 * no backslash or NUL, not empty, at most 1,000 bytes. A name ending in '/' is a folder. */
int rule_zip_name_safe(const char *name, size_t len);
/* Where an entry's data starts, from its local header's first ZIP_LOCAL_LEN bytes: 0 and the
 * offset past the header, or -1 with *why. */
int rule_zip_local(const unsigned char *local, uint64_t local_offset, uint64_t *data_offset,
                   const char **why);

#endif
