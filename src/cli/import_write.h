/*
 * What praca import writes, a transaction at a time, on the command's own connection: the
 * server, then each channel or thread of the export with its messages, N per transaction.
 */
#ifndef PRACA_CLI_IMPORT_WRITE_H
#define PRACA_CLI_IMPORT_WRITE_H
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/map.h"
#include "core/uuid.h"
#include "domain/import_discord.h"

struct store;

struct cli_import {
    struct store *db;
    const char *format, *server_name;
    long batch; /* messages per transaction */
    char owner_id[UUID_LEN + 1];
    char guild_id[32];
    char key[160]; /* what every derived ID hashes with (import_ids.h) */
    char import_id[UUID_LEN + 1], server_id[UUID_LEN + 1];
    char **channels; /* the export's channels (not threads), by their Discord IDs */
    size_t nchannels, channels_cap;
    struct map persons; /* the people this run has written (a set): each written once */
    struct map roles;   /* the same for roles */
    int64_t position, now;
    /* what the summary tells */
    long channels_written, written, known, left_out, people;
};

/* Notes a channel the export holds: 0, or -1 (out of memory). */
int cli_import_note_channel(struct cli_import *im, const char *discord_id);
/* The server and the import's row (when absent): 0, or -1 (said why). */
int cli_import_begin(struct cli_import *im);
/* Where a channel's messages go, in Praça's IDs. */
struct cli_import_place {
    const struct rule_discord_channel *c;
    char channel_id[UUID_LEN + 1];
    char parent_id[UUID_LEN + 1]; /* a thread's channel, or "" */
};
/* A channel or a thread (under its channel, when the export has it): 0, or -1 (said why). */
int cli_import_channel(struct cli_import *im, const struct rule_discord_channel *c,
                       struct cli_import_place *p);
/* n of the place's messages (elements of the export's array), in one transaction: 0, or -1. */
int cli_import_messages(struct cli_import *im, struct cli_import_place *p, json_t *const *messages,
                        size_t n);
/* Marks the import finished: 0, or -1. */
int cli_import_finish(struct cli_import *im);
void cli_import_free(struct cli_import *im);

#endif
