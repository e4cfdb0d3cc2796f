/* A server written as a portable archive: see archive.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "store/archive.h"
#include "store/files.h"

#define BLOB_PIECE ((size_t)768 << 10) /* raw bytes per line: 1 MiB of base64 */

struct out {
    FILE *f;
    struct store_archive_counts *counts;
    enum store_archive_kind kind;
    int failed;
};

/* Writes {"record": …, the row's columns…} as a line ("type" is a column of some rows). */
static int write_line(struct out *o, const char *type, json_t *row)
{
    json_t *line = json_pack("{s:s}", "record", type);
    int rc = line && !json_object_update(line, row) &&
                     !json_dumpf(line, o->f, JSON_COMPACT | JSON_ENSURE_ASCII) &&
                     fputc('\n', o->f) != EOF
                 ? 0
                 : -1;
    json_decref(line);
    json_decref(row);
    o->failed |= rc;
    return rc;
}

static int row_out(json_t *row, void *arg)
{
    struct out *o = arg;
    if (o->kind == ARCHIVE_MESSAGE)
        store_archive_relink(row, "");
    o->counts->rows[o->kind]++;
    return write_line(o, store_archive_kind_name(o->kind), row) ? 1 : 0;
}

static int kind_out(struct out *o, struct store *db, const char *server_id,
                    enum store_archive_kind kind)
{
    o->kind = kind;
    return store_archive_each(db, server_id, kind, row_out, o) || o->failed ? -1 : 0;
}

/* One blob's bytes, in pieces: {"record":"blob","hash","size","offset","data"}. */
static int blob_out(struct out *o, const struct store_files *files, struct store *db,
                    const char *hash, unsigned char *raw, char *text)
{
    size_t size;
    int fd = store_files_open(files, db, hash, &size);
    if (fd < 0) {
        o->counts->missing++;
        return 0;
    }
    int rc = 0;
    for (size_t at = 0; !rc && (at < size || at == 0);) {
        ssize_t n = read(fd, raw, BLOB_PIECE);
        if (n < 0 || (n == 0 && at < size)) {
            rc = -1;
            break;
        }
        crypto_base64(raw, (size_t)n, text);
        rc = write_line(o, "blob",
                        json_pack("{s:s,s:I,s:I,s:s}", "hash", hash, "size", (json_int_t)size,
                                  "offset", (json_int_t)at, "data", text));
        at += (size_t)n;
        if (n == 0)
            break;
    }
    close(fd);
    return rc;
}

static int blobs_out(struct out *o, const struct store_files *files, struct store *db,
                     const char *server_id)
{
    json_t *hashes = store_archive_blob_hashes(db, server_id);
    unsigned char *raw = malloc(BLOB_PIECE);
    char *text = malloc(BLOB_PIECE / 3 * 4 + 5);
    int rc = hashes && raw && text ? 0 : -1;
    size_t i;
    json_t *h;
    json_array_foreach(hashes, i, h)
    {
        if (rc || (rc = blob_out(o, files, db, json_string_value(h), raw, text)))
            break;
        o->counts->files++;
    }
    free(text);
    free(raw);
    json_decref(hashes);
    return rc;
}

int store_archive_write(FILE *f, struct store *db, const struct store_files *files,
                        const char *server_id, struct store_archive_counts *counts)
{
    *counts = (struct store_archive_counts){0};
    struct out out = {.f = f, .counts = counts}, *o = &out;
    json_t *head = json_pack("{s:s,s:i,s:I}", "format", "praca-archive", "version",
                             STORE_ARCHIVE_VERSION, "exportedAt", (json_int_t)clock_now_ms());
    if (write_line(o, "archive", head))
        return -1;
    for (int k = 0; k < ARCHIVE_KINDS; k++) {
        if (k == ARCHIVE_EMOJI && blobs_out(o, files, db, server_id))
            return -1;
        if (kind_out(o, db, server_id, (enum store_archive_kind)k))
            return -1;
        if (k == ARCHIVE_SERVER && !counts->rows[k])
            return STORE_MISSING;
    }
    return 0;
}
