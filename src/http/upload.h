/*
 * A multipart/form-data body written to files as it arrives (I/O thread).
 *
 * The HTTP server feeds the body's bytes; each file part goes to a file of its own in the
 * upload's folder, written by libuv's file operations (the loop never waits on the disk), and
 * each field (a part without a file name) is kept in memory. What is held at once is bounded:
 * at most HTTP_UPLOAD_STAGED bytes wait for the disk before reading pauses. Limits are checked
 * as the bytes come, so a file over its limit is refused (413) as soon as it passes it.
 *
 * Once the body is complete and written, the handler reads the parts from the request
 * (http_request.upload): it takes the files it keeps (moving or deleting them) and
 * http_upload_free deletes the rest.
 */
#ifndef PRACA_HTTP_UPLOAD_H
#define PRACA_HTTP_UPLOAD_H
#include <stddef.h>
#include <uv.h>

#include "core/buf.h"

#define HTTP_UPLOAD_STAGED (1024 * 1024) /* bytes waiting for the disk before reading pauses */
#define HTTP_UPLOAD_FIELDS 8
#define HTTP_UPLOAD_PATH   1024

struct http_upload_limits {
    const char *dir;  /* where the files go; NULL or "": the body is not taken as an upload */
    size_t file_max;  /* bytes per file */
    size_t files_max; /* files per body */
    size_t field_max; /* bytes of all fields together */
};

struct http_upload_file {
    char field[128];
    char filename[256];          /* as the client wrote it */
    char content_type[128];      /* the client's word */
    char path[HTTP_UPLOAD_PATH]; /* "" once taken by the handler */
    size_t size;
};

struct http_upload_field {
    char name[128];
    size_t off, len; /* in fields_data */
};

struct http_upload {
    /* What the handler reads once the request is complete: */
    struct http_upload_file *files;
    size_t nfiles;
    struct http_upload_field fields[HTTP_UPLOAD_FIELDS];
    size_t nfields;
    struct buf fields_data;
    /* Set when a limit refused the body: the status and what to say. */
    int status;
    const char *refusal;
    size_t refused_limit;
    /* private */
    struct http_upload_private *priv;
};

/* NULL when content_type is not multipart/form-data with a valid boundary (the caller then
 * answers 400) or memory is short. */
struct http_upload *http_upload_new(uv_loop_t *loop, const struct http_upload_limits *lim,
                                    struct slice content_type, int *status);
/* I/O thread. Takes len more bytes of the body: 0, 1 (taken, but hold the next bytes until
 * wake), or an HTTP status refusing the body (400, 413, 500). */
int http_upload_feed(struct http_upload *u, const char *data, size_t len);
/* I/O thread. The body is complete: 0 when every file is written, 1 when the last writes are
 * still going (wake comes when they are done), or an HTTP status. */
int http_upload_end(struct http_upload *u);
/* Whether every write asked is done: 0 yes; 1 still going; an HTTP status after a failure. */
int http_upload_state(const struct http_upload *u);
/* Who to call (I/O thread) when a hold ends or the last writes are done. */
void http_upload_on_wake(struct http_upload *u, void (*wake)(void *arg), void *arg);
/* The value of a field, or {NULL, 0}. */
struct slice http_upload_field(const struct http_upload *u, const char *name);
/* Any thread once complete: deletes the files the handler did not take. */
void http_upload_discard(struct http_upload *u);
/* I/O thread. Deletes whatever files are left (after writes still going) and frees u once
 * nothing refers to it. NULL does nothing. */
void http_upload_free(struct http_upload *u);

#endif
