/*
 * An export's files brought in with its messages, as a person's upload would be (made ready by
 * media/prepare.h, stored under their hash): found in the export's media folder, or fetched from
 * their links (import_fetch.c). A batch's files are brought before its transaction, never while
 * it holds the database; a file that cannot be brought stays a line of its message's text.
 */
#ifndef PRACA_CLI_IMPORT_FILES_H
#define PRACA_CLI_IMPORT_FILES_H
#include <jansson.h>
#include <stdint.h>

#include "store/attachments.h"

struct config;
struct cli_import;
struct store;

/* A file as the export names it. */
struct cli_import_file {
    const char *name; /* its name as it was shown */
    const char *path; /* where it is under the media folder (NULL: not there) */
    const char *url;  /* its link (NULL: none) */
    const char *line; /* shown in the text when it is not brought (NULL: none) */
};

/* Where files come from: media, a folder (NULL: none); fetch, whether links are followed (http
 * and https, at most CLI_IMPORT_FETCH_REDIRECTS redirects, private addresses refused unless
 * configuration allows them); budget, the bytes an import may fetch in all (-1: any). */
struct cli_import_files_from {
    const char *media;
    int fetch;
    int64_t budget;
};
struct cli_import_files;
struct cli_import_files *cli_import_files_new(const struct config *cfg,
                                              const struct cli_import_files_from *from);
void cli_import_files_free(struct cli_import_files *f);
/* The media folder, when none was given (a Slack export's is where it unzips). */
void cli_import_files_media_default(struct cli_import_files *f, const char *folder);

/* Brings the file before the batch that holds its message: 0 (brought, or not: then its line
 * stays; a link is fetched by cli_import_files_fetch, with the batch's others), or -1 when the
 * import cannot go on. */
int cli_import_file_bring(struct cli_import *im, const struct cli_import_file *file);
/* A person's picture (person: their ID in the export), brought once per run like a file, made
 * into the two square copies an uploaded picture becomes: 0, or -1. */
int cli_import_picture_bring(struct cli_import *im, const char *person,
                             const struct cli_import_file *picture);
/* In a transaction: the person's picture given to their placeholder (user_id) when it was
 * brought, once per run, and the placeholder has none: 0, or -1. */
int cli_import_picture_give(struct cli_import *im, const char *person, const char *user_id);

/* The batch's links fetched, CLI_IMPORT_FETCH_AT_ONCE at a time, and kept: 0. */
int cli_import_files_fetch(struct cli_import *im);

/* In the batch's transaction: a message's files brought, as attachments with IDs of their own
 * (at most CLI_IMPORT_FILES_MAX; past them, a file stays a line), and as the API shows them
 * (shown: NULL when none was brought); each file not brought appends its line to text. 0, or
 * -1. */
#define CLI_IMPORT_FILES_MAX 10
struct cli_import_attached {
    struct store_attachment items[CLI_IMPORT_FILES_MAX];
    size_t n;
    json_t *shown;
};
struct buf;
int cli_import_files_take(struct cli_import *im, const struct cli_import_file *files, size_t n,
                          struct buf *text, struct cli_import_attached *out);
/* Their rows, under the message (its blobs claimed): 0, or -1. */
int cli_import_files_attach(struct cli_import *im, const struct cli_import_attached *a,
                            const char *message_id, const char *channel_id,
                            const char *uploader_id);
void cli_import_attached_cleanup(struct cli_import_attached *a);

/* After a batch: what it brought is let go. */
void cli_import_files_batch_done(struct cli_import *im);

/* Files brought and left as lines, for the summary. */
void cli_import_files_counts(const struct cli_import_files *f, long *brought, long *missing);

#endif
