/*
 * Where attachments' bytes live, chosen by configuration, each blob named by its SHA-256 so a
 * file sent twice is kept once:
 * - disk: a folder (root/blobs/ab/<hash>), which several nodes may mount together;
 * - database: chunked rows of blob_chunks (base64 text, so one SQL serves both engines), so the
 *   database's own backups hold them; each node keeps what it served in root/cache.
 * Uploads arrive in root/spool either way (http/upload.h writes them there).
 *
 * A stored blob is claimed in the writer's transaction that refers to it, or it is only kept
 * for the grace period: the sweep deletes blobs that no attachment refers to once they are
 * older than that (a claim refreshes the time, so a blob sent again is not taken meanwhile).
 */
#ifndef PRACA_STORE_FILES_H
#define PRACA_STORE_FILES_H
#include <stddef.h>
#include <stdint.h>

#include "core/crypto.h"
#include "store/db.h"

enum store_files_kind { STORE_FILES_DISK, STORE_FILES_DATABASE };

struct store_files {
    enum store_files_kind kind;
    char root[900];
    char spool[920]; /* root/spool */
};

struct config;
/* The place configuration names (--files, --files-store; see store_files_configure's comment),
 * made ready as store_files_init does. */
int store_files_configure(struct store_files *f, const struct config *cfg);
/* Creates the folders; -1 (logged) when it cannot. */
int store_files_init(struct store_files *f, enum store_files_kind kind, const char *root);
/* Worker: stores the file at path (which is gone afterwards) under its hash (hash, size out).
 * 0 or -1. */
int store_files_put(const struct store_files *f, struct store *db, const char *path,
                    char hash[CRYPTO_SHA256_HEX + 1], size_t *size);
/* In a writer job: records the blob, or refreshes its time. STORE_MISSING when a sweep took
 * its bytes before the claim. */
int store_files_claim_at(const struct store_files *f, struct store *db, const char *hash,
                         int64_t size, int64_t now);
/* Worker: a descriptor to read the blob from (size out), or -1 when it is missing. */
int store_files_open(const struct store_files *f, struct store *db, const char *hash, size_t *size);
/* In a writer job: deletes at most `max` blobs that nothing refers to and that were claimed
 * before `before`, looking at the blobs after *cursor (a hash, "" to start; updated, and ""
 * again once the end is reached). Returns the number deleted, or < 0. */
int store_files_sweep_at(const struct store_files *f, struct store *db, int64_t before,
                         char cursor[CRYPTO_SHA256_HEX + 1], int max);
/* Deletes the spool's files last written before `before` (ms since the epoch): what an upload
 * cut by a crash left (a live upload writes as it arrives, and waits at most a body timeout).
 * Returns the number deleted, or -1 when the folder cannot be read. */
int store_files_sweep_spool(const struct store_files *f, int64_t before);
/* Whether the blob's bytes are where its kind keeps them (for tests and the sweep). */
int store_files_present(const struct store_files *f, struct store *db, const char *hash);

#endif
