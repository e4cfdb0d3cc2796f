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

#include "cli/cli.h"
#include "cli/import_formats.h"
#include "core/config.h"
#include "store/people.h"

#define BATCH_DEFAULT 200
#define BATCH_MAX     10000

static const char USAGE[] =
    "usage: praca import discord <file.json|folder> --server NAME --owner USERNAME"
    " [--structure guild.json] [--batch N]\n"
    "       praca import mattermost <export.jsonl> --server NAME --owner USERNAME [--team T]"
    " [--batch N]\n"
    "       praca import slack <unzipped export folder> --server NAME --owner USERNAME"
    " [--batch N]\n"
    "       praca import praca-archive <file> --owner USERNAME [--server NAME] [--batch N]\n";

struct words {
    const char *format, *path, *server, *owner, *owner_id, *team, *job, *structure;
    long batch;
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
    if ((im.db = cli_open_store(cfg)) && !find_owner(&im, w.owner, w.owner_id))
        rc = (!strcmp(w.format, "discord")         ? cli_import_discord(&im, w.path, w.structure)
              : !strcmp(w.format, "praca-archive") ? cli_import_archive(&im, w.path, cfg)
              : !strcmp(w.format, "slack")         ? cli_import_slack(&im, w.path)
                                                   : cli_import_mattermost(&im, w.path, w.team))
                 ? 1
                 : 0;
    if (!rc)
        printf("imported into server %s: %ld channels, %ld messages written, %ld there already, "
               "%ld left out, %ld people\n",
               im.server_id, im.channels_written, im.written, im.known, im.left_out, im.people);
    cli_import_free(&im);
    store_close(im.db);
    return rc;
}
