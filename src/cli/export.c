/*
 * praca export --server ID FILE: the server as a portable archive (store/archive.h), written
 * a row at a time, so an archive of any size costs flat memory. Written to FILE.part, then
 * renamed: a FILE there is whole.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/uuid.h"
#include "store/archive.h"
#include "store/files.h"

static const char USAGE[] = "usage: praca export --server ID FILE\n";

int cli_export(const struct config *cfg, char **words, int nwords)
{
    const char *server_id = NULL, *path = NULL;
    for (int i = 0; i < nwords; i++) {
        const char *v;
        if ((v = cli_option(words, nwords, &i, "--server")))
            server_id = v;
        else if (!path && strncmp(words[i], "--", 2))
            path = words[i];
        else
            path = "";
    }
    if (!server_id || strlen(server_id) != UUID_LEN || !uuid_valid(server_id, UUID_LEN) || !path ||
        !*path || strlen(path) > 1000) {
        fputs(USAGE, stderr);
        return 2;
    }
    char part[1024];
    snprintf(part, sizeof part, "%s.part", path);
    struct store *db = cli_open_store(cfg);
    int fd = db ? open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    struct store_files files;
    struct store_archive_counts n;
    int wrote = f && !store_files_configure(&files, cfg)
                    ? store_archive_write(f, db, &files, server_id, &n)
                    : -1;
    if (wrote == STORE_MISSING)
        fprintf(stderr, "praca export: no server %s\n", server_id);
    int rc = wrote ? 1 : 0;
    if (f && fclose(f))
        rc = 1;
    else if (!f && fd >= 0)
        close(fd);
    if (!rc && rename(part, path))
        rc = 1;
    if (rc && fd >= 0)
        unlink(part);
    if (!rc && n.missing)
        fprintf(stderr, "praca export: %ld files' bytes were not found; left out\n", n.missing);
    if (!rc)
        printf("exported server %s to %s: %ld channels, %ld people, %ld messages, %ld files,"
               " %ld bots to install again\n",
               server_id, path, n.rows[ARCHIVE_CHANNEL], n.rows[ARCHIVE_PERSON],
               n.rows[ARCHIVE_MESSAGE], n.files, n.rows[ARCHIVE_INSTALL]);
    else if (db)
        fprintf(stderr, "praca export: %s not written\n", path);
    store_close(db);
    return rc;
}
