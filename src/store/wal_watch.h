/*
 * Notices when the database's -wal file is deleted or replaced while we hold it open. SQLite
 * would go on writing into the unlinked file, and a crash would then lose every commit since the
 * last checkpoint; once this says so, the writer checkpoints after every commit instead.
 */
#ifndef PRACA_STORE_WAL_WATCH_H
#define PRACA_STORE_WAL_WATCH_H
#include <sys/types.h>

struct wal_watch {
    char path[4096];
    ino_t ino; /* of the -wal file, once seen */
    int seen;
    int lost; /* stays set: only a restart opens a fresh -wal */
};

void store__wal_watch_init(struct wal_watch *w, const char *db_path);
/* Looks at the file (one stat); 1 once it has gone or changed, else 0. */
int store__wal_watch_lost(struct wal_watch *w);

#endif
