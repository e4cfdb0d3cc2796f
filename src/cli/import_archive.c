/*
 * praca import praca-archive: a server praca export wrote (store/archive.h) made again here, its
 * IDs kept, so the same archive imported twice (after a crash) writes nothing twice. The
 * archive's owner becomes the importing owner; a person whose ID is someone else's here gets an
 * ID of its own (domain/import_ids.h). Rows are written im->batch at a time, a transaction each;
 * a row naming what is not the server's, or someone the archive does not bring, is left out.
 * Files arrive in pieces, each file stored once whole, and claimed; bots are listed to install
 * again (an install is a consent, not data).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/import_formats.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/crypto.h"
#include "domain/import_ids.h"
#include "store/archive.h"
#include "store/files.h"
#include "store/imports.h"

#define LINE_MAX_BYTES ((size_t)2 << 20) /* a message, or a MiB of a file's base64 */
#define BLOB_MAX_BYTES ((int64_t)1 << 32)
#define PROGRESS_EVERY 1000

struct arc {
    struct cli_import *im;
    struct store_files files;
    char owner[UUID_LEN + 1]; /* the archive's owner */
    struct map people;        /* an archive person's ID → the ID written (malloc'd) */
    struct map blobs;         /* the files stored whole (a set) */
    json_t **rows;
    enum store_archive_kind *kinds;
    size_t n;
    /* the file arriving */
    char blob[CRYPTO_SHA256_HEX + 1], spool[1024];
    FILE *part;
    int64_t blob_size, blob_at;
    char *name;         /* the server's, when --server gave none */
    const char *origin; /* --site-url: put before the files' paths ("": left as paths) */
    int headed;
};

static const char *text_or(const json_t *o, const char *key, const char *otherwise)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : otherwise;
}

static char KNOWN; /* a value of blobs */

static const char *person_of(const char *id, int required, void *arg)
{
    (void)required;
    struct arc *a = arg;
    return map_get(&a->people, id);
}

static int write_rows(struct cli_import *im, void *arg)
{
    struct arc *a = arg;
    long before = im->written;
    for (size_t i = 0; i < a->n; i++) {
        int rc = store_archive_write_at(im->db, a->kinds[i], a->rows[i], person_of, a);
        if (rc != STORE_DONE && rc != STORE_TAKEN && rc != STORE_MISSING)
            return -1;
        int message = a->kinds[i] == ARCHIVE_MESSAGE;
        im->written += message && rc == STORE_DONE;
        im->known += message && rc == STORE_TAKEN;
        im->left_out += rc == STORE_MISSING;
        im->channels_written += a->kinds[i] == ARCHIVE_CHANNEL && rc == STORE_DONE;
    }
    return store_import_progress_at(im->db, im->import_id, im->written - before, 0, im->now) ==
                   STORE_DONE
               ? 0
               : -1;
}

/* Writes the rows queued, a transaction, and says how far the messages are every
 * PROGRESS_EVERY of them. */
static int flush(struct arc *a)
{
    long before = a->im->written + a->im->known;
    int rc = a->n ? cli_import_transaction(a->im, write_rows, a, 1) : 0;
    long now = a->im->written + a->im->known;
    if (!rc && now / PROGRESS_EVERY != before / PROGRESS_EVERY) {
        printf("%ld messages\n", now);
        fflush(stdout);
    }
    for (size_t i = 0; i < a->n; i++)
        json_decref(a->rows[i]);
    a->n = 0;
    return rc;
}

/* ---- people ---- */

static int note_person(struct arc *a, const char *id, const char *as)
{
    char *copy = strdup(as);
    if (!copy || map_set(&a->people, id, copy)) {
        free(copy);
        return -1;
    }
    return 0;
}

static int person_at(struct cli_import *im, void *arg)
{
    json_t *row = arg;
    const char *name = json_string_value(json_object_get(row, "displayName"));
    char username[32];
    rule_import_username(name ? name : "", json_string_value(json_object_get(row, "id")), username);
    int rc = store_archive_person_at(im->db, row, username);
    im->people += rc == STORE_DONE;
    return rc == STORE_DONE || rc == STORE_TAKEN ? 0 : -1;
}

/* A person: the importing owner when the archive's owner, else a placeholder under the
 * archive's ID, or under one of its own when that ID is someone else's here. */
static int person(struct arc *a, json_t *row)
{
    const char *id = json_string_value(json_object_get(row, "id"));
    if (!id || strlen(id) > UUID_LEN || map_get(&a->people, id))
        return 0;
    if (!strcmp(id, a->owner))
        return note_person(a, id, a->im->owner_id);
    char as[UUID_LEN + 1];
    snprintf(as, sizeof as, "%s", id);
    int state = store_archive_person_state(a->im->db, as, a->im->server_id);
    if (state == 2) {
        rule_import_id(a->im->key, "person", id, as);
        state = store_archive_person_state(a->im->db, as, a->im->server_id);
    }
    if (state < 0 || state == 2)
        return state < 0 ? -1 : 0;
    json_t *copy = json_copy(row);
    int rc = !copy || json_object_set_new(copy, "id", json_string(as)) ||
             cli_import_transaction(a->im, person_at, copy, 0) || note_person(a, id, as);
    json_decref(copy);
    return rc ? -1 : 0;
}

/* ---- files ---- */

static int claim_at(struct cli_import *im, void *arg)
{
    struct arc *a = arg;
    return store_files_claim_at(&a->files, im->db, a->blob, a->blob_size, clock_now_ms()) ==
                   STORE_DONE
               ? 0
               : -1;
}

/* The file whole: stored under its hash (which must be the one it came under), claimed. */
static int blob_whole(struct arc *a)
{
    char hash[CRYPTO_SHA256_HEX + 1];
    size_t size;
    int rc = fclose(a->part) ? -1 : 0;
    a->part = NULL;
    if (!rc && store_files_put(&a->files, a->im->db, a->spool, hash, &size))
        rc = -1;
    if (!rc && strcmp(hash, a->blob)) {
        fprintf(stderr, "praca import: a file's bytes do not match its hash %s; left out\n",
                a->blob);
        return 0;
    }
    if (!rc && !cli_import_transaction(a->im, claim_at, a, 0))
        rc = map_set(&a->blobs, a->blob, &KNOWN);
    return rc;
}

/* A piece of a file, in order: {hash, size, offset, data}. */
static int blob_piece(struct arc *a, json_t *row)
{
    const char *hash = json_string_value(json_object_get(row, "hash"));
    const char *data = json_string_value(json_object_get(row, "data"));
    json_int_t size = json_integer_value(json_object_get(row, "size"));
    json_int_t at = json_integer_value(json_object_get(row, "offset"));
    if (!hash || strlen(hash) != CRYPTO_SHA256_HEX || !data || size < 0 || size > BLOB_MAX_BYTES)
        return -1;
    if (at == 0) {
        if (a->part)
            fclose(a->part);
        snprintf(a->blob, sizeof a->blob, "%s", hash);
        snprintf(a->spool, sizeof a->spool, "%s/archive-%d-%s", a->files.spool, (int)getpid(),
                 hash);
        a->blob_size = size;
        a->blob_at = 0;
        if (!(a->part = fopen(a->spool, "wb")))
            return -1;
    }
    if (!a->part || strcmp(hash, a->blob) || at != a->blob_at || size != a->blob_size)
        return -1;
    size_t len = strlen(data);
    unsigned char *raw = malloc(len / 4 * 3 + 3);
    int n = raw ? crypto_base64_decode(data, len, raw, len / 4 * 3 + 3) : -1;
    int rc =
        n < 0 || a->blob_at + n > a->blob_size || fwrite(raw, 1, (size_t)n, a->part) != (size_t)n
            ? -1
            : 0;
    free(raw);
    a->blob_at += n < 0 ? 0 : n;
    if (!rc && a->blob_at == a->blob_size)
        rc = blob_whole(a);
    return rc;
}

/* ---- lines ---- */

static int begin(struct arc *a, json_t *server)
{
    struct cli_import *im = a->im;
    const char *id = json_string_value(json_object_get(server, "id"));
    const char *owner = json_string_value(json_object_get(server, "ownerId"));
    const char *name = json_string_value(json_object_get(server, "name"));
    if (!id || strlen(id) != UUID_LEN || !uuid_valid(id, UUID_LEN) || !owner || !name ||
        strlen(owner) > UUID_LEN)
        return -1;
    snprintf(im->source, sizeof im->source, "%s", id);
    snprintf(im->server_id, sizeof im->server_id, "%s", id);
    snprintf(a->owner, sizeof a->owner, "%s", owner);
    if (!im->server_name)
        im->server_name = a->name = strdup(name);
    if (!im->server_name || cli_import_begin(im))
        return -1;
    json_object_set_new(server, "ownerId", json_string(im->owner_id));
    json_object_set_new(server, "name", json_string(im->server_name));
    return 0;
}

/* Whether a row is of the server being imported. */
static int the_servers(const struct arc *a, enum store_archive_kind kind, const json_t *row)
{
    const char *sid =
        json_string_value(json_object_get(row, kind == ARCHIVE_SERVER ? "id" : "serverId"));
    return sid && !strcmp(sid, a->im->server_id);
}

/* Whether a message is by someone the archive brings, or by its own webhook (whose name it
 * shows): nobody here is made its author. */
static int author_known(const struct arc *a, const json_t *row)
{
    const char *author = text_or(row, "authorId", ""), *hook = text_or(row, "webhookId", NULL);
    return hook ? !strcmp(author, hook) : map_get(&a->people, author) != NULL;
}

static int queue(struct arc *a, enum store_archive_kind kind, json_t *row)
{
    if (kind == ARCHIVE_MESSAGE && !author_known(a, row)) {
        a->im->left_out++;
        json_decref(row);
        return 0;
    }
    if (kind == ARCHIVE_MESSAGE && a->origin[0])
        store_archive_relink(row, a->origin);
    if (kind == ARCHIVE_ATTACHMENT) {
        const json_t *thumb = json_object_get(row, "thumbBlob");
        if (!map_get(&a->blobs, text_or(row, "blob", ""))) {
            a->im->left_out++;
            json_decref(row);
            return 0;
        }
        if (json_is_string(thumb) && !map_get(&a->blobs, json_string_value(thumb)))
            json_object_set_new(row, "thumbBlob", json_null());
    }
    a->kinds[a->n] = kind;
    a->rows[a->n++] = row;
    return a->n == (size_t)a->im->batch ? flush(a) : 0;
}

static int line(json_t *v, long number, void *arg)
{
    struct arc *a = arg;
    const char *type = json_string_value(json_object_get(v, "record"));
    int kind = type ? store_archive_kind_of(type) : -1, rc = 0;
    if (!a->headed) {
        json_int_t version = json_integer_value(json_object_get(v, "version"));
        const char *format = json_string_value(json_object_get(v, "format"));
        rc = type && !strcmp(type, "archive") && format && !strcmp(format, "praca-archive") &&
                     version >= 1 && version <= STORE_ARCHIVE_VERSION
                 ? 0
                 : -1;
        a->headed = 1;
        if (rc)
            fprintf(stderr, "praca import: not a Praça archive of version %d or before\n",
                    STORE_ARCHIVE_VERSION);
        json_decref(v);
        return rc;
    }
    if (kind == ARCHIVE_SERVER && !a->im->server_id[0] && begin(a, v)) {
        rc = -1;
    } else if (!a->im->server_id[0]) {
        fprintf(stderr, "praca import: line %ld: the server's line comes first\n", number);
        rc = -1;
    } else if (type && !strcmp(type, "blob")) {
        rc = flush(a) || blob_piece(a, v);
        if (rc)
            fprintf(stderr, "praca import: line %ld: a file's piece out of order or unreadable\n",
                    number);
    } else if (kind == ARCHIVE_PERSON) {
        rc = flush(a) || person(a, v);
    } else if (kind == ARCHIVE_INSTALL) {
        printf("to install again: %s (application %s)\n", text_or(v, "name", "?"),
               text_or(v, "applicationId", "?"));
    } else if (kind >= 0 && the_servers(a, (enum store_archive_kind)kind, v)) {
        return queue(a, (enum store_archive_kind)kind, v); /* the row is the queue's */
    } else {
        a->im->left_out++; /* another server's, or a kind this version does not know */
    }
    json_decref(v);
    return rc ? -1 : 0;
}

static void free_person(const char *key, void *value, void *arg)
{
    (void)key;
    (void)arg;
    free(value);
}

int cli_import_archive(struct cli_import *im, const char *path, const struct config *cfg)
{
    struct arc a = {.im = im, .origin = cfg->site_url};
    im->source_size = cli_import_file_size(path);
    map_init(&a.people);
    map_init(&a.blobs);
    a.rows = malloc((size_t)im->batch * sizeof *a.rows);
    a.kinds = malloc((size_t)im->batch * sizeof *a.kinds);
    int rc = a.rows && a.kinds && !store_files_configure(&a.files, cfg) ? 0 : -1;
    if (!rc)
        rc = cli_import_lines(path, LINE_MAX_BYTES, line, &a, &im->source_read) || flush(&a);
    if (!rc && !im->server_id[0]) {
        fprintf(stderr, "praca import: %s: no server in the archive\n", path);
        rc = -1;
    }
    if (!rc && a.part) {
        fprintf(stderr, "praca import: %s: the archive ends inside a file\n", path);
        rc = -1;
    }
    if (!rc)
        rc = cli_import_finish(im);
    if (a.part) {
        fclose(a.part);
        unlink(a.spool);
    }
    for (size_t i = 0; i < a.n; i++)
        json_decref(a.rows[i]);
    map_each(&a.people, free_person, NULL);
    map_cleanup(&a.people);
    map_cleanup(&a.blobs);
    free(a.rows);
    free(a.kinds);
    free(a.name);
    return rc ? -1 : 0;
}
