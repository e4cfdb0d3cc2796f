/*
 * praca import discord|mattermost|slack <path> --server NAME --owner USERNAME [--team T]
 * [--batch N]: another service's export becomes a new Praça server owned by USERNAME: its
 * categories, channels and threads, its people as placeholder members, their messages with their
 * original times, replies, reactions and pins (import_formats.h reads each format). It writes on
 * its own connection beside a live server, which follows within a second; it logs no event (history
 * is not news), and run again after a crash it writes nothing twice (domain/import_ids.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/import_formats.h"
#include "core/config.h"
#include "store/people.h"

#define BATCH_DEFAULT 200
#define BATCH_MAX     10000

static const char USAGE[] =
    "usage: praca import discord <file.json|folder|folder.zip> --server NAME --owner USERNAME"
    " [--structure guild.json] [--batch N] [--media DIR] [--no-fetch]\n"
    "       praca import mattermost <export.jsonl> --server NAME --owner USERNAME [--team T]"
    " [--batch N] [--media DIR] [--no-fetch]\n"
    "       praca import slack <export.zip|folder> --server NAME --owner USERNAME"
    " [--batch N] [--media DIR] [--no-fetch]\n"
    "       praca import praca-archive <file> --owner USERNAME [--server NAME] [--batch N]\n";

struct words {
    const char *format, *path, *server, *owner, *owner_id, *team, *job, *structure, *media;
    long batch;
    int no_fetch;
};

/* Reads the words: 0, or 2 (usage said). */
static int read_words(char **words, int nwords, struct words *w)
{
    *w = (struct words){.format = nwords ? words[0] : NULL, .batch = BATCH_DEFAULT};
    int mattermost = w->format && !strcmp(w->format, "mattermost");
    int archive = w->format && !strcmp(w->format, "praca-archive");
    if (!w->format ||
        (strcmp(w->format, "discord") && strcmp(w->format, "slack") && !mattermost && !archive)) {
        fputs(USAGE, stderr);
        return 2;
    }
    for (int i = 1; i < nwords; i++) {
        const char *v;
        if ((v = cli_option(words, nwords, &i, "--server")))
            w->server = v;
        else if ((v = cli_option(words, nwords, &i, "--owner")))
            w->owner = v;
        else if ((v = cli_option(words, nwords, &i, "--owner-id")))
            w->owner_id = v; /* an import the page started */
        else if ((v = cli_option(words, nwords, &i, "--job")))
            w->job = v;
        else if (mattermost && (v = cli_option(words, nwords, &i, "--team")))
            w->team = v;
        else if (!strcmp(w->format, "discord") &&
                 (v = cli_option(words, nwords, &i, "--structure")))
            w->structure = v;
        else if (!archive && (v = cli_option(words, nwords, &i, "--media")))
            w->media = v;
        else if (!archive && !strcmp(words[i], "--no-fetch"))
            w->no_fetch = 1;
        else if ((v = cli_option(words, nwords, &i, "--batch")))
            w->batch = strtol(v, NULL, 10);
        else if (!w->path && strncmp(words[i], "--", 2))
            w->path = words[i];
        else {
            fprintf(stderr, "praca import: unexpected argument '%s'\n%s", words[i], USAGE);
            return 2;
        }
    }
    if (!w->path || (!archive && !w->server) || (w->server && !*w->server) ||
        !w->owner == !w->owner_id || w->batch < 1 || w->batch > BATCH_MAX) {
        fputs(USAGE, stderr);
        return 2;
    }
    return 0;
}

/* The owner's ID, by username (any case) or as given: 0, or 1 (said why). */
static int find_owner(struct cli_import *im, const char *owner, const char *owner_id)
{
    if (owner_id) {
        snprintf(im->owner_id, sizeof im->owner_id, "%s", owner_id);
        return 0;
    }
    struct store_login login;
    char name[64];
    snprintf(name, sizeof name, "%s", owner);
    for (char *p = name; *p; p++)
        *p = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
    int found = store_login_find(im->db, name, &login);
    if (found == 0)
        fprintf(stderr, "praca import: no person named %s\n", owner);
    if (found != 1)
        return 1;
    snprintf(im->owner_id, sizeof im->owner_id, "%s", login.id);
    return 0;
}

/* Where the export's files are looked for: --media, else the export's own folder (a zip's is
 * where it unzips, set by its reader). An import the page started reads no folder
 * but a zip's it unpacked itself: the upload's own sits among other people's. */
static int files_from(const struct config *cfg, const struct words *w, struct cli_import *im)
{
    char folder[1024] = "";
    struct stat st;
    if (w->media) {
        snprintf(folder, sizeof folder, "%s", w->media);
    } else if (!w->job && strcmp(w->format, "slack") && !cli_import_is_zip(w->path) &&
               !stat(w->path, &st)) {
        snprintf(folder, sizeof folder, "%s", w->path);
        char *slash = strrchr(folder, '/');
        if (!S_ISDIR(st.st_mode) && slash)
            *slash = '\0'; /* the file's folder */
        else if (!S_ISDIR(st.st_mode))
            snprintf(folder, sizeof folder, ".");
    }
    struct cli_import_files_from from = {folder[0] ? folder : NULL, !w->no_fetch,
                                         w->job ? (int64_t)cfg->import_max_mb << 20 : -1};
    im->files = cli_import_files_new(cfg, &from);
    return im->files ? 0 : -1;
}

int cli_import(const struct config *cfg, char **words, int nwords)
{
    struct words w;
    int bad = read_words(words, nwords, &w);
    if (bad)
        return bad;
    struct cli_import im = {
        .format = w.format, .server_name = w.server, .batch = w.batch, .job_id = w.job};
    map_init(&im.persons);
    map_init(&im.roles);
    int rc = 1;
    int archive = !strcmp(w.format, "praca-archive");
    if ((im.db = cli_open_store(cfg)) && !find_owner(&im, w.owner, w.owner_id) &&
        (archive || !files_from(cfg, &w, &im)))
        rc = (!strcmp(w.format, "discord")         ? cli_import_discord(&im, w.path, w.structure)
              : !strcmp(w.format, "praca-archive") ? cli_import_archive(&im, w.path, cfg)
              : !strcmp(w.format, "slack")         ? cli_import_slack(&im, w.path)
                                                   : cli_import_mattermost(&im, w.path, w.team))
                 ? 1
                 : 0;
    long files, missing;
    cli_import_files_counts(im.files, &files, &missing);
    if (!rc)
        printf("imported into server %s: %ld channels, %ld messages written, %ld there already, "
               "%ld left out, %ld people, %ld files brought, %ld left as links\n",
               im.server_id, im.channels_written, im.written, im.known, im.left_out, im.people,
               files, missing);
    cli_import_files_free(im.files);
    cli_import_free(&im);
    store_close(im.db);
    return rc;
}
