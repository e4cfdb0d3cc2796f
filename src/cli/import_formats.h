/*
 * The formats praca import reads, each a reader of its own that fills the server through
 * import_write.h: 0 imported, -1 stopped (said why on stderr).
 */
#ifndef PRACA_CLI_IMPORT_FORMATS_H
#define PRACA_CLI_IMPORT_FORMATS_H

#include "cli/import_write.h"

/* DiscordChatExporter's JSON: a file, or a folder of files (import_discord.c). */
int cli_import_discord(struct cli_import *im, const char *path);
/* Mattermost's bulk export, JSONL (import_mattermost.c); team: which team, NULL when the export
 * has one. */
int cli_import_mattermost(struct cli_import *im, const char *path, const char *team);

/* A Slack workspace's export, unzipped into a folder (import_slack.c). */
int cli_import_slack(struct cli_import *im, const char *dir);

#endif
