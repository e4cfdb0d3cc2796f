/*
 * What praca import writes, whatever the export's format, on the command's own connection: the
 * server, its categories, channels and threads, its people as placeholders with their roles,
 * and their messages in batches, each batch one transaction after which the database is left to
 * the live server as long as the batch held it. The formats' readers (import_discord.c,
 * import_mattermost.c) turn what they read into these calls.
 */
#ifndef PRACA_CLI_IMPORT_WRITE_H
#define PRACA_CLI_IMPORT_WRITE_H
#include <stddef.h>
#include <stdint.h>

#include "core/map.h"
#include "cli/import_files.h"
#include "core/uuid.h"

struct store;

struct cli_import {
    struct store *db;
    const char *format, *server_name;
    long batch; /* messages per transaction */
    char owner_id[UUID_LEN + 1];
    char source[64]; /* the community in the export (a guild's ID, a team's name) */
    char key[200];   /* what every derived ID hashes with (domain/import_ids.h) */
    char import_id[UUID_LEN + 1], server_id[UUID_LEN + 1];
    struct map persons; /* what this run has written of each person */
    struct map roles;   /* the roles this run has written (a set) */
    int64_t position, now;
    struct cli_import_files *files; /* the export's files brought (import_files.h); NULL: not */
    /* A job of the page's (--job): told how far the import is after each transaction, the
     * source's bytes read in the pass that writes, of its bytes. */
    const char *job_id;
    int64_t source_read, source_size;
    /* what the summary tells */
    long channels_written, written, known, left_out, people;
};

/* Where messages go, in Praça's IDs. */
struct cli_import_place {
    const char *name; /* for messages to the operator */
    char channel_id[UUID_LEN + 1];
    char parent_id[UUID_LEN + 1]; /* a thread's channel, or "" */
};

struct cli_import_role {
    const char *id, *name;
    int64_t color, position;
};

/* A person as the export names them: by an ID of its own (a username will do). */
struct cli_import_author {
    const char *id, *name;
    const char *email;                   /* the address the source gave (NULL: none) */
    const struct cli_import_role *roles; /* may be NULL */
    size_t nroles;
};

struct cli_import_message {
    const char *source;    /* its ID in the export, unique there */
    int64_t id_ms;         /* the time its ID sorts by (0: at) */
    int64_t at, edited_at; /* edited_at 0: never */
    int pinned;
    const char *text;                    /* its words */
    const struct cli_import_file *files; /* its files, as the export names them */
    size_t nfiles;
    /* the message it answers (NULL: none): its source ID and the time that ID sorts by */
    const char *reply_to;
    int64_t reply_ms;
    struct cli_import_author author;
};

/* The server and the import's row (when absent), after source is set: 0, or -1 (said why). */
int cli_import_begin(struct cli_import *im);
/* Marks the import finished: 0, or -1. */
int cli_import_finish(struct cli_import *im);
void cli_import_free(struct cli_import *im);

/* Runs fn in a transaction of its own: 0 committed, -1 not. A batch of messages is then left
 * to rest as long as it held the database (yield 1). */
int cli_import_transaction(struct cli_import *im, int (*fn)(struct cli_import *, void *), void *arg,
                           int yield);

/* Writes items 0 … n-1 of a batch by one(im, i, text, arg), text being a buffer for a message's
 * text, in one transaction that also counts them in the import's row, then rests (above).
 * Before it, when the import brings files, bring(im, i, arg) (NULL: none) brings each item's
 * (cli_import_file_bring), so that none is fetched while the batch holds the database. */
struct buf;
struct cli_import_batch_fns {
    int (*bring)(struct cli_import *im, size_t i, void *arg);
    int (*one)(struct cli_import *im, size_t i, struct buf *text, void *arg);
};
int cli_import_batch(struct cli_import *im, size_t n, const struct cli_import_batch_fns *fns,
                     void *arg);

/* These run inside such a transaction. */
/* A category (its ID from source_id) at position (-1: after those written): 0, or -1. */
int cli_import_category(struct cli_import *im, const char *source_id, const char *name,
                        int64_t position, char id[UUID_LEN + 1]);
/* A category's ID, without writing it. */
void cli_import_category_id(struct cli_import *im, const char *source_id, char id[UUID_LEN + 1]);
/* A channel as a server's structure gives it: of type "text", "voice" or "forum", at position,
 * in category_id (NULL: none). Fills out. 0, or -1. */
int cli_import_room(struct cli_import *im, const char *source_id, const char *name,
                    const char *topic, const char *type, int64_t position, const char *category_id,
                    struct cli_import_place *out);
/* A role's overwrite on a channel (role_source NULL: @everyone's), Praça's bits: 0, or -1. */
int cli_import_overwrite(struct cli_import *im, const struct cli_import_place *p,
                         const char *role_source, int64_t allow, int64_t deny);
/* A role with the permissions a structure gives it (a history alone gives none): 0, or -1. */
int cli_import_role(struct cli_import *im, const struct cli_import_role *r, int64_t permissions,
                    int hoist, int mentionable);
/* @everyone's permissions: 0, or -1. */
int cli_import_everyone(struct cli_import *im, int64_t permissions);
/* A channel (parent_source NULL) or a thread under the channel parent_source, whose first
 * message was origin_source (NULL: none); category_id may be NULL. Fills out. 0, or -1. */
int cli_import_channel(struct cli_import *im, const char *source_id, const char *name,
                       const char *topic, const char *category_id, const char *parent_source,
                       const char *origin_source, int64_t origin_ms, struct cli_import_place *out);
/* A place's IDs as cli_import_channel gives them, without writing it (a thread written
 * already this run). */
void cli_import_place_of(struct cli_import *im, const char *source_id, const char *name,
                         const char *parent_source, struct cli_import_place *out);
/* A thread's name: its first message's first line, cut to CLI_IMPORT_THREAD_NAME characters
 * ("Conversa" when there is none). */
#define CLI_IMPORT_THREAD_NAME       40
#define CLI_IMPORT_THREAD_NAME_BYTES (4 * CLI_IMPORT_THREAD_NAME + 1)
void cli_import_thread_name(const char *first_message, char out[CLI_IMPORT_THREAD_NAME_BYTES]);
/* Hides a channel from @everyone and shows it to these people (a private channel). 0, or -1. */
int cli_import_private(struct cli_import *im, const struct cli_import_place *p,
                       const struct cli_import_author *people, size_t n);
/* The placeholder for a person (written once per run, with their roles): 0, or -1. */
int cli_import_person(struct cli_import *im, const struct cli_import_author *a,
                      char id[UUID_LEN + 1]);
/* A message, in parts when past Praça's length; first_id gets its first part's ID. 0 (written,
 * or there already), or -1. */
int cli_import_message(struct cli_import *im, const struct cli_import_place *p,
                       const struct cli_import_message *m, char first_id[UUID_LEN + 1]);
/* Whether the message whose ID in the export is source (its time ms, as cli_import_message's
 * id_ms, else at) was written by an earlier run: 1, 0, or < 0 on an error. A reader asks before
 * bringing its files, so that a run resumed after a crash fetches nothing twice. */
int cli_import_message_there(struct cli_import *im, const char *source, int64_t ms);
/* A reaction with a Unicode emoji (any other is left out): 0, or -1. */
int cli_import_reaction(struct cli_import *im, const char *message_id, const char *channel_id,
                        const char *emoji, const struct cli_import_author *who, int64_t at);

#endif
