/*
 * libFuzzer driver for a Praça server's archive as `praca import praca-archive` reads it (an
 * archive is input: it may come from anyone's Praça): the bytes as the archive's file, imported
 * into a database made once, for an owner made once. Whatever the lines say, the import ends
 * (imported, or stopped with why) without a crash, a leak or undefined behaviour.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/import_formats.h"
#include "core/config.h"
#include "store/archive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OWNER "01900000-0000-7000-8000-0000000000aa"

static struct config cfg;
static struct store *db;
static char input[1100], folder[64];

static void close_at_exit(void)
{
    store_close(db);
    cli_import_remove_tree(folder);
}

static void open_once(void)
{
    snprintf(folder, sizeof folder, "/tmp/praca-fuzz-archive-XXXXXX");
    if (!mkdtemp(folder))
        abort();
    const char *dir = folder;
    config_defaults(&cfg);
    snprintf(cfg.data, sizeof cfg.data, "%s/praca.db", dir);
    snprintf(cfg.files, sizeof cfg.files, "%s/files", dir);
    snprintf(input, sizeof input, "%s/in.praca", dir);
    db = cli_open_store(&cfg);
    json_t *owner = json_pack("{ss, ss, ss, sb, sI}", "id", OWNER, "username", "dona",
                              "displayName", "Dona", "isBot", 0, "createdAt", (json_int_t)1);
    if (!db || !owner || store_archive_person_at(db, owner, "dona2") != STORE_DONE)
        abort();
    json_decref(owner);
    atexit(close_at_exit);
    if (!freopen("/dev/null", "w", stdout)) /* "to install again: …" */
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!db)
        open_once();
    FILE *f = fopen(input, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    struct cli_import im = {.db = db, .format = "praca-archive", .batch = 7};
    snprintf(im.owner_id, sizeof im.owner_id, "%s", OWNER);
    map_init(&im.persons);
    map_init(&im.roles);
    cli_import_archive(&im, input, &cfg);
    cli_import_free(&im);
    return 0;
}
