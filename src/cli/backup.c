/* praca backup FILE and praca migrate: whole-database chores, safe while a server runs. */
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/config.h"
#include "store/migrate.h"

int cli_backup(const struct config *cfg, char **words, int n)
{
    if (n != 1) {
        fputs("usage: praca backup FILE [--data DB]\n", stderr);
        return 2;
    }
    if (cfg->database_url[0]) {
        fputs("praca backup copies an SQLite file; back PostgreSQL up with pg_dump or the "
              "server's own backups\n",
              stderr);
        return 1;
    }
    if (access(cfg->data, R_OK)) {
        fprintf(stderr, "praca backup: cannot read %s\n", cfg->data);
        return 1;
    }
    struct store *db;
    if (store_open(cfg->data, &db) != STORE_DONE)
        return 1;
    int rc = store_backup(db, words[0]);
    store_close(db);
    if (rc != STORE_DONE)
        return 1;
    printf("backup of %s written to %s (mode 0600: it holds password and token hashes and "
           "two-factor secrets)\n",
           cfg->data, words[0]);
    return 0;
}

int cli_migrate(const struct config *cfg)
{
    struct store *db;
    if (store_open(config_store_target(cfg), &db) != STORE_DONE)
        return 1;
    int ran = store_migrate(db);
    store_close(db);
    if (ran < 0)
        return 1;
    printf("migrations applied: %d\n", ran);
    return 0;
}
