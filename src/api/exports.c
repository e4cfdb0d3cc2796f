/*
 * "Baixar meus dados": POST /api/users/@me/exports starts an archive of what the person has on
 * Praça, made off the request path on a thread of its own (one archive at a time per node, one
 * per account); GET /api/users/@me/exports follows it; GET …/exports/:id/archive downloads it for
 * a week. The archive is a tar of JSON (account.json, messages.jsonl, dms.jsonl, files.json)
 * and the person's files (files/<id>) and picture, written entry by entry and page by page, so
 * its memory stays flat however many messages it holds.
 */
#include <fcntl.h>
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/attachments.h"
#include "api/exports.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/tar.h"
#include "core/workers.h"
#include "store/apps.h"
#include "store/avatars.h"
#include "store/blocks.h"
#include "store/channels.h"
#include "store/exports.h"
#include "store/files.h"
#include "store/people.h"
#include "store/servers.h"

#define ROOT "praca/"

static const struct api_limit EXPORT_LIMIT = {"export", 3, 24 * 3600 * 1000};

struct export_job {
    struct job job; /* first: run on the export thread */
    struct api_service *svc;
    char id[UUID_LEN + 1], user_id[UUID_LEN + 1], server_id[UUID_LEN + 1];
    api_archive_write_fn write;
};

/* ---- the archive, entry by entry ---- */

struct lines {
    FILE *f;
    int failed;
};

static void write_line(void *arg, json_t *row)
{
    struct lines *l = arg;
    if (json_dumpf(row, l->f, JSON_COMPACT) || fputc('\n', l->f) == EOF)
        l->failed = 1;
}

static int entry_json(FILE *f, const char *name, json_t *doc, int64_t now_s)
{
    struct tar_entry e;
    int rc = !doc || tar_entry_begin(f, &e) || json_dumpf(doc, f, JSON_INDENT(2)) ||
             tar_entry_end(f, &e, name, now_s);
    json_decref(doc);
    return rc ? -1 : 0;
}

static json_t *account_of(struct store *db, const char *uid)
{
    int rc;
    json_t *profile = store_user_profile_json(db, uid, &rc);
    json_t *me = store_user_json(db, uid, &rc);
    if (!profile || !me) {
        json_decref(profile);
        json_decref(me);
        return NULL;
    }
    json_object_set(profile, "createdAt", json_object_get(me, "createdAt"));
    json_object_set(profile, "mfaEnabled", json_object_get(me, "mfaEnabled"));
    json_decref(me);
    char locale[LOCALE_TAG_MAX + 1] = "";
    store_user_locale(db, uid, locale);
    json_object_set_new(profile, "locale", locale[0] ? json_string(locale) : json_null());
    json_t *parts[] = {store_servers_of_user(db, uid), store_dm_list_json(db, uid),
                       store_blocks_json(db, uid), store_sessions_json(db, uid, ""),
                       store_apps_of_owner(db, uid)};
    static const char *const KEYS[] = {"servers", "dms", "blocked", "sessions", "applications"};
    json_t *doc = json_pack("{so}", "user", profile);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (!parts[i]) {
            json_decref(doc);
            doc = NULL;
        }
        if (doc)
            json_object_set_new(doc, KEYS[i], parts[i]);
        else
            json_decref(parts[i]);
    }
    return doc;
}

/* messages.jsonl: the person's own messages, anywhere, oldest first. */
static int entry_messages(FILE *f, struct store *db, const char *uid, int64_t now_s)
{
    struct tar_entry e;
    struct lines l = {f, 0};
    char after[UUID_LEN + 1] = "";
    int n = tar_entry_begin(f, &e) ? -1 : STORE_EXPORT_PAGE;
    while (n == STORE_EXPORT_PAGE && !l.failed) {
        n = store_export_messages(db, uid, after, write_line, &l);
        store_read_release(db); /* a page per snapshot: writers are never held back */
    }
    return n < 0 || l.failed || tar_entry_end(f, &e, ROOT "messages.jsonl", now_s) ? -1 : 0;
}

/* dms.jsonl: every message of the person's conversations, the other person's too. */
static int entry_dms(FILE *f, struct store *db, const char *uid, int64_t now_s)
{
    json_t *dms = store_dm_list_json(db, uid);
    struct tar_entry e;
    struct lines l = {f, 0};
    int rc = !dms || tar_entry_begin(f, &e) ? -1 : 0;
    for (size_t i = 0; !rc && i < json_array_size(dms); i++) {
        const char *cid = json_string_value(json_object_get(json_array_get(dms, i), "id"));
        char after[UUID_LEN + 1] = "";
        int n = STORE_EXPORT_PAGE;
        while (n == STORE_EXPORT_PAGE && !l.failed) {
            n = store_export_dm_messages(db, cid, after, write_line, &l);
            store_read_release(db);
        }
        rc = n < 0 || l.failed ? -1 : 0;
    }
    json_decref(dms);
    return rc || tar_entry_end(f, &e, ROOT "dms.jsonl", now_s) ? -1 : 0;
}

/* The bytes of a blob as the entry name. */
static int entry_blob(FILE *f, struct api_service *svc, struct store *db, const char *hash,
                      const char *name, int64_t now_s)
{
    size_t size;
    int fd = store_files_open(&svc->files, db, hash, &size);
    if (fd < 0)
        return 0; /* swept meanwhile: the index still names it */
    struct tar_entry e;
    char buf[65536];
    ssize_t got = 0;
    int rc = tar_entry_begin(f, &e);
    while (!rc && (got = read(fd, buf, sizeof buf)) > 0)
        rc = fwrite(buf, 1, (size_t)got, f) == (size_t)got ? 0 : -1;
    close(fd);
    return rc || got < 0 || tar_entry_end(f, &e, name, now_s) ? -1 : 0;
}

/* files.json and files/<id>: what the person uploaded; picture.webp. */
static int entry_files(FILE *f, struct api_service *svc, struct store *db, const char *uid,
                       int64_t now_s)
{
    json_t *uploads = store_export_uploads(db, uid);
    int rc = uploads ? 0 : -1;
    for (size_t i = 0; !rc && i < json_array_size(uploads); i++) {
        json_t *u = json_array_get(uploads, i);
        char name[TAR_NAME_MAX + 1];
        snprintf(name, sizeof name, ROOT "files/%s", json_string_value(json_object_get(u, "id")));
        rc = entry_blob(f, svc, db, json_string_value(json_object_get(u, "blob")), name, now_s);
        json_object_del(u, "blob");
        json_object_set_new(u, "path", json_string(name + strlen(ROOT)));
    }
    struct store_avatar a;
    if (!rc && store_avatar_get(db, uid, &a) == 1 && a.large[0])
        rc = entry_blob(f, svc, db, a.large, ROOT "picture.webp", now_s);
    store_read_release(db);
    if (rc) {
        json_decref(uploads);
        return -1;
    }
    return entry_json(f, ROOT "files.json", uploads, now_s);
}

static int write_archive(FILE *f, struct api_service *svc, struct store *db, const char *uid,
                         const char *server_id)
{
    (void)server_id;
    int64_t now_s = clock_now_ms() / 1000;
    int rc = entry_json(f, ROOT "account.json", account_of(db, uid), now_s);
    store_read_release(db);
    return rc || entry_messages(f, db, uid, now_s) || entry_dms(f, db, uid, now_s) ||
                   entry_files(f, svc, db, uid, now_s) || tar_finish(f)
               ? -1
               : 0;
}

static void export_run(struct job *job, void *thread_ctx)
{
    struct export_job *x = (struct export_job *)job;
    struct api_call c = api__thread_call(x->svc, thread_ctx);
    char path[HTTP_UPLOAD_PATH], hash[CRYPTO_SHA256_HEX + 1];
    size_t size = 0;
    int64_t started = clock_mono_ms();
    int fd = api__spool_file(x->svc, "export", path, sizeof path);
    FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
    int rc = f ? x->write(f, x->svc, c.db, x->user_id, x->server_id) : -1;
    if (f && fclose(f))
        rc = -1;
    else if (!f && fd >= 0)
        close(fd);
    if (!rc)
        rc = api__file_keep(&c, path, hash, &size); /* path is gone either way */
    else if (fd >= 0)
        unlink(path);
    store_read_release(c.db);
    struct store_export_finish fin = {x->id, rc ? NULL : hash, (int64_t)size, clock_now_ms()};
    if (store_export_finish(x->svc->writer, &fin) < 0 || rc)
        log_error("exports: the archive %s could not be made", x->id);
    else
        log_info("exports: archive %s%s%s ready, %zu bytes in %lld ms", x->id,
                 x->server_id[0] ? " of server " : "", x->server_id, size,
                 (long long)(clock_mono_ms() - started));
    free(x);
}

/* ---- the routes ---- */

void api__archive_start(struct api_call *c, const char *server_id, const char *key,
                        api_archive_write_fn write)
{
    struct export_job *x = calloc(1, sizeof *x);
    if (!x) {
        api__internal(c);
        return;
    }
    uuid_v7(x->id);
    snprintf(x->user_id, sizeof x->user_id, "%s", c->me.user_id);
    snprintf(x->server_id, sizeof x->server_id, "%s", server_id ? server_id : "");
    x->svc = c->svc;
    x->job.run = export_run;
    x->write = write;
    struct store_export_start s = {x->id, x->user_id, clock_now_ms(), server_id};
    int rc = store_export_start(c->svc->writer, &s);
    json_t *list =
        rc == STORE_DONE ? store_exports_json(c->db, c->me.user_id, server_id, s.now) : NULL;
    if (rc == STORE_REFUSED)
        api__error(c, 409, "Um arquivo seu já está sendo preparado");
    else if (!list)
        api__internal(c);
    if (rc != STORE_DONE || !list) {
        json_decref(list);
        free(x);
        return;
    }
    workers_submit(c->svc->exports, &x->job);
    api__reply(c, 202, json_pack("{sO}", key, json_array_get(list, 0)));
    json_decref(list);
}

void api__archive_list(struct api_call *c, const char *server_id, const char *key)
{
    json_t *list = store_exports_json(c->db, c->me.user_id, server_id, clock_now_ms());
    if (!list)
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", key, list));
}

void api__archive_send(struct api_call *c, const char *server_id, const char *type,
                       const char *name_format)
{
    static const char *NONE = "Arquivo não encontrado";
    const char *id = api__param_id(c, "id", NONE);
    char blob[CRYPTO_SHA256_HEX + 1], name[96];
    int64_t size;
    int found = id ? store_export_blob(c->db, c->me.user_id, server_id, id, blob, &size) : 0;
    if (!id)
        return;
    if (found < 0) {
        api__internal(c);
        return;
    }
    if (!found) {
        api__error(c, 404, NONE);
        return;
    }
    snprintf(name, sizeof name, name_format, id + 24);
    api__blob_send(c, blob, type, name);
}

static void export_start(struct api_call *c)
{
    if (!api__limit_hit(c, &EXPORT_LIMIT))
        api__archive_start(c, NULL, "export", write_archive);
}

static void exports_list(struct api_call *c)
{
    api__archive_list(c, NULL, "exports");
}

static void export_archive(struct api_call *c)
{
    api__archive_send(c, NULL, "application/x-tar", "praca-%.8s.tar");
}

const struct api_route api_export_routes[] = {
    API_ROUTE(POST, "/api/users/@me/exports", export_start, API_PERSON),
    API_ROUTE(GET, "/api/users/@me/exports", exports_list, API_PERSON),
    API_ROUTE(GET, "/api/users/@me/exports/:id/archive", export_archive, API_PERSON),
    {0},
};
