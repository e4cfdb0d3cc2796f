/*
 * praca import discord <path> --server NAME --owner USERNAME [--batch N]: a Discord server's
 * history, as DiscordChatExporter's JSON (a file per channel or thread, or a folder of them),
 * becomes a new Praça server owned by USERNAME: its categories, channels and threads, its
 * authors as placeholder members, their messages with their original times, replies, reactions
 * and pins. It writes on its own connection, N messages per transaction, beside a live server,
 * which follows within a second; it logs no event (history is not news), and run again after a
 * crash it writes nothing twice (import_ids.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/import_write.h"
#include "core/clock.h"
#include "core/config.h"
#include "domain/import_discord.h"
#include "domain/import_ids.h"
#include "domain/json_split.h"
#include "domain/permissions.h"
#include "store/people.h"

#define BATCH_DEFAULT 200
#define CHUNK         ((size_t)64 << 10)
#define HEADER_MAX    ((size_t)1 << 20) /* a file without its messages */
#define MESSAGE_MAX   ((size_t)4 << 20) /* one message, as the export writes it */
#define BATCH_MAX     10000
#define FILES_MAX     10000

static const char USAGE[] =
    "usage: praca import discord <file.json|folder> --server NAME --owner USERNAME [--batch N]\n";

/* The export's files: path itself, or the .json files in it, by name. */
static int list_files(const char *path, char ***out, size_t *n)
{
    *n = 0;
    DIR *d = opendir(path);
    if (!d) {
        if (!(*out = malloc(sizeof **out)) || !((*out)[0] = strdup(path)))
            return -1;
        *n = 1;
        return 0;
    }
    size_t cap = 16;
    *out = malloc(cap * sizeof **out);
    for (struct dirent *e; *out && (e = readdir(d)) && *n < FILES_MAX;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char **more = *n == cap ? realloc(*out, (cap *= 2) * sizeof **out) : *out;
        size_t size = strlen(path) + len + 2;
        char *file = more ? malloc(size) : NULL;
        if (!file) {
            *out = more ? more : *out;
            break;
        }
        snprintf(file, size, "%s/%s", path, e->d_name);
        *out = more;
        (*out)[(*n)++] = file;
    }
    closedir(d);
    return *out ? 0 : -1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_files(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

/* A file of the export: its header (the document, its messages left out) and channel. */
struct export_file {
    const char *path;
    json_t *header;
    struct rule_discord_channel c;
    size_t messages; /* objects in its messages array */
};

/* Reads path a chunk at a time, each element of its messages array to on_element; returns the
 * header parsed (the caller frees) or NULL, said why. *stray gets the elements that were not
 * objects. */
static json_t *stream(const char *path, int (*on_element)(void *, const char *, size_t), void *arg,
                      size_t *stray)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "praca import: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    struct rule_json_split split;
    rule_json_split_init(&split, "messages", HEADER_MAX, MESSAGE_MAX);
    char *chunk = malloc(CHUNK);
    const char *why = NULL;
    int rc = chunk ? 0 : -1;
    for (size_t n; !rc && (n = fread(chunk, 1, CHUNK, f)) > 0;)
        rc = rule_json_split_feed(&split, chunk, n, on_element, arg, &why);
    json_t *header = NULL;
    if (rc == -1 && why)
        fprintf(stderr, "praca import: %s: %s\n", path, why);
    if (!rc && ferror(f))
        fprintf(stderr, "praca import: %s: %s\n", path, strerror(errno));
    else if (!rc) {
        json_error_t jerr;
        header = json_loadb(split.header.data, split.header.len, JSON_REJECT_DUPLICATES, &jerr);
        if (!header)
            fprintf(stderr, "praca import: %s: line %d: %s\n", path, jerr.line, jerr.text);
    }
    *stray = split.stray;
    free(chunk);
    fclose(f);
    rule_json_split_cleanup(&split);
    return header;
}

static int count_element(void *arg, const char *json, size_t len)
{
    (void)json, (void)len;
    ++*(size_t *)arg;
    return 0;
}

/* Reads every file's header and counts its messages; notes the channels (not threads), for
 * threads to find their parents; the guild of the first. 0, or -1 (said why). */
static int survey(struct cli_import *im, struct export_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct export_file *f = &files[i];
        size_t stray;
        const char *why = NULL;
        if (!(f->header = stream(f->path, count_element, &f->messages, &stray)))
            return -1;
        if (rule_discord_channel(f->header, &f->c, &why)) {
            fprintf(stderr, "praca import: %s: %s\n", f->path, why);
            return -1;
        }
        if (!im->guild_id[0]) {
            snprintf(im->guild_id, sizeof im->guild_id, "%s", f->c.guild_id);
        } else if (strcmp(im->guild_id, f->c.guild_id)) {
            fprintf(stderr, "praca import: %s: another server's export (%s, not %s)\n", f->path,
                    f->c.guild_id, im->guild_id);
            return -1;
        }
        if (!f->c.is_thread && cli_import_note_channel(im, f->c.id))
            return -1;
    }
    return 0;
}

/* A file's messages on their way in, a batch at a time. */
struct pour {
    struct cli_import *im;
    struct export_file *f;
    struct cli_import_place place;
    json_t **batch;
    size_t n, done;
};

static int pour_batch(struct pour *p)
{
    int rc = p->n ? cli_import_messages(p->im, &p->place, p->batch, p->n) : 0;
    for (size_t i = 0; i < p->n; i++)
        json_decref(p->batch[i]);
    p->done += p->n;
    p->n = 0;
    if (!rc) {
        printf("#%s: %zu of %zu messages\n", p->f->c.name, p->done, p->f->messages);
        fflush(stdout);
    }
    return rc;
}

static int pour_element(void *arg, const char *json, size_t len)
{
    struct pour *p = arg;
    json_error_t jerr;
    json_t *m = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!m) {
        fprintf(stderr, "praca import: %s: a message left out: %s\n", p->f->path, jerr.text);
        p->im->left_out++;
        return 0;
    }
    p->batch[p->n++] = m;
    return p->n == (size_t)p->im->batch ? pour_batch(p) : 0;
}

/* Imports the files of threads (threads 1) or of channels (0): channels first, so threads
 * find them. */
static int import_files(struct cli_import *im, struct export_file *files, size_t n, int threads)
{
    struct pour p = {.im = im, .batch = malloc((size_t)im->batch * sizeof *p.batch)};
    int rc = p.batch ? 0 : -1;
    for (size_t i = 0; !rc && i < n; i++) {
        if (files[i].c.is_thread != threads)
            continue;
        p.f = &files[i];
        p.done = 0;
        size_t stray = 0;
        if ((rc = cli_import_channel(im, &p.f->c, &p.place)))
            break;
        json_t *again = stream(p.f->path, pour_element, &p, &stray);
        rc = again ? pour_batch(&p) : -1;
        for (size_t k = 0; k < p.n; k++) /* what a failure left unwritten */
            json_decref(p.batch[k]);
        p.n = 0;
        im->left_out += (long)stray;
        json_decref(again);
    }
    free(p.batch);
    return rc;
}

/* Reads the words after "discord": 0, or 2 (usage said). */
static int read_words(char **words, int nwords, const char **path, const char **server,
                      const char **owner, long *batch)
{
    *path = *server = *owner = NULL;
    *batch = BATCH_DEFAULT;
    for (int i = 1; i < nwords; i++) {
        const char *v;
        if ((v = cli_option(words, nwords, &i, "--server")))
            *server = v;
        else if ((v = cli_option(words, nwords, &i, "--owner")))
            *owner = v;
        else if ((v = cli_option(words, nwords, &i, "--batch")))
            *batch = strtol(v, NULL, 10);
        else if (!*path && strncmp(words[i], "--", 2))
            *path = words[i];
        else {
            fprintf(stderr, "praca import: unexpected argument '%s'\n%s", words[i], USAGE);
            return 2;
        }
    }
    if (!*path || !*server || !**server || !*owner || *batch < 1 || *batch > BATCH_MAX) {
        fputs(USAGE, stderr);
        return 2;
    }
    return 0;
}

static int run(struct cli_import *im, const char *path)
{
    char **names = NULL;
    size_t n = 0;
    if (list_files(path, &names, &n) || !n) {
        fprintf(stderr, "praca import: %s: no export files\n", path);
        free_files(names, n);
        return 1;
    }
    qsort(names, n, sizeof *names, by_name);
    struct export_file *files = calloc(n, sizeof *files);
    for (size_t i = 0; files && i < n; i++)
        files[i].path = names[i];
    int rc = !files || survey(im, files, n) || cli_import_begin(im) ||
             import_files(im, files, n, 0) || import_files(im, files, n, 1) ||
             cli_import_finish(im);
    for (size_t i = 0; files && i < n; i++)
        json_decref(files[i].header);
    free(files);
    free_files(names, n);
    if (rc)
        return 1;
    printf("imported into server %s: %ld channels, %ld messages written, %ld there already, "
           "%ld left out, %ld people\n",
           im->server_id, im->channels_written, im->written, im->known, im->left_out, im->people);
    return 0;
}

int cli_import(const struct config *cfg, char **words, int nwords)
{
    if (nwords < 1 || strcmp(words[0], "discord")) {
        fputs(USAGE, stderr);
        return 2;
    }
    const char *path, *server, *owner;
    long batch;
    int bad = read_words(words, nwords, &path, &server, &owner, &batch);
    if (bad)
        return bad;
    struct cli_import im = {.format = "discord", .server_name = server, .batch = batch};
    map_init(&im.persons);
    map_init(&im.roles);
    if (!(im.db = cli_open_store(cfg)))
        return 1;
    struct store_login login;
    char name[64];
    snprintf(name, sizeof name, "%s", owner);
    for (char *p = name; *p; p++)
        *p = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
    int found = store_login_find(im.db, name, &login);
    int rc = 1;
    if (found == 1) {
        snprintf(im.owner_id, sizeof im.owner_id, "%s", login.id);
        rc = run(&im, path);
    } else if (found == 0) {
        fprintf(stderr, "praca import: no person named %s\n", owner);
    }
    cli_import_free(&im);
    store_close(im.db);
    return rc;
}
