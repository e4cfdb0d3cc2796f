/*
 * Attachments: taking an upload's files for a message (see attachments.h), and serving them
 * (GET /api/attachments/:aid/:name) to whoever can see the message's channel.
 */
#include "api/attachments.h"

#include <fcntl.h>
#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/input.h"
#include "api/limits.h"
#include "api/place.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/log.h"
#include "domain/files.h"
#include "http/upload.h"
#include "media/prepare.h"
#include "store/channels.h"

#define THUMB_SIDE 400
/* The bytes behind a URL never change (a new file is a new attachment): kept by the browser,
 * for this person only. */
#define CACHE     "private, max-age=31536000, immutable"
#define MINUTE_MS (60 * 1000)

int api__files_sent(const struct api_call *c)
{
    return c->req && c->req->upload != NULL;
}

/* ---- one file ---- */

int api__spool_file(const struct api_service *a, const char *kind, char *out, size_t cap)
{
    if (snprintf(out, cap, "%s/%s-XXXXXX", a->files.spool, kind) >= (int)cap)
        return -1;
    return mkstemp(out);
}

static json_t *file_object(const struct api_call *c, const struct store_attachment *a, int width,
                           int height)
{
    struct rule_attachment_shown shown = {
        a->id, a->filename, a->content_type, a->size, a->thumb[0] != 0, width, height};
    return rule_attachment_object(c->svc->site_url, &shown);
}

/* A stored blob is recorded at once, so the sweep finds it even if no message ever claims it
 * (the message refused after the upload). */
struct claim {
    const struct store_files *files;
    const char *hash;
    int64_t size;
};

static int claim_job(struct store *db, void *arg)
{
    const struct claim *cl = arg;
    return store_files_claim_at(cl->files, db, cl->hash, cl->size, clock_now_ms());
}

int api__file_keep(struct api_call *c, const char *path, char hash[CRYPTO_SHA256_HEX + 1],
                   size_t *size)
{
    if (store_files_put(&c->svc->files, c->db, path, hash, size))
        return -1;
    struct claim cl = {&c->svc->files, hash, (int64_t)*size};
    return store_write(c->svc->writer, claim_job, &cl) == STORE_DONE ? 0 : -1;
}

/* Checks and stores one uploaded file: 0, or -1 when it has answered. */
static int take_one(struct api_call *c, size_t index, struct http_upload_file *up,
                    struct store_attachment *a, struct api_files *f)
{
    struct media_file m;
    snprintf(m.path, sizeof m.path, "%s", up->path);
    up->path[0] = '\0'; /* this function's now: deleted or stored below */
    char where[32];
    snprintf(where, sizeof where, "files[%zu]", index);
    rule_filename_clean(up->filename, a->filename);
    enum media_prepare_result prepared = media_prepare(c->svc->files.spool, THUMB_SIDE, &m);
    size_t size;
    int rc = -1;
    if (prepared == MEDIA_NO_SPOOL) {
        api__internal(c);
        goto out;
    }
    if (prepared) {
        api__bad(c, where,
                 prepared == MEDIA_TOO_LARGE
                     ? "imagem grande demais para tirar os metadados (máximo 32 megapixels)"
                     : "imagem malformada");
        goto out;
    }
    snprintf(a->content_type, sizeof a->content_type, "%s", m.content_type);
    if (m.rewritten)
        rule_filename_set_extension(a->filename,
                                    strcmp(a->content_type, "image/png") ? "jpg" : "png");
    if (m.thumb[0] && !api__file_keep(c, m.thumb, a->thumb, &size))
        a->thumb_size = (int64_t)size;
    else
        a->thumb[0] = '\0'; /* shown without one */
    m.thumb[0] = '\0';      /* put deletes it */
    if (api__file_keep(c, m.path, a->blob, &size)) {
        m.path[0] = '\0';
        api__internal(c);
        goto out;
    }
    m.path[0] = '\0';
    a->size = (int64_t)size;
    uuid_v7(a->id);
    json_t *o = file_object(c, a, m.width, m.height);
    if (!o) {
        api__internal(c);
        goto out;
    }
    json_object_set(f->names, up->filename, json_object_get(o, "url"));
    json_object_set(f->names, a->filename, json_object_get(o, "url"));
    json_array_append_new(f->objects, o);
    rc = 0;
out:
    if (m.path[0])
        unlink(m.path);
    if (m.thumb[0])
        unlink(m.thumb);
    return rc;
}

/* ---- a message's files ---- */

/* On an edit: the attachments the body keeps (all when it does not say). */
static int keep_old(struct api_call *c, const char *mid, json_t *old, json_t *body,
                    struct api_files *f)
{
    json_t *keep = body ? json_object_get(body, "attachments") : NULL;
    json_t *wanted = keep && !json_is_null(keep) ? keep : NULL;
    if (wanted && !json_is_array(wanted)) {
        api__bad(c, "attachments", "deve ser uma lista de {id}");
        return -1;
    }
    size_t n = wanted ? json_array_size(wanted) : json_array_size(old);
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_array_get(wanted ? wanted : old, i);
        const char *id = json_string_value(json_object_get(o, "id"));
        char where[40];
        snprintf(where, sizeof where, "attachments[%zu].id", i);
        struct store_attachment *a = &f->items[f->n];
        int found =
            id && uuid_valid(id, strlen(id)) ? store_attachment_of_message(c->db, mid, id, a) : 0;
        if (found < 0) {
            api__internal(c);
            return -1;
        }
        json_t *object = NULL;
        for (size_t k = 0; found && k < json_array_size(old); k++)
            if (json_equal(json_object_get(json_array_get(old, k), "id"), json_object_get(o, "id")))
                object = json_array_get(old, k);
        if (!found || !object) {
            api__bad(c, where, "não é um anexo desta mensagem");
            return -1;
        }
        json_array_append(f->objects, object);
        f->n++;
    }
    f->changed = wanted != NULL;
    return 0;
}

/* 0 when the upload fits what is left of a quota of quota_mb over `used` bytes; else answers
 * 413 with what (a format naming the MB) and -1. */
static int over(struct api_call *c, const struct http_upload *up, int64_t used, int quota_mb,
                const char *what)
{
    int64_t sent = 0;
    for (size_t i = 0; i < up->nfiles; i++)
        sent += (int64_t)up->files[i].size;
    if (used < 0) {
        api__internal(c);
        return -1;
    }
    if (used + sent <= (int64_t)quota_mb * 1000 * 1000)
        return 0;
    char msg[160];
    snprintf(msg, sizeof msg, what, quota_mb);
    api__error_flag(c, 413, msg, "quotaExceeded");
    return -1;
}

/* The server's quota (its messages' files), then the caller's own (every file it attached, DMs
 * included). */
static int over_quota(struct api_call *c, const char *sid, const struct http_upload *up)
{
    const struct config *cfg = c->svc->cfg;
    return (sid && over(c, up, store_attachments_server_bytes(c->db, sid), cfg->server_quota_mb,
                        "A cota de arquivos deste servidor acabou (%d MB)")) ||
           over(c, up, store_attachments_uploader_bytes(c->db, c->me.user_id),
                cfg->account_quota_mb, "A sua cota de arquivos acabou (%d MB)");
}

/* Room for `room` files in f, held by the request: 0, or -1 answered (500). */
static int files_hold(struct api_call *c, struct api_files *f, size_t room)
{
    f->objects = json_array();
    f->names = json_object();
    f->items = calloc(room ? room : 1, sizeof *f->items);
    int held = api__at_end_json(c, f->objects) | api__at_end_json(c, f->names) |
               api__at_end_free(c, f->items);
    if (held || !f->objects || !f->names || !f->items) {
        memset(f, 0, sizeof *f);
        if (!c->answered)
            api__internal(c);
        return -1;
    }
    f->set = (struct store_attachment_set){&c->svc->files, f->items, 0, c->me.user_id};
    return 0;
}

int api__files_take(struct api_call *c, const char *sid, const char *mid, json_t *old, json_t *body,
                    struct api_files *f)
{
    memset(f, 0, sizeof *f);
    struct http_upload *up = c->req->upload;
    if (!up && !mid)
        return 0; /* a plain send: nothing to allocate on the hot path */
    size_t sent = up ? up->nfiles : 0, max = (size_t)c->svc->cfg->files_per_message;
    size_t room = sent + (mid ? json_array_size(old) : 0);
    if (files_hold(c, f, room))
        return -1;
    if (mid && keep_old(c, mid, old, body, f))
        return -1;
    if (f->n + sent > max) {
        char msg[80];
        snprintf(msg, sizeof msg, "no máximo %zu arquivos por mensagem", max);
        api__bad(c, "files", msg);
        return -1;
    }
    if (!sent) {
        f->set.n = f->n;
        return 0;
    }
    struct api_limit limit = {"upload", (uint32_t)c->svc->cfg->uploads_per_minute, MINUTE_MS};
    if (api__limit_hit(c, &limit) || over_quota(c, sid, up))
        return -1;
    for (size_t i = 0; i < sent; i++) {
        if (take_one(c, i, &up->files[i], &f->items[f->n], f))
            return -1;
        f->n++;
    }
    f->set.n = f->n;
    f->changed = 1;
    return 0;
}

int api__files_copy(struct api_call *c, const char *mid, json_t *objects, struct api_files *f)
{
    memset(f, 0, sizeof *f);
    size_t n = json_array_size(objects);
    if (!n)
        return 0;
    if (files_hold(c, f, n))
        return -1;
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_array_get(objects, i);
        const char *id = json_string_value(json_object_get(o, "id"));
        struct store_attachment *a = &f->items[f->n];
        int found = id ? store_attachment_of_message(c->db, mid, id, a) : 0;
        if (found < 0) {
            api__internal(c);
            return -1;
        }
        if (!found) /* gone meanwhile: the copy goes without it */
            continue;
        uuid_v7(a->id); /* the copy's own row, naming the same blob */
        json_array_append_new(
            f->objects, file_object(c, a, (int)json_integer_value(json_object_get(o, "width")),
                                    (int)json_integer_value(json_object_get(o, "height"))));
        f->n++;
    }
    f->set.n = f->n;
    f->changed = 1;
    return 0;
}

/* ---- attachment://name ---- */

static int resolve_tree(struct api_call *c, const struct api_files *f, json_t *node,
                        const char *path)
{
    if (json_is_array(node)) {
        for (size_t i = 0; i < json_array_size(node); i++) {
            char sub[200];
            snprintf(sub, sizeof sub, "%s.%zu", path, i);
            if (resolve_tree(c, f, json_array_get(node, i), sub))
                return -1;
        }
        return 0;
    }
    if (!json_is_object(node))
        return 0;
    const char *key;
    json_t *v;
    json_object_foreach(node, key, v)
    {
        char sub[200];
        snprintf(sub, sizeof sub, "%s.%s", path, key);
        const char *s = json_string_value(v);
        if (s && !strcmp(key, "url") && !strncmp(s, "attachment://", 13)) {
            json_t *url = json_object_get(f->names, s + 13);
            if (!url) {
                api__bad(c, sub, "attachment:// não corresponde a nenhum arquivo enviado");
                return -1;
            }
            json_object_set(node, key, url);
        } else if (resolve_tree(c, f, v, sub)) {
            return -1;
        }
    }
    return 0;
}

int api__files_resolve(struct api_call *c, const struct api_files *f, json_t *embeds,
                       json_t *components)
{
    return resolve_tree(c, f, embeds, "embeds") || resolve_tree(c, f, components, "components") ? -1
                                                                                                : 0;
}

char *api__files_json(const struct api_files *f)
{
    return json_array_size(f->objects) ? json_dumps(f->objects, JSON_COMPACT) : NULL;
}

/* ---- serving ---- */

/* Whether the caller sees the attachment's channel: 0, or -1 when it has answered 404 (a file
 * in a server or channel one cannot see is not there for them: never a 403 that says it is). */
static int may_read(struct api_call *c, const struct store_attachment_row *row)
{
    if (row->server_id[0]) {
        struct place p;
        if (api__place_at(c, row->server_id, row->channel_id, &p)) {
            if (c->res->status == 403 || c->res->status == 404) {
                api__unanswer(c);
                api__error(c, 404, "Arquivo não encontrado");
            }
            return -1;
        }
        return 0;
    }
    int in = store_dm_member(c->db, row->channel_id, c->me.user_id);
    if (in == 1)
        return 0;
    if (in < 0)
        api__internal(c);
    else
        api__error(c, 404, "Arquivo não encontrado");
    return -1;
}

static void disposition(struct api_call *c, const char *type, const char *name)
{
    char ascii[RULE_FILENAME_MAX + 1], encoded[RULE_FILENAME_MAX * 3 + 1], value[600];
    size_t i = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && i < RULE_FILENAME_MAX; p++)
        if ((*p & 0xC0) != 0x80) /* one '_' per character beyond ASCII */
            ascii[i++] = *p >= 0x20 && *p < 0x7F && *p != '"' && *p != '\\' ? (char)*p : '_';
    ascii[i] = '\0';
    rule_filename_url(name, encoded, sizeof encoded);
    snprintf(value, sizeof value, "%s; filename=\"%s\"; filename*=UTF-8''%s",
             rule_file_inline(type) ? "inline" : "attachment", ascii, encoded);
    http_response_add_header(c->res, "Content-Disposition", value);
}

void api__blob_send(struct api_call *c, const char *hash, const char *type, const char *name)
{
    char etag[CRYPTO_SHA256_HEX + 3];
    snprintf(etag, sizeof etag, "\"%s\"", hash);
    http_response_add_header(c->res, "ETag", etag);
    struct slice match = http_request_header(c->req, "if-none-match");
    if (match.ptr && slice_eq(match, etag)) {
        c->answered = 1;
        c->res->cache_control = CACHE;
        http_response_set(c->res, 304, NULL, NULL, 0);
        return;
    }
    size_t size;
    int fd = store_files_open(&c->svc->files, c->db, hash, &size);
    if (fd < 0) {
        log_error("files: the bytes of %s are missing", hash);
        api__error(c, 404, "Arquivo não encontrado");
        return;
    }
    size_t start = 0, len = size;
    int range = http_range_parse(http_request_header(c->req, "range"), size, &start, &len);
    char value[100];
    if (range < 0) {
        close(fd);
        snprintf(value, sizeof value, "bytes */%zu", size);
        http_response_add_header(c->res, "Content-Range", value);
        api__error(c, 416, "Intervalo fora do arquivo");
        return;
    }
    if (range > 0) {
        snprintf(value, sizeof value, "bytes %zu-%zu/%zu", start, start + len - 1, size);
        http_response_add_header(c->res, "Content-Range", value);
    }
    /* The type is not a static string: it goes as a header of its own. */
    http_response_add_header(c->res, "Content-Type", type);
    http_response_add_header(c->res, "X-Content-Type-Options", "nosniff");
    http_response_add_header(c->res, "Content-Security-Policy", "default-src 'none'; sandbox");
    http_response_add_header(c->res, "Cross-Origin-Resource-Policy", "same-origin");
    http_response_add_header(c->res, "Accept-Ranges", "bytes");
    if (name)
        disposition(c, type, name);
    c->res->cache_control = CACHE;
    c->answered = 1;
    http_response_set_file(c->res, range > 0 ? 206 : 200, NULL, fd, start, len);
}

static void attachment_get(struct api_call *c)
{
    const char *aid = api__param_id(c, "aid", "Arquivo não encontrado");
    const char *name = api__param(c, "name");
    struct store_attachment_row row;
    int found = aid ? store_attachment_get(c->db, aid, &row) : 0;
    if (!aid)
        return;
    if (found < 0) {
        api__internal(c);
        return;
    }
    if (!found || strcmp(row.a.filename, name)) {
        api__error(c, 404, "Arquivo não encontrado");
        return;
    }
    if (may_read(c, &row))
        return;
    struct slice q;
    int thumb = http_query_param(c->req->query, "thumbnail", &q) != 0;
    const char *hash = thumb ? row.a.thumb : row.a.blob;
    if (!hash[0]) {
        api__error(c, 404, "Este arquivo não tem miniatura");
        return;
    }
    api__blob_send(c, hash, thumb ? "image/webp" : row.a.content_type, row.a.filename);
}

const struct api_route api_attachment_routes[] = {
    API_ROUTE(GET, "/api/attachments/:aid/:name", attachment_get, API_ANY),
    {0},
};
