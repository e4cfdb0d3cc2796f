/*
 * The formats praca import reads, each a reader of its own that fills the server through
 * import_write.h: 0 imported, -1 stopped (said why on stderr).
 */
#ifndef PRACA_CLI_IMPORT_FORMATS_H
#define PRACA_CLI_IMPORT_FORMATS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/import_write.h"

struct config;

/* DiscordChatExporter's JSON: a file, a folder of files, or that folder zipped (with the files
 * --media downloaded beside them) (import_discord.c); structure (NULL: none) a file of the
 * server's roles and channels as Discord's API gives them. */
int cli_import_discord(struct cli_import *im, const char *path, const char *structure);
/* That structure, written before the history (import_discord_guild.c): 0, or -1. */
int cli_import_discord_structure(struct cli_import *im, const char *path, const char *guild_id);
/* Mattermost's bulk export, JSONL (import_mattermost.c); team: which team, NULL when the export
 * has one. */
int cli_import_mattermost(struct cli_import *im, const char *path, const char *team);

/* A Slack workspace's export: its zip, or the folder it unzips to (import_slack.c). */
int cli_import_slack(struct cli_import *im, const char *path);

/* A zip archive (import_zip.c): whether path is one; unpacked into a new folder (root, made
 * under $TMPDIR), 0 or -1 said why (root may hold part of it: remove it either way); and a
 * folder removed with all it holds. */
int cli_import_is_zip(const char *path);
int cli_import_unzip(const char *zip, char root[1024]);
void cli_import_remove_tree(const char *path);
/* The export's folder in what a zip unpacked to (root): root itself when is_export says so, or
 * its one folder when the zip put everything under one. */
void cli_import_zip_folder(const char *root, int (*is_export)(const char *dir), char *out,
                           size_t cap);

/* A Praça server's archive (praca export; import_archive.c): its IDs kept, its files stored as
 * configuration says. */
int cli_import_archive(struct cli_import *im, const char *path, const struct config *cfg);

/* Calls fn with each line of the file as JSON (fn's to free) and its number (from 1), each line
 * at most line_max bytes: 0, or -1 (said why, or fn's nonzero). *read (unless NULL) follows the
 * bytes read. */
int cli_import_lines(const char *path, size_t line_max,
                     int (*fn)(json_t *v, long number, void *arg), void *arg, int64_t *read);
/* The file's size in bytes, or 0. */
int64_t cli_import_file_size(const char *path);

#endif
