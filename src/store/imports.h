/*
 * What an import of a community's history writes (cli/import.c): its server, categories,
 * channels and threads, the people it brought (placeholders: imported, no password), their
 * messages with their original times, reactions and pins. Every write is of a row with an ID
 * the import derived from the source's, and only when absent, so an import run again after a
 * crash writes nothing twice. None of it is logged as an event: history is not news.
 * Run each inside store_import_transaction, on a connection of the import's own.
 */
#ifndef PRACA_STORE_IMPORTS_H
#define PRACA_STORE_IMPORTS_H
#include <stdint.h>

#include "store/db.h"

/* Runs fn(db, arg) in a transaction of its own on db (not the writer's connection): committed
 * when fn returns 0, rolled back otherwise. 0 committed, -1 not. */
int store_import_transaction(struct store *db, int (*fn)(struct store *db, void *arg), void *arg);

struct store_import {
    const char *id, *format, *source, *server_id, *server_name, *owner_id;
    int64_t everyone_perms, now;
};
/* The server (with its @everyone role and its owner as a member) and the import's row, each
 * when absent: STORE_DONE, or STORE_TAKEN when the row exists with another owner. */
int store_import_begin_at(struct store *db, const struct store_import *im);
/* Counts n more messages written and, with finished, marks the import done. */
int store_import_progress_at(struct store *db, const char *import_id, int64_t n, int finished,
                             int64_t now);

struct store_import_channel {
    const char *id, *server_id, *name, *topic;
    const char *type;        /* "text", "voice" or "forum" (NULL: text, or thread with a parent) */
    const char *category_id; /* a channel's category, or NULL */
    const char *parent_id;   /* a thread's channel (then a thread), or NULL */
    const char *origin_id;   /* a thread's first message, when it is in the history */
    int is_category;
    int64_t position, now;
};
int store_import_channel_at(struct store *db, const struct store_import_channel *c);

/* A permission overwrite on an imported channel (type "role" or "member"), when absent. */
int store_import_overwrite_at(struct store *db, const char *channel_id, const char *target_id,
                              const char *type, int64_t allow, int64_t deny);

/* A placeholder's picture (its two square copies' blobs), when it has none: STORE_DONE. */
int store_import_avatar_at(struct store *db, const char *user_id, const char *large,
                           const char *small);

/* A placeholder person, a member of server_id, each written when absent: STORE_DONE, or
 * STORE_TAKEN when the person was there already. email (lower-case, may be NULL) is the address
 * the source gave them, by which a person with that verified address may claim them. */
int store_import_person_at(struct store *db, const char *user_id, const char *username,
                           const char *display_name, const char *email, const char *server_id,
                           int64_t now);

/* A role, written when absent; key orders it above @everyone, higher ranking higher. Its
 * permissions are Praça's bits: none from a history alone, whose roles carry none, or those a
 * server's structure maps (domain/import_discord_guild.h). */
struct store_import_role {
    const char *id, *server_id, *name;
    int64_t color, key, permissions;
    int hoist, mentionable;
    int64_t now;
};
int store_import_role_at(struct store *db, const struct store_import_role *r);
/* @everyone's permissions (the server's own role) as a structure gives them. */
int store_import_everyone_at(struct store *db, const char *server_id, int64_t permissions);
int store_import_member_role_at(struct store *db, const char *server_id, const char *user_id,
                                const char *role_id);

struct store_import_message {
    const char *id, *channel_id, *thread_parent_id, *server_id, *author_id;
    const char *content, *reply_to_id;
    const char *attachments; /* its files as the API shows them, JSON (NULL: none) */
    int64_t at, edited_at;   /* edited_at 0: never */
    int pinned;
};
/* STORE_DONE written, STORE_TAKEN there already. */
int store_import_message_at(struct store *db, const struct store_import_message *m);
int store_import_reaction_at(struct store *db, const char *message_id, const char *channel_id,
                             const char *emoji, const char *user_id, int64_t at);
/* 1 when message id is stored, 0 when not, < 0 on error. */
int store_import_message_known(struct store *db, const char *id);

#endif
