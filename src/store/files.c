/* File storage: see files.h. */
#include "store/files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"

#define READ_CHUNK (192 * 1024) /* a blob_chunks row holds this much, as 256 KiB of base64 */

static int make_dir(const char *path)
{
    if (mkdir(path, 0700) == 0 || errno == EEXIST)
        return 0;
    log_error("files: cannot create %s: %s", path, strerror(errno));
    return -1;
}

int store_files_init(struct store_files *f, enum store_files_kind kind, const char *root)
{
    memset(f, 0, sizeof *f);
    f->kind = kind;
    char sub[1000];
    if (snprintf(f->root, sizeof f->root, "%s", root) >= (int)sizeof f->root) {
        log_error("files: the folder's path is too long");
        return -1;
    }
    snprintf(f->spool, sizeof f->spool, "%s/spool", f->root);
    snprintf(sub, sizeof sub, "%s/%s", f->root, kind == STORE_FILES_DISK ? "blobs" : "cache");
    return make_dir(f->root) || make_dir(f->spool) || make_dir(sub) ? -1 : 0;
}

int store_files_sweep_spool(const struct store_files *f, int64_t before)
{
    DIR *dir = opendir(f->spool);
    if (!dir)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        char path[1200];
        struct stat st;
        if (e->d_name[0] == '.' ||
            snprintf(path, sizeof path, "%s/%s", f->spool, e->d_name) >= (int)sizeof path ||
            lstat(path, &st) || !S_ISREG(st.st_mode))
            continue;
        int64_t written = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
        if (written < before && unlink(path) == 0)
            n++;
    }
    closedir(dir);
    return n;
}

/* root/blobs/ab/<hash> (or cache/); with mkdir, the folder is made. */
static int blob_path(const struct store_files *f, const char *hash, char *out, size_t cap,
                     int mkdir_too)
{
    const char *sub = f->kind == STORE_FILES_DISK ? "blobs" : "cache";
    if (strlen(hash) != CRYPTO_SHA256_HEX)
        return -1;
    snprintf(out, cap, "%s/%s/%.2s", f->root, sub, hash);
    if (mkdir_too && make_dir(out))
        return -1;
    return snprintf(out, cap, "%s/%s/%.2s/%s", f->root, sub, hash, hash) >= (int)cap ? -1 : 0;
}

/* Reads the whole file at fd through fn (each piece); 0 or -1. */
static int read_all(int fd, void (*fn)(void *arg, const char *p, size_t n), void *arg)
{
    char *chunk = malloc(READ_CHUNK);
    if (!chunk)
        return -1;
    off_t at = 0;
    ssize_t n;
    while ((n = pread(fd, chunk, READ_CHUNK, at)) > 0) {
        fn(arg, chunk, (size_t)n);
        at += n;
    }
    free(chunk);
    return n < 0 ? -1 : 0;
}

static void hash_piece(void *arg, const char *p, size_t n)
{
    crypto_sha256_update(arg, p, n);
}

/* The SHA-256 and size of the file at fd. */
static int hash_file(int fd, char hash[CRYPTO_SHA256_HEX + 1], size_t *size)
{
    struct stat st;
    struct crypto_sha256 *h = crypto_sha256_new();
    if (!h || fstat(fd, &st)) {
        if (h)
            crypto_sha256_final(h, hash);
        return -1;
    }
    int rc = read_all(fd, hash_piece, h);
    crypto_sha256_final(h, hash);
    *size = (size_t)st.st_size;
    return rc;
}

/* ---- the database's chunks ---- */

struct chunk_writer {
    struct store *db;
    const char *hash;
    int64_t seq;
    char *text;
    int failed;
};

static void write_chunk(void *arg, const char *p, size_t n)
{
    static const char *SQL = "INSERT INTO blob_chunks (hash, seq, data) VALUES ($1, $2, $3)";
    struct chunk_writer *w = arg;
    if (w->failed)
        return;
    size_t len = crypto_base64((const unsigned char *)p, n, w->text);
    w->failed = store__exec(w->db, SQL,
                            SV_ARGS(SV_STR(w->hash), SV_INT(w->seq++), SV_STRN(w->text, len))) !=
                STORE_DONE;
}

/* Writes the blob's rows on the worker's own connection, in a transaction of their own: they
 * carry no event, and 25 MB through the writer would hold every send behind them. */
static int put_rows(struct store *db, int fd, const char *hash, size_t size)
{
    static const char *HAVE = "SELECT 1 FROM blobs WHERE hash = $1";
    static const char *MARK = "INSERT INTO blobs (hash, size, created_at) VALUES ($1, $2, $3)"
                              " ON CONFLICT (hash) DO UPDATE SET created_at = excluded.created_at";
    static const char *DROP = "DELETE FROM blob_chunks WHERE hash = $1";
    int have = store__exists(db, HAVE, SV_ARGS(SV_STR(hash)));
    if (have < 0)
        return -1;
    if (have)
        return 0;
    struct chunk_writer w = {.db = db, .hash = hash, .text = malloc(READ_CHUNK / 3 * 4 + 8)};
    if (!w.text || store__exec(db, "BEGIN", NULL, 0) != STORE_DONE) {
        free(w.text);
        return -1;
    }
    int rc = store__exec(db, DROP, SV_ARGS(SV_STR(hash))) == STORE_DONE &&
                     read_all(fd, write_chunk, &w) == 0 && !w.failed &&
                     store__exec(db, MARK,
                                 SV_ARGS(SV_STR(hash), SV_INT(size), SV_INT(clock_now_ms()))) ==
                         STORE_DONE
                 ? 0
                 : -1;
    store__exec(db, rc ? "ROLLBACK" : "COMMIT", NULL, 0);
    free(w.text);
    return rc;
}

int store_files_put(const struct store_files *f, struct store *db, const char *path,
                    char hash[CRYPTO_SHA256_HEX + 1], size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    char dest[1100];
    int rc = -1;
    if (fd < 0 || hash_file(fd, hash, size) || blob_path(f, hash, dest, sizeof dest, 1))
        goto out;
    if (f->kind == STORE_FILES_DATABASE && put_rows(db, fd, hash, *size))
        goto out;
    /* Same bytes, same name: replacing a blob already there changes nothing. */
    if (rename(path, dest)) {
        log_error("files: cannot store %s: %s", dest, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    if (rc)
        unlink(path);
    return rc;
}

int store_files_present(const struct store_files *f, struct store *db, const char *hash)
{
    char path[1100];
    if (f->kind == STORE_FILES_DATABASE)
        return store__exists(db, "SELECT 1 FROM blob_chunks WHERE hash = $1 AND seq = 0",
                             SV_ARGS(SV_STR(hash))) == 1;
    return blob_path(f, hash, path, sizeof path, 0) == 0 && access(path, F_OK) == 0;
}

int store_files_claim_at(const struct store_files *f, struct store *db, const char *hash,
                         int64_t size, int64_t now)
{
    static const char *SQL = "INSERT INTO blobs (hash, size, created_at) VALUES ($1, $2, $3)"
                             " ON CONFLICT (hash) DO UPDATE SET created_at = excluded.created_at";
    int rc = store__exec(db, SQL, SV_ARGS(SV_STR(hash), SV_INT(size), SV_INT(now)));
    if (rc != STORE_DONE)
        return rc;
    /* After the claim no sweep takes it; before it one may have. */
    return store_files_present(f, db, hash) ? STORE_DONE : STORE_MISSING;
}

/* Database kind: the blob's rows written to the local cache, then opened. */
static int fill_cache(const struct store_files *f, struct store *db, const char *hash,
                      const char *dest)
{
    static const char *SQL = "SELECT data FROM blob_chunks WHERE hash = $1 ORDER BY seq";
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s/cache-XXXXXX", f->spool);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    unsigned char *raw = malloc(READ_CHUNK + 8);
    struct store_stmt *st = raw ? store__query(db, SQL, SV_ARGS(SV_STR(hash))) : NULL;
    int rc = st ? STORE_DONE : STORE_ERR, rows = 0;
    while (st && (rc = store__step(st)) == STORE_ROW) {
        int n =
            crypto_base64_decode(store__text(st, 0), store__text_len(st, 0), raw, READ_CHUNK + 8);
        if (n < 0 || write(fd, raw, (size_t)n) != n) {
            rc = STORE_ERR;
            break;
        }
        rows++;
    }
    if (st)
        store__finish(st);
    free(raw);
    close(fd);
    if (rc != STORE_DONE || !rows || rename(tmp, dest)) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int store_files_open(const struct store_files *f, struct store *db, const char *hash, size_t *size)
{
    char path[1100];
    if (blob_path(f, hash, path, sizeof path, f->kind == STORE_FILES_DATABASE))
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && f->kind == STORE_FILES_DATABASE && fill_cache(f, db, hash, path) == 0)
        fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st)) {
        close(fd);
        fd = -1;
    }
    if (fd >= 0)
        *size = (size_t)st.st_size;
    return fd;
}

static int delete_blob(const struct store_files *f, struct store *db, const char *hash)
{
    char path[1100];
    if (store__exec(db, "DELETE FROM blobs WHERE hash = $1", SV_ARGS(SV_STR(hash))) != STORE_DONE)
        return -1;
    if (f->kind == STORE_FILES_DATABASE &&
        store__exec(db, "DELETE FROM blob_chunks WHERE hash = $1", SV_ARGS(SV_STR(hash))) !=
            STORE_DONE)
        return -1;
    if (blob_path(f, hash, path, sizeof path, 0) == 0)
        unlink(path); /* a cache copy, or the blob itself */
    return 0;
}

int store_files_sweep_at(const struct store_files *f, struct store *db, int64_t before,
                         char cursor[CRYPTO_SHA256_HEX + 1], int max)
{
    static const char *SQL =
        "SELECT b.hash, b.created_at < $2"
        " AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.blob = b.hash)"
        " AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.thumb_blob = b.hash)"
        " AND NOT EXISTS (SELECT 1 FROM users u WHERE u.avatar = b.hash)"
        " AND NOT EXISTS (SELECT 1 FROM users u WHERE u.avatar_small = b.hash)"
        " AND NOT EXISTS (SELECT 1 FROM exports e WHERE e.blob = b.hash)"
        " AND NOT EXISTS (SELECT 1 FROM emojis j WHERE j.blob = b.hash)"
        " FROM blobs b WHERE b.hash > $1 ORDER BY b.hash LIMIT $3";
    struct store_stmt *st =
        store__query(db, SQL, SV_ARGS(SV_STR(cursor), SV_INT(before), SV_INT(max)));
    if (!st)
        return STORE_ERR;
    char(*doomed)[CRYPTO_SHA256_HEX + 1] = calloc((size_t)max, sizeof *doomed);
    int rc = STORE_ERR, seen = 0, n = 0;
    while (doomed && (rc = store__step(st)) == STORE_ROW) {
        store__text_copy(st, 0, cursor, CRYPTO_SHA256_HEX + 1);
        seen++;
        if (store__int(st, 1))
            store__text_copy(st, 0, doomed[n++], CRYPTO_SHA256_HEX + 1);
    }
    store__finish(st);
    if (!doomed || rc != STORE_DONE) {
        free(doomed);
        return STORE_ERR;
    }
    if (seen < max)
        cursor[0] = '\0'; /* the end: the next sweep starts over */
    int deleted = 0;
    for (int i = 0; i < n; i++)
        if (delete_blob(f, db, doomed[i]) == 0)
            deleted++;
    free(doomed);
    return deleted;
}

/* Where attachments' bytes go: --files, else a folder beside the SQLite file (or ./praca-files
 * with PostgreSQL); in the database with PostgreSQL unless --files-store says otherwise. */
int store_files_configure(struct store_files *f, const struct config *cfg)
{
    char root[1024];
    const char *slash = strrchr(cfg->data, '/');
    if (cfg->files[0])
        snprintf(root, sizeof root, "%s", cfg->files);
    else if (cfg->database_url[0])
        snprintf(root, sizeof root, "./praca-files");
    else if (slash)
        snprintf(root, sizeof root, "%.*s/files", (int)(slash - cfg->data), cfg->data);
    else
        snprintf(root, sizeof root, "files");
    enum store_files_kind kind = cfg->database_url[0] ? STORE_FILES_DATABASE : STORE_FILES_DISK;
    if (!strcmp(cfg->files_store, "disk"))
        kind = STORE_FILES_DISK;
    else if (!strcmp(cfg->files_store, "database"))
        kind = STORE_FILES_DATABASE;
    else if (cfg->files_store[0]) {
        log_error("--files-store: disk or database, not '%s'", cfg->files_store);
        return -1;
    }
    if (kind == STORE_FILES_DATABASE && !cfg->database_url[0]) {
        log_error("--files-store database: only with PostgreSQL (--database-url)");
        return -1;
    }
    return store_files_init(f, kind, root);
}
