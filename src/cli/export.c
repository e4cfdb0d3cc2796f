/*
 * praca export --server ID FILE: the server as a portable archive (store/archive.h), JSON
 * lines read and written a row at a time, so an archive of any size costs flat memory. The
 * files' bytes go as base64 lines of at most a MiB each. Written to FILE.part, then renamed:
 * a FILE there is whole.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/uuid.h"
#include "store/archive.h"
#include "store/files.h"

#define BLOB_PIECE ((size_t)768 << 10) /* raw bytes per line: 1 MiB of base64 */

static const char USAGE[] = "usage: praca export --server ID FILE\n";

struct out {
    FILE *f;
    const char *type;
    long counts[ARCHIVE_KINDS];
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
    o->counts[o->kind]++;
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
        fprintf(stderr, "praca export: the file %s is missing; left out\n", hash);
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

static int blobs_out(struct out *o, const struct config *cfg, struct store *db,
                     const char *server_id, long *nblobs)
{
    struct store_files files;
    json_t *hashes = store_archive_blob_hashes(db, server_id);
    unsigned char *raw = malloc(BLOB_PIECE);
    char *text = malloc(BLOB_PIECE / 3 * 4 + 5);
    int rc = hashes && raw && text && !store_files_configure(&files, cfg) ? 0 : -1;
    size_t i;
    json_t *h;
    json_array_foreach(hashes, i, h)
    {
        if (rc || (rc = blob_out(o, &files, db, json_string_value(h), raw, text)))
            break;
        ++*nblobs;
    }
    free(text);
    free(raw);
    json_decref(hashes);
    return rc;
}

static int archive_out(struct out *o, const struct config *cfg, struct store *db,
                       const char *server_id, long *nblobs)
{
    json_t *head = json_pack("{s:s,s:i,s:I}", "format", "praca-archive", "version",
                             STORE_ARCHIVE_VERSION, "exportedAt", (json_int_t)clock_now_ms());
    if (write_line(o, "archive", head))
        return -1;
    for (int k = 0; k < ARCHIVE_KINDS; k++) {
        if (k == ARCHIVE_EMOJI && blobs_out(o, cfg, db, server_id, nblobs))
            return -1;
        if (kind_out(o, db, server_id, (enum store_archive_kind)k))
            return -1;
        if (k == ARCHIVE_SERVER && !o->counts[k]) {
            fprintf(stderr, "praca export: no server %s\n", server_id);
            return -1;
        }
    }
    return 0;
}

int cli_export(const struct config *cfg, char **words, int nwords)
{
    const char *server_id = NULL, *path = NULL;
    for (int i = 0; i < nwords; i++) {
        const char *v;
        if ((v = cli_option(words, nwords, &i, "--server")))
            server_id = v;
        else if (!path && strncmp(words[i], "--", 2))
            path = words[i];
        else
            path = "";
    }
    if (!server_id || strlen(server_id) != UUID_LEN || !uuid_valid(server_id, UUID_LEN) || !path ||
        !*path || strlen(path) > 1000) {
        fputs(USAGE, stderr);
        return 2;
    }
    char part[1024];
    snprintf(part, sizeof part, "%s.part", path);
    struct store *db = cli_open_store(cfg);
    int fd = db ? open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    struct out o = {.f = fd >= 0 ? fdopen(fd, "w") : NULL};
    long nblobs = 0;
    int rc = o.f && !archive_out(&o, cfg, db, server_id, &nblobs) ? 0 : 1;
    if (o.f && fclose(o.f))
        rc = 1;
    else if (!o.f && fd >= 0)
        close(fd);
    if (!rc && rename(part, path))
        rc = 1;
    if (rc && fd >= 0)
        unlink(part);
    if (!rc)
        printf("exported server %s to %s: %ld channels, %ld people, %ld messages, %ld files,"
               " %ld bots to install again\n",
               server_id, path, o.counts[ARCHIVE_CHANNEL], o.counts[ARCHIVE_PERSON],
               o.counts[ARCHIVE_MESSAGE], nblobs, o.counts[ARCHIVE_INSTALL]);
    else if (db)
        fprintf(stderr, "praca export: %s not written\n", path);
    store_close(db);
    return rc;
}
