/*
 * A Slack workspace's export as Slack hands it over, a zip: unpacked into a folder of its own
 * (domain/zip.h reads the directory), the folder imported, then removed. Every name is checked
 * to stay inside the folder, every file's bytes to match its size and CRC, and the whole to stay
 * within UNZIPPED_MAX, so an archive cannot write elsewhere or fill the disk.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/import_formats.h"
#include "domain/zip.h"

#define DIRECTORY_MAX ((uint64_t)64 << 20) /* the central directory's bytes */
#define ENTRIES_MAX   200000
#define UNZIPPED_MAX  ((uint64_t)16 << 30)
#define CHUNK         ((size_t)64 << 10)

/* Reads n bytes at offset: 0, or -1. */
static int read_at(FILE *f, uint64_t offset, void *buf, size_t n)
{
    return fseeko(f, (off_t)offset, SEEK_SET) || fread(buf, 1, n, f) != n ? -1 : 0;
}

/* The folders on the way to path (inside root), made. */
static int make_parents(char *path, size_t root_len)
{
    for (char *p = path + root_len + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        int rc = mkdir(path, 0700) && access(path, F_OK) ? -1 : 0;
        *p = '/';
        if (rc)
            return -1;
    }
    return 0;
}

/* One entry's data, from the archive to out: inflated or copied, its size and CRC checked. */
static int unpack(FILE *f, const struct zip_entry *e, FILE *out, unsigned char *in,
                  unsigned char *buf)
{
    unsigned char local[ZIP_LOCAL_LEN];
    uint64_t data;
    const char *why;
    if (read_at(f, e->local_offset, local, sizeof local) ||
        rule_zip_local(local, e->local_offset, &data, &why) || fseeko(f, (off_t)data, SEEK_SET))
        return -1;
    z_stream z = {0};
    if (e->deflated && inflateInit2(&z, -MAX_WBITS) != Z_OK)
        return -1;
    uLong crc = crc32(0, NULL, 0);
    uint64_t left = e->compressed, written = 0;
    int rc = 0, end = !e->deflated && !left;
    while (!rc && !end) {
        size_t n = left < CHUNK ? (size_t)left : CHUNK;
        if (n && fread(in, 1, n, f) != n) {
            rc = -1;
            break;
        }
        left -= n;
        z.next_in = in;
        z.avail_in = (uInt)n;
        do {
            size_t got = n;
            const unsigned char *from = in;
            if (e->deflated) {
                z.next_out = buf;
                z.avail_out = (uInt)CHUNK;
                int zr = inflate(&z, Z_NO_FLUSH);
                if (zr != Z_OK && zr != Z_STREAM_END && !(zr == Z_BUF_ERROR && !z.avail_in)) {
                    rc = -1;
                    break;
                }
                got = CHUNK - z.avail_out;
                from = buf;
                end = zr == Z_STREAM_END;
            } else {
                z.avail_in = 0;
                end = !left;
            }
            written += got;
            if (written > e->size || fwrite(from, 1, got, out) != got) {
                rc = -1;
                break;
            }
            crc = crc32(crc, from, (uInt)got);
        } while (e->deflated && !end && z.avail_in);
        if (!end && !left && e->deflated)
            rc = -1; /* the data ended before the stream */
    }
    if (e->deflated)
        inflateEnd(&z);
    return rc || written != e->size || crc != e->crc ? -1 : 0;
}

static int entry_out(FILE *f, const struct zip_entry *e, const char *root, unsigned char *in,
                     unsigned char *buf)
{
    char path[4096];
    size_t root_len = strlen(root);
    if (!rule_zip_name_safe(e->name, e->name_len) || root_len + 1 + e->name_len >= sizeof path)
        return -1;
    snprintf(path, sizeof path, "%s/%.*s", root, (int)e->name_len, e->name);
    if (make_parents(path, root_len))
        return -1;
    if (e->name[e->name_len - 1] == '/')
        return mkdir(path, 0700) && access(path, F_OK) ? -1 : 0;
    FILE *out = fopen(path, "wbx");
    if (!out)
        return -1;
    int rc = unpack(f, e, out, in, buf);
    return fclose(out) || rc ? -1 : 0;
}

/* The directory's entries, each unpacked under root: 0, or -1 (said why). */
static int unpack_all(FILE *f, const char *zip, const char *root)
{
    unsigned char tail[ZIP_TAIL_MAX];
    struct stat st;
    struct zip_directory d;
    const char *why = "unreadable";
    if (fstat(fileno(f), &st))
        return -1;
    size_t n = (uint64_t)st.st_size < sizeof tail ? (size_t)st.st_size : sizeof tail;
    if (read_at(f, (uint64_t)st.st_size - n, tail, n) ||
        rule_zip_end(tail, n, (uint64_t)st.st_size, &d, &why) || d.size > DIRECTORY_MAX ||
        d.entries > ENTRIES_MAX) {
        fprintf(stderr, "praca import: %s: %s\n", zip,
                d.size > DIRECTORY_MAX ? "too many files" : why);
        return -1;
    }
    unsigned char *dir = malloc(d.size ? d.size : 1), *in = malloc(CHUNK), *buf = malloc(CHUNK);
    int rc = dir && in && buf && !read_at(f, d.offset, dir, d.size) ? 0 : -1;
    uint64_t total = 0;
    struct zip_entry e;
    for (size_t at = 0, i = 0; !rc && (rc = rule_zip_entry(dir, d.size, &at, &e, &why)) == 0; i++) {
        if ((total += e.size) > UNZIPPED_MAX || i >= d.entries) {
            why = "more than 16 GiB unpacked";
            rc = -1;
        } else if (entry_out(f, &e, root, in, buf)) {
            why = "a file that cannot be unpacked where it belongs, or whose bytes do not match";
            rc = -1;
        }
    }
    if (rc < 0)
        fprintf(stderr, "praca import: %s: %s\n", zip, why);
    free(dir);
    free(in);
    free(buf);
    return rc < 0 ? -1 : 0;
}

int cli_import_is_zip(const char *path)
{
    unsigned char magic[4];
    FILE *f = fopen(path, "rb");
    int zip = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "PK\x03\x04", 4);
    if (f)
        fclose(f);
    return zip;
}

int cli_import_unzip(const char *zip, char root[1024])
{
    const char *tmp = getenv("TMPDIR");
    if (snprintf(root, 1024, "%s/praca-import-XXXXXX",
                 tmp && *tmp && strlen(tmp) < 900 ? tmp : "/tmp") >= 1024)
        return -1;
    if (!mkdtemp(root)) {
        fprintf(stderr, "praca import: cannot make a folder to unpack %s in\n", zip);
        return -1;
    }
    FILE *f = fopen(zip, "rb");
    int rc = f ? unpack_all(f, zip, root) : -1;
    if (f)
        fclose(f);
    return rc;
}

void cli_import_remove_tree(const char *path)
{
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        struct stat st;
        if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
            cli_import_remove_tree(sub);
        else
            unlink(sub);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

void cli_import_zip_folder(const char *root, int (*is_export)(const char *dir), char *out,
                           size_t cap)
{
    char probe[1400], only[1400] = "";
    snprintf(out, cap, "%s", root);
    if (is_export(root))
        return;
    DIR *d = opendir(root);
    int dirs = 0;
    struct stat st;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(probe, sizeof probe, "%s/%s", root, e->d_name);
        if (!stat(probe, &st) && S_ISDIR(st.st_mode) && !dirs++)
            snprintf(only, sizeof only, "%s", probe);
    }
    if (d)
        closedir(d);
    if (dirs == 1 && strlen(only) < cap)
        snprintf(out, cap, "%s", only);
}
