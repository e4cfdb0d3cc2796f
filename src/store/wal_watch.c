/* The -wal file's watch: see wal_watch.h. */
#include "store/wal_watch.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "core/log.h"

void store__wal_watch_init(struct wal_watch *w, const char *db_path)
{
    w->seen = w->lost = 0;
    if ((size_t)snprintf(w->path, sizeof w->path, "%s-wal", db_path) >= sizeof w->path)
        w->path[0] = '\0';
}

int store__wal_watch_lost(struct wal_watch *w)
{
    if (w->lost || !w->path[0])
        return w->lost;
    struct stat st;
    if (stat(w->path, &st)) {
        w->lost = w->seen && errno == ENOENT;
    } else if (!w->seen) {
        w->seen = 1;
        w->ino = st.st_ino;
    } else {
        w->lost = st.st_ino != w->ino;
    }
    if (w->lost)
        log_error("store: %s was deleted or replaced while in use; every commit is now "
                  "checkpointed into the database file; restart praca to open a fresh one",
                  w->path);
    return w->lost;
}
