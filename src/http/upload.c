/*
 * Upload spooling: see upload.h.
 *
 * The multipart parser turns the body into operations on files (open, write, close), queued in
 * order and run one at a time through libuv's file requests: a file is opened before it is
 * written, and nothing waits on the loop. Writes of one file coalesce into chunks of up to
 * CHUNK bytes. The upload frees itself once abandoned and its last operation is back.
 */
#include "http/upload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http/multipart.h"

#define CHUNK (256 * 1024)

enum op_kind { OP_OPEN, OP_WRITE, OP_CLOSE, OP_UNLINK };

struct op {
    enum op_kind kind;
    size_t file;
    char *data; /* OP_WRITE */
    size_t len;
    struct op *next;
};

struct http_upload_private {
    uv_loop_t *loop;
    struct http_upload_limits lim;
    struct http_multipart mp;
    uv_fs_t fs;
    int busy; /* fs is in flight */
    struct op *head, *tail;
    size_t staged; /* bytes queued for the disk */
    int *fds;      /* per file, -1 until open */
    size_t *written;
    int in_file;  /* the part being parsed is a file */
    int in_field; /* ...is a field */
    int held;     /* told the reader to hold */
    int ended;
    int failed; /* a file operation failed */
    int abandoned;
    void (*wake)(void *arg);
    void *wake_arg;
};

static void pump(struct http_upload *u);

static int refuse(struct http_upload *u, int status, const char *why, size_t limit)
{
    u->status = status;
    u->refusal = why;
    u->refused_limit = limit;
    return status;
}

static struct op *push(struct http_upload *u, enum op_kind kind, size_t file)
{
    struct http_upload_private *p = u->priv;
    struct op *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->kind = kind;
    o->file = file;
    if (p->tail)
        p->tail->next = o;
    else
        p->head = o;
    p->tail = o;
    return o;
}

/* ---- the parser's parts ---- */

static int on_begin(void *user, const struct http_multipart_part *part)
{
    struct http_upload *u = user;
    struct http_upload_private *p = u->priv;
    if (!part->has_filename) {
        if (u->nfields == HTTP_UPLOAD_FIELDS)
            return refuse(u, 400, "Campos demais no formulário", HTTP_UPLOAD_FIELDS);
        struct http_upload_field *f = &u->fields[u->nfields++];
        snprintf(f->name, sizeof f->name, "%s", part->name);
        f->off = u->fields_data.len;
        f->len = 0;
        p->in_field = 1;
        return 0;
    }
    if (u->nfiles == p->lim.files_max)
        return refuse(u, 413, "Arquivos demais numa mensagem", p->lim.files_max);
    struct http_upload_file *f = &u->files[u->nfiles];
    snprintf(f->field, sizeof f->field, "%s", part->name);
    snprintf(f->filename, sizeof f->filename, "%s", part->filename);
    snprintf(f->content_type, sizeof f->content_type, "%s", part->content_type);
    if (strlen(p->lim.dir) + sizeof "/upload-XXXXXX" > sizeof f->path)
        return refuse(u, 500, "Pasta de envios inválida", 0);
    if (!push(u, OP_OPEN, u->nfiles))
        return refuse(u, 500, "Memória insuficiente", 0);
    u->nfiles++;
    p->in_file = 1;
    pump(u);
    return 0;
}

static int on_data(void *user, const char *data, size_t len)
{
    struct http_upload *u = user;
    struct http_upload_private *p = u->priv;
    if (p->in_field) {
        int rc = buf_append(&u->fields_data, data, len);
        if (rc == BUF_ETOOBIG)
            return refuse(u, 413, "Campos do formulário grandes demais", p->lim.field_max);
        u->fields[u->nfields - 1].len += len;
        return rc ? refuse(u, 500, "Memória insuficiente", 0) : 0;
    }
    size_t file = u->nfiles - 1;
    struct http_upload_file *f = &u->files[file];
    if (f->size + len > p->lim.file_max)
        return refuse(u, 413, "Arquivo grande demais", p->lim.file_max);
    f->size += len;
    p->staged += len;
    while (len) {
        struct op *o = p->tail;
        if (!o || o->kind != OP_WRITE || o->file != file || o->len == CHUNK ||
            (p->busy && o == p->head)) {
            if (!(o = push(u, OP_WRITE, file)) || !(o->data = malloc(CHUNK)))
                return refuse(u, 500, "Memória insuficiente", 0);
        }
        size_t n = CHUNK - o->len < len ? CHUNK - o->len : len;
        memcpy(o->data + o->len, data, n);
        o->len += n;
        data += n;
        len -= n;
    }
    pump(u);
    return 0;
}

static int on_end(void *user)
{
    struct http_upload *u = user;
    struct http_upload_private *p = u->priv;
    if (p->in_file && !push(u, OP_CLOSE, u->nfiles - 1))
        return refuse(u, 500, "Memória insuficiente", 0);
    p->in_file = p->in_field = 0;
    pump(u);
    return 0;
}

static const struct http_multipart_callbacks parts = {on_begin, on_data, on_end};

/* ---- file operations, one at a time ---- */

static void finish_free(struct http_upload *u)
{
    struct http_upload_private *p = u->priv;
    free(p->fds);
    free(p->written);
    free(p);
    free(u->files);
    buf_cleanup(&u->fields_data);
    free(u);
}

static void on_fs(uv_fs_t *req)
{
    struct http_upload *u = req->data;
    struct http_upload_private *p = u->priv;
    struct op *o = p->head;
    ssize_t result = req->result;
    if (o->kind == OP_OPEN && result >= 0) {
        p->fds[o->file] = (int)result;
        snprintf(u->files[o->file].path, sizeof u->files[o->file].path, "%s", req->path);
    } else if (o->kind == OP_WRITE && result >= 0) {
        p->written[o->file] += (size_t)result;
        if ((size_t)result < o->len) { /* a short write: the rest goes next */
            memmove(o->data, o->data + result, o->len - (size_t)result);
            o->len -= (size_t)result;
            p->staged -= (size_t)result;
            uv_fs_req_cleanup(req);
            p->busy = 0;
            pump(u);
            return;
        }
        p->staged -= o->len;
    } else if (o->kind == OP_CLOSE) {
        p->fds[o->file] = -1;
    }
    if (result < 0 && o->kind != OP_UNLINK && o->kind != OP_CLOSE) {
        p->failed = 1;
        if (o->kind == OP_OPEN)
            u->files[o->file].path[0] = '\0';
    }
    uv_fs_req_cleanup(req);
    p->busy = 0;
    p->head = o->next;
    if (!p->head)
        p->tail = NULL;
    free(o->data);
    free(o);
    pump(u);
}

/* Once abandoned: close what is open and delete every file left. */
static void queue_teardown(struct http_upload *u)
{
    struct http_upload_private *p = u->priv;
    for (struct op *o = p->head ? p->head->next : NULL, *next; o; o = next) {
        next = o->next; /* what was not started is dropped */
        free(o->data);
        free(o);
    }
    if (p->head)
        p->head->next = NULL;
    p->tail = p->head;
    p->staged = 0;
    for (size_t i = 0; i < u->nfiles; i++) {
        int opening = p->busy && p->head && p->head->kind == OP_OPEN && p->head->file == i;
        if (p->fds[i] >= 0 || opening)
            push(u, OP_CLOSE, i);
        if (u->files[i].path[0] || opening)
            push(u, OP_UNLINK, i);
    }
}

static void pump(struct http_upload *u)
{
    struct http_upload_private *p = u->priv;
    while (!p->busy && p->head) {
        struct op *o = p->head;
        struct http_upload_file *f = &u->files[o->file];
        int rc = -1;
        p->fs.data = u;
        if (p->failed && !p->abandoned && o->kind == OP_WRITE) {
            rc = -1; /* a failed upload writes no more */
        } else if (o->kind == OP_OPEN) {
            char tpl[HTTP_UPLOAD_PATH];
            snprintf(tpl, sizeof tpl, "%s/upload-XXXXXX", p->lim.dir);
            rc = uv_fs_mkstemp(p->loop, &p->fs, tpl, on_fs);
        } else if (o->kind == OP_WRITE && p->fds[o->file] >= 0) {
            uv_buf_t b = uv_buf_init(o->data, (unsigned)o->len);
            rc = uv_fs_write(p->loop, &p->fs, p->fds[o->file], &b, 1, (int64_t)p->written[o->file],
                             on_fs);
        } else if (o->kind == OP_CLOSE && p->fds[o->file] >= 0) {
            rc = uv_fs_close(p->loop, &p->fs, p->fds[o->file], on_fs);
        } else if (o->kind == OP_UNLINK && f->path[0]) {
            rc = uv_fs_unlink(p->loop, &p->fs, f->path, on_fs);
            f->path[0] = '\0';
        }
        if (rc == 0) {
            p->busy = 1;
            return;
        }
        if (o->kind == OP_WRITE) {
            p->staged -= o->len;
            p->failed = 1;
        }
        p->head = o->next;
        if (!p->head)
            p->tail = NULL;
        free(o->data);
        free(o);
    }
    if (p->busy)
        return;
    if (p->abandoned) {
        finish_free(u);
        return;
    }
    if (p->wake && ((p->held && p->staged < HTTP_UPLOAD_STAGED / 2) || (p->ended && !p->head))) {
        p->held = 0;
        p->wake(p->wake_arg);
    }
}

/* ---- the interface ---- */

struct http_upload *http_upload_new(uv_loop_t *loop, const struct http_upload_limits *lim,
                                    struct slice content_type, int *status)
{
    struct http_upload *u = calloc(1, sizeof *u);
    struct http_upload_private *p = calloc(1, sizeof *p);
    size_t n = lim->files_max ? lim->files_max : 1;
    *status = 500;
    if (!u || !p)
        goto fail;
    u->priv = p;
    u->files = calloc(n, sizeof *u->files);
    p->fds = malloc(n * sizeof *p->fds);
    p->written = calloc(n, sizeof *p->written);
    if (!u->files || !p->fds || !p->written)
        goto fail;
    for (size_t i = 0; i < n; i++)
        p->fds[i] = -1;
    p->loop = loop;
    p->lim = *lim;
    buf_init(&u->fields_data, lim->field_max);
    if (http_multipart_init(&p->mp, content_type, &parts, u)) {
        *status = 400;
        goto fail;
    }
    return u;
fail:
    if (u && p) {
        finish_free(u);
    } else {
        free(u);
        free(p);
    }
    return NULL;
}

int http_upload_feed(struct http_upload *u, const char *data, size_t len)
{
    struct http_upload_private *p = u->priv;
    if (u->status)
        return u->status;
    int rc = http_multipart_feed(&p->mp, data, len);
    if (rc < 0)
        return refuse(u, 400, "Formulário multipart malformado", 0);
    if (rc > 0)
        return rc;
    if (p->failed)
        return refuse(u, 500, "Falha ao gravar o envio", 0);
    if (p->staged >= HTTP_UPLOAD_STAGED) {
        p->held = 1;
        return 1;
    }
    return 0;
}

int http_upload_end(struct http_upload *u)
{
    struct http_upload_private *p = u->priv;
    if (u->status)
        return u->status;
    if (http_multipart_finish(&p->mp))
        return refuse(u, 400, "Formulário multipart malformado", 0);
    p->ended = 1;
    return http_upload_state(u);
}

int http_upload_state(const struct http_upload *u)
{
    const struct http_upload_private *p = u->priv;
    if (u->status)
        return u->status;
    if (p->failed)
        return 500;
    return p->head || p->busy ? 1 : 0;
}

void http_upload_on_wake(struct http_upload *u, void (*wake)(void *arg), void *arg)
{
    u->priv->wake = wake;
    u->priv->wake_arg = arg;
}

struct slice http_upload_field(const struct http_upload *u, const char *name)
{
    for (size_t i = 0; i < u->nfields; i++)
        if (!strcmp(u->fields[i].name, name))
            return (struct slice){u->fields_data.data ? u->fields_data.data + u->fields[i].off : "",
                                  u->fields[i].len};
    return (struct slice){NULL, 0};
}

void http_upload_discard(struct http_upload *u)
{
    for (size_t i = 0; i < u->nfiles; i++) {
        if (u->files[i].path[0])
            unlink(u->files[i].path);
        u->files[i].path[0] = '\0';
    }
}

void http_upload_free(struct http_upload *u)
{
    if (!u)
        return;
    struct http_upload_private *p = u->priv;
    p->abandoned = 1;
    p->wake = NULL;
    queue_teardown(u);
    pump(u);
}
