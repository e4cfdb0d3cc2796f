/*
 * What a database engine provides under db.h: SQLite (store/sqlite.c) for one machine,
 * PostgreSQL (store/postgres.c) for several nodes. db.c chooses one by the target's form and
 * forwards every call; only the engines include their client library.
 */
#ifndef PRACA_STORE_ENGINE_H
#define PRACA_STORE_ENGINE_H
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"

/* The part of a connection db.c itself reads; an engine's connection starts with it. */
struct store {
    const struct store_engine *engine;
    int tracks_changes; /* the writer's connection: its changes are marked (snapshot.h) */
    /* The writer's connection only: what its transaction holds back (write_batch.h). */
    struct store_write_batch *batch;
};

/* The part of a statement db.c reads; an engine's statement starts with it. */
struct store_stmt {
    struct store *db;
    const char *sql;
};

/* A table change the in-memory state follows (see store__changes_begin): after `when` on a row,
 * the values `sids` yields (SQL over NEW / OLD, in SQLite's trigger syntax; `main.` names a
 * permanent table) are recorded as changed servers. */
struct store_change_mark {
    const char *name, *when, *sids;
};

struct store_engine {
    const char *name;
    /* Opens the connection the target names (a file path or a postgres:// URL). */
    int (*open)(const char *target, struct store **out);
    void (*close)(struct store *db);
    struct store_stmt *(*query)(struct store *db, const char *sql, const struct store_val *args,
                                size_t nargs);
    int (*step)(struct store_stmt *st);
    const char *(*text)(struct store_stmt *st, int col);
    size_t (*text_len)(struct store_stmt *st, int col);
    int64_t (*int64)(struct store_stmt *st, int col);
    int (*is_null)(struct store_stmt *st, int col);
    void (*finish)(struct store_stmt *st);
    int64_t (*changes)(struct store *db);
    int (*exec_script)(struct store *db, const char *sql);
    /* A statement without rows whose outcome only the next statement needs (SAVEPOINT,
     * RELEASE, a batch of inserts): sent along with that one, or (NULL) run at once. */
    int (*exec_later)(struct store *db, const char *sql, const struct store_val *args,
                      size_t nargs);
    /* The next statement takes the writer's COMMIT along in its round trip (on=1), or not
     * (on=0); commit_went then tells that COMMIT's outcome, or 1 when none went. NULL: each
     * COMMIT goes alone. */
    void (*commit_with_next)(struct store *db, int on);
    int (*commit_went)(struct store *db);
    /* 1 while a transaction is open, even one a failed statement has left unusable until
     * a rollback (PostgreSQL). */
    int (*in_transaction)(struct store *db);
    /* 1 when a statement failed in the open transaction since its last savepoint. */
    int (*failed)(struct store *db);
    void (*read_batching)(struct store *db, int on);
    void (*read_release)(struct store *db);
    int (*backup)(struct store *db, const char *dest);
    int (*track_changes)(struct store *db, const struct store_change_mark *marks, size_t n);
    /* Whether the open transaction has marked a change, when the engine knows it without a
     * query (1 or 0), else -1. Forgotten by the next take (store__changes_taken). */
    int (*changes_seen)(struct store *db);
    void (*changes_taken)(struct store *db);
    /* After each of the writer's commits, before anyone hears of it. */
    void (*after_commit)(struct store *db);
    /* Its checkpoints off the writer's thread, filled in from zero (NULL: the engine has none). */
    void (*checkpoints)(struct store *db, struct store_checkpoints *out);
    const char *sql_begin_write; /* the writer's BEGIN */
    /* One integer that moves when another process commits a change the in-memory state
     * follows (praca admin): SQLite's data_version, PostgreSQL's count of foreign changes. */
    const char *sql_data_version;
    /* Run once on a request worker's connection (NULL: nothing): a reader whose hot data lives
     * in memory elsewhere needs a small page cache, and there is one per worker. */
    const char *sql_worker_setup;
    /* What the migrations' SQL needs of the engine beyond the tables, defined before them in
     * one transaction (NULL: nothing). */
    const char *sql_schema_prelude;
    /* Several nodes write: event positions are given just before each commit, under one lock,
     * so they follow commit order (store/event_log.h). SQLite's one writer needs no more. */
    int positions_at_commit;
    /* A round trip costs more than the statement: new messages' rows wait for the next
     * statement or the commit (store/message_rows.h). */
    int rows_at_commit;
    /* messages.channel_id has no foreign key (migration 026): an insert of messages locks its
     * channel itself, so that none is deleted before the insert commits. */
    int messages_lock_channel;
};

extern const struct store_engine store_sqlite;
extern const struct store_engine store_postgres;

#endif
