/*
 * The commands other than `serve`, each run against the database file named by --data while a
 * server may be running on it. They print for people and return an exit status.
 */
#ifndef PRACA_CLI_CLI_H
#define PRACA_CLI_CLI_H

struct config;
struct store;

/* The database named by --data (or the PostgreSQL URL), migrated; NULL when it cannot be
 * opened. */
struct store *cli_open_store(const struct config *cfg);

/* praca admin suspend|unsuspend|apps|people|revoke-sessions … */
int cli_admin(const struct config *cfg, char **words, int nwords);
/* praca admin reports [--all] | resolve|dismiss|reopen <id> [--note TEXT]: reports of DMs */
int cli_admin_reports(const struct config *cfg, char **words, int nwords);
/* praca admin vapid [--rotate]: Web Push's public key, or a new pair (every device subscribes
 * again) */
int cli_admin_vapid(const struct config *cfg, int rotate);
/* praca import discord|mattermost|slack|praca-archive <path> --server NAME --owner USERNAME …
 * (import.c) */
int cli_import(const struct config *cfg, char **words, int nwords);
/* praca export --server ID FILE: the server as a portable archive (export.c) */
int cli_export(const struct config *cfg, char **words, int nwords);
/* The value of --name at words[*i] (as "--name V", moving *i past V, or "--name=V"); NULL when
 * words[*i] is not that option. */
const char *cli_option(char **words, int n, int *i, const char *name);
/* praca backup FILE */
int cli_backup(const struct config *cfg, char **words, int nwords);
/* praca migrate */
int cli_migrate(const struct config *cfg);

#endif
