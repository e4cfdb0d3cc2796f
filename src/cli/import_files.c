/*
 * An export's files brought in (import_files.h): each file once per batch, by its path under the
 * media folder or its link, kept as an upload's would be and claimed at once (so the sweep finds
 * it even when no message takes it), then attached to each message of the batch that names it.
 */
#include "cli/import_files.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/import_fetch.h"
#include "cli/import_write.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/map.h"
#include "core/vec.h"
#include "domain/files.h"
#include "domain/zip.h"
#include "media/prepare.h"
#include "media/probe.h"
#include "store/files.h"
#include "store/imports.h"

#define THUMB_SIDE    400 /* as an upload's */
#define PICTURE_LARGE 256 /* as a person's picture: api/profiles.c */
#define PICTURE_SMALL 64

/* A file as a batch brought it. */
struct brought {
    int missing;
    char blob[CRYPTO_SHA256_HEX + 1], thumb[CRYPTO_SHA256_HEX + 1];
    char content_type[128];
    int64_t size, thumb_size;
    int width, height, rewritten;
};

/* A person's picture as this run brought it. */
struct picture {
    int missing, given;
    char large[CRYPTO_SHA256_HEX + 1], small[CRYPTO_SHA256_HEX + 1];
};

/* A file (b) or a picture (pic) to fetch before the batch's transaction, into its spool file
 * (made, and opened only while it is fetched: a batch may want more links than a process may
 * hold descriptors). */
struct wanted {
    struct brought *b;
    struct picture *pic;
    char *url;
    char path[MEDIA_PATH_MAX];
};

struct cli_import_files {
    struct store_files store;
    char media[1024], site_url[512];
    int fetch, allow_private;
    int64_t file_max, budget;
    struct map brought;  /* path or link → struct brought, this batch's */
    struct map pictures; /* a person's ID in the export → struct picture, this run's */
    struct wanted *wanted;
    size_t nwanted, cap;
    long files, missing;
};

struct cli_import_files *cli_import_files_new(const struct config *cfg,
                                              const struct cli_import_files_from *from)
{
    struct cli_import_files *f = calloc(1, sizeof *f);
    if (!f || store_files_configure(&f->store, cfg) || (from->fetch && cli_import_fetch_init())) {
        free(f);
        return NULL;
    }
    snprintf(f->media, sizeof f->media, "%s", from->media ? from->media : "");
    snprintf(f->site_url, sizeof f->site_url, "%s", cfg->site_url);
    f->fetch = from->fetch;
    f->allow_private = cfg->allow_private_endpoints;
    f->file_max = (int64_t)cfg->file_max_mb << 20;
    f->budget = from->budget;
    map_init(&f->brought);
    map_init(&f->pictures);
    return f;
}

void cli_import_files_media_default(struct cli_import_files *f, const char *folder)
{
    if (f && !f->media[0])
        snprintf(f->media, sizeof f->media, "%s", folder);
}

static void free_value(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    free(value);
}

/* The links a batch that stopped did not fetch. */
static void drop_wanted(struct cli_import_files *f)
{
    for (size_t i = 0; i < f->nwanted; i++) {
        unlink(f->wanted[i].path);
        free(f->wanted[i].url);
    }
    f->nwanted = 0;
}

void cli_import_files_batch_done(struct cli_import *im)
{
    if (!im->files)
        return;
    drop_wanted(im->files);
    map_each(&im->files->brought, free_value, NULL);
    map_cleanup(&im->files->brought);
    map_init(&im->files->brought);
}

void cli_import_files_free(struct cli_import_files *f)
{
    if (!f)
        return;
    drop_wanted(f);
    free(f->wanted);
    map_each(&f->brought, free_value, NULL);
    map_cleanup(&f->brought);
    map_each(&f->pictures, free_value, NULL);
    map_cleanup(&f->pictures);
    free(f);
}

void cli_import_files_counts(const struct cli_import_files *f, long *brought, long *missing)
{
    *brought = f ? f->files : 0;
    *missing = f ? f->missing : 0;
}

static const char *key_of(const struct cli_import_file *file)
{
    return file->path && *file->path ? file->path : file->url && *file->url ? file->url : NULL;
}

/* The file at path under the media folder copied to fd: 0, or -1 (absent, unsafe, too large). */
static int copy_local(const struct cli_import_files *f, const char *path, int fd)
{
    char full[2100];
    if (!f->media[0] || !rule_zip_name_safe(path, strlen(path)) ||
        snprintf(full, sizeof full, "%s/%s", f->media, path) >= (int)sizeof full)
        return -1;
    int in = open(full, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    int rc =
        in >= 0 && !fstat(in, &st) && S_ISREG(st.st_mode) && st.st_size <= f->file_max ? 0 : -1;
    char chunk[65536];
    ssize_t n = 0;
    while (!rc && (n = read(in, chunk, sizeof chunk)) > 0)
        for (ssize_t done = 0; !rc && done < n;) {
            ssize_t w = write(fd, chunk + done, (size_t)(n - done));
            rc = w > 0 ? 0 : -1;
            done += w > 0 ? w : 0;
        }
    if (in >= 0)
        close(in);
    return rc || n < 0 ? -1 : 0;
}

/* A link to fetch with the batch's others: 0, or -1 (not to be fetched, or out of memory). */
static int want(struct cli_import_files *f, struct brought *b, struct picture *pic, const char *url,
                const char *path)
{
    if (!f->fetch || !f->budget)
        return -1;
    if (VEC_RESERVE(f->wanted, f->nwanted, f->cap, 16))
        return -1;
    struct wanted *w = &f->wanted[f->nwanted];
    if (!(w->url = strdup(url)))
        return -1;
    w->b = b;
    w->pic = pic;
    snprintf(w->path, sizeof w->path, "%s", path);
    f->nwanted++;
    return 0;
}

/* The prepared file's bytes (and its thumbnail's) stored and claimed: 0, or -1. */
static int keep(struct cli_import *im, struct media_file *m, struct brought *b)
{
    struct cli_import_files *f = im->files;
    size_t size;
    int64_t now = clock_now_ms();
    if (m->thumb[0] && !store_files_put(&f->store, im->db, m->thumb, b->thumb, &size) &&
        store_files_claim_at(&f->store, im->db, b->thumb, (int64_t)size, now) == STORE_DONE)
        b->thumb_size = (int64_t)size;
    else
        b->thumb[0] = '\0';
    m->thumb[0] = '\0'; /* put took it */
    int rc = store_files_put(&f->store, im->db, m->path, b->blob, &size);
    m->path[0] = '\0';
    if (rc || store_files_claim_at(&f->store, im->db, b->blob, (int64_t)size, now) != STORE_DONE)
        return -1;
    b->size = (int64_t)size;
    snprintf(b->content_type, sizeof b->content_type, "%s", m->content_type);
    b->width = m->width;
    b->height = m->height;
    b->rewritten = m->rewritten;
    return 0;
}

/* The file at m->path made ready and kept, or counted as not brought (its files deleted). */
static void bring_ready(struct cli_import *im, struct media_file *m, struct brought *b)
{
    struct cli_import_files *f = im->files;
    if (!media_prepare(f->store.spool, THUMB_SIDE, m) && !keep(im, m, b)) {
        f->files++;
        return;
    }
    if (m->path[0])
        unlink(m->path);
    if (m->thumb[0])
        unlink(m->thumb);
    b->missing = 1;
    f->missing++;
}

int cli_import_file_bring(struct cli_import *im, const struct cli_import_file *file)
{
    struct cli_import_files *f = im->files;
    const char *key = key_of(file);
    if (!f || !key || map_get(&f->brought, key))
        return 0;
    struct brought *b = calloc(1, sizeof *b);
    if (!b || map_set(&f->brought, key, b)) {
        free(b);
        return -1;
    }
    struct media_file m = {.thumb = ""};
    int fd =
        snprintf(m.path, sizeof m.path, "%s/import-XXXXXX", f->store.spool) < (int)sizeof m.path
            ? mkstemp(m.path)
            : -1;
    int local = fd >= 0 && file->path && !copy_local(f, file->path, fd);
    if (fd >= 0)
        close(fd);
    if (local) {
        bring_ready(im, &m, b);
    } else if (fd >= 0 && file->url && !want(f, b, NULL, file->url, m.path)) {
        return 0; /* fetched with the batch's others */
    } else {
        if (fd >= 0)
            unlink(m.path);
        b->missing = 1;
        f->missing++;
    }
    return 0;
}

/* One square copy of the picture at path (header h) kept as a blob (claimed): 0, or -1. */
static int square(struct cli_import *im, const char *path, const struct media_image_header *h,
                  int side, char hash[CRYPTO_SHA256_HEX + 1])
{
    struct cli_import_files *f = im->files;
    char out[MEDIA_PATH_MAX];
    size_t size;
    int fd = snprintf(out, sizeof out, "%s/picture-XXXXXX", f->store.spool) < (int)sizeof out
                 ? mkstemp(out)
                 : -1;
    if (fd < 0)
        return -1;
    close(fd);
    if (media_square(path, h, out, side)) {
        unlink(out);
        return -1;
    }
    return store_files_put(&f->store, im->db, out, hash, &size) ||
                   store_files_claim_at(&f->store, im->db, hash, (int64_t)size, clock_now_ms()) !=
                       STORE_DONE
               ? -1
               : 0;
}

/* The picture at path (got: its bytes are there) made into its two copies, or missing; the file
 * at path is deleted. */
static void picture_ready(struct cli_import *im, const char *path, int got, struct picture *pic)
{
    char type[128] = "";
    struct media_image_header h;
    if (got)
        media_type(path, type, sizeof type);
    pic->missing = !got || !rule_file_is_image(type) || media_image_file_header(path, &h) ||
                   square(im, path, &h, PICTURE_LARGE, pic->large) ||
                   square(im, path, &h, PICTURE_SMALL, pic->small);
    unlink(path);
}

int cli_import_picture_bring(struct cli_import *im, const char *person,
                             const struct cli_import_file *picture)
{
    struct cli_import_files *f = im->files;
    if (!f || !person || !picture || !key_of(picture) || map_get(&f->pictures, person))
        return 0;
    struct picture *pic = calloc(1, sizeof *pic);
    if (!pic || map_set(&f->pictures, person, pic)) {
        free(pic);
        return -1;
    }
    pic->missing = 1;
    char path[MEDIA_PATH_MAX];
    int fd = snprintf(path, sizeof path, "%s/picture-XXXXXX", f->store.spool) < (int)sizeof path
                 ? mkstemp(path)
                 : -1;
    if (fd < 0)
        return 0;
    int local = picture->path && !copy_local(f, picture->path, fd);
    close(fd);
    if (local)
        picture_ready(im, path, 1, pic);
    else if (!picture->url || want(f, NULL, pic, picture->url, path))
        unlink(path);
    return 0;
}

int cli_import_picture_give(struct cli_import *im, const char *person, const char *user_id)
{
    struct picture *pic = im->files && person ? map_get(&im->files->pictures, person) : NULL;
    if (!pic || pic->missing || pic->given)
        return 0;
    pic->given = 1;
    return store_import_avatar_at(im->db, user_id, pic->large, pic->small) == STORE_DONE ? 0 : -1;
}

int cli_import_files_fetch(struct cli_import *im)
{
    struct cli_import_files *f = im->files;
    if (!f || !f->nwanted)
        return 0;
    struct cli_import_fetch *items = calloc(f->nwanted, sizeof *items);
    for (size_t i = 0; items && i < f->nwanted; i++)
        items[i] = (struct cli_import_fetch){.url = f->wanted[i].url, .path = f->wanted[i].path};
    int rc =
        items ? cli_import_fetch_all(items, f->nwanted, f->file_max, f->allow_private, &f->budget)
              : -1;
    for (size_t i = 0; i < f->nwanted; i++) {
        struct wanted *w = &f->wanted[i];
        struct media_file m = {.thumb = ""};
        snprintf(m.path, sizeof m.path, "%s", w->path);
        if (w->pic) {
            picture_ready(im, w->path, !rc && items[i].ok, w->pic);
        } else if (!rc && items[i].ok) {
            bring_ready(im, &m, w->b);
        } else {
            unlink(m.path);
            w->b->missing = 1;
            f->missing++;
        }
        free(w->url);
    }
    f->nwanted = 0;
    free(items);
    return 0;
}

/* A file not brought: its line after the text. */
static int line_of(const struct cli_import_file *file, struct buf *text)
{
    if (!file->line || !*file->line)
        return 0;
    return (text->len && buf_append(text, "\n", 1)) ||
                   buf_append(text, file->line, strlen(file->line))
               ? -1
               : 0;
}

static int attached(const struct cli_import_files *f, const struct cli_import_file *file,
                    const struct brought *b, struct cli_import_attached *out)
{
    struct store_attachment *a = &out->items[out->n++];
    memset(a, 0, sizeof *a);
    uuid_v7(a->id);
    memcpy(a->blob, b->blob, sizeof a->blob);
    memcpy(a->thumb, b->thumb, sizeof a->thumb);
    snprintf(a->content_type, sizeof a->content_type, "%s", b->content_type);
    rule_filename_clean(file->name ? file->name : "", a->filename);
    if (b->rewritten)
        rule_filename_set_extension(a->filename,
                                    strcmp(a->content_type, "image/png") ? "jpg" : "png");
    a->size = b->size;
    a->thumb_size = b->thumb_size;
    struct rule_attachment_shown shown = {
        a->id, a->filename, a->content_type, a->size, a->thumb[0] != 0, b->width, b->height};
    if (!out->shown && !(out->shown = json_array()))
        return -1;
    return json_array_append_new(out->shown, rule_attachment_object(f->site_url, &shown));
}

int cli_import_files_take(struct cli_import *im, const struct cli_import_file *files, size_t n,
                          struct buf *text, struct cli_import_attached *out)
{
    out->n = 0;
    out->shown = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *key = key_of(&files[i]);
        const struct brought *b = im->files && key ? map_get(&im->files->brought, key) : NULL;
        int rc = b && !b->missing && out->n < CLI_IMPORT_FILES_MAX
                     ? attached(im->files, &files[i], b, out)
                     : line_of(&files[i], text);
        if (rc)
            return -1;
    }
    return 0;
}

int cli_import_files_attach(struct cli_import *im, const struct cli_import_attached *a,
                            const char *message_id, const char *channel_id, const char *uploader_id)
{
    if (!a->n)
        return 0;
    struct store_attachment_set set = {&im->files->store, a->items, a->n, uploader_id};
    int rc = store_attachments_put_at(im->db, &set, message_id, channel_id, im->server_id,
                                      clock_now_ms());
    return rc == STORE_DONE ? 0 : -1;
}

void cli_import_attached_cleanup(struct cli_import_attached *a)
{
    json_decref(a->shown);
    a->shown = NULL;
}
