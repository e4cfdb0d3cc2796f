/*
 * A server as a portable archive (praca export / praca import praca-archive): one kind of line
 * per table the server owns, each read and written by the same column list, so what is exported
 * is what an import writes back. IDs are kept as they are: an archive moves a server to another
 * Praça, and an import run again after a crash finds what it wrote. Times are milliseconds.
 */
#ifndef PRACA_STORE_ARCHIVE_H
#define PRACA_STORE_ARCHIVE_H
#include <jansson.h>
#include <stdio.h>

#include "core/crypto.h"
#include "store/db.h"

#define STORE_ARCHIVE_VERSION 1

/* The kinds of line after the header, in the order an archive holds them (what a line refers
 * to comes before it). The blobs' bytes go between emoji and messages (see blob_hashes). */
enum store_archive_kind {
    ARCHIVE_SERVER,
    ARCHIVE_ROLE,
    ARCHIVE_PERSON,
    ARCHIVE_MEMBER,
    ARCHIVE_MEMBER_ROLE,
    ARCHIVE_CATEGORY,
    ARCHIVE_CATEGORY_OVERWRITE,
    ARCHIVE_CHANNEL,
    ARCHIVE_OVERWRITE,
    ARCHIVE_EMOJI,
    ARCHIVE_MESSAGE,
    ARCHIVE_ATTACHMENT,
    ARCHIVE_REACTION,
    ARCHIVE_INSTALL,
    ARCHIVE_KINDS
};

/* A kind's name in the archive's "record" ("role", "memberRole"…). */
const char *store_archive_kind_name(enum store_archive_kind kind);
/* The kind a "record" names, or -1. */
int store_archive_kind_of(const char *name);

struct store_files;
struct store_archive_counts {
    long rows[ARCHIVE_KINDS];
    long files, missing; /* files written; files whose bytes were not found (left out) */
};
/* Writes the server's archive to f, a line at a time: a header, each kind's rows in order, and
 * each file's bytes as base64 lines of at most a MiB (archive_file.c). 0, STORE_MISSING when the
 * server is not there, or -1. */
int store_archive_write(FILE *f, struct store *db, const struct store_files *files,
                        const char *server_id, struct store_archive_counts *counts);

/* Calls fn with each row of a kind for the server, as an object of the kind's columns (the
 * object is fn's to keep or free). 0, 1 when fn stopped (its nonzero return), or < 0. */
int store_archive_each(struct store *db, const char *server_id, enum store_archive_kind kind,
                       int (*fn)(json_t *row, void *arg), void *arg);

/* The files the server's rows refer to (attachments, their thumbnails, emoji): a sorted array
 * of hashes, NULL on error. */
json_t *store_archive_blob_hashes(struct store *db, const char *server_id);

/* A message's files are linked at the origin of the Praça that stores them: an archive keeps
 * their paths (origin ""), which an import puts its own origin before. */
void store_archive_relink(json_t *message, const char *origin);

/* Writes one row of a kind as an archive holds it, when absent (a role, a member or the
 * server's settings are brought up to the archive's), and only when what it names is the
 * server's. In a transaction of the import's own connection (store/imports.h). Each column
 * naming a person goes through person(id, required): the ID to write, or NULL for someone the
 * archive does not bring (then a required one leaves the row out, another is written NULL or
 * as it was). STORE_DONE, STORE_TAKEN (it was there, or what it names is not the server's),
 * STORE_MISSING (left out: a column not of its type, an unknown person), or < 0. Persons and
 * installs are not written here. */
int store_archive_write_at(struct store *db, enum store_archive_kind kind, const json_t *row,
                           const char *(*person)(const char *id, int required, void *arg),
                           void *arg);

/* A person as a placeholder (imported, no password) under the archive's ID, by the archive's
 * username unless another has it here (then username_if_taken). STORE_DONE, STORE_TAKEN (the
 * ID was there), or < 0. */
int store_archive_person_at(struct store *db, const json_t *row, const char *username_if_taken);

/* Whether a person's ID is free here (0), a placeholder this server's import may use (1: an
 * imported person who is no other server's member), or someone else's (2); < 0 on error. */
int store_archive_person_state(struct store *db, const char *id, const char *server_id);

#endif
