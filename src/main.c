/*
 * praca: the command line. `serve` runs the service (serve/), `migrate`, `backup`, `admin`,
 * `import` and `export` work beside it (cli/), `routes` prints the API's routes. Configuration
 * comes from PRACA_* variables and flags.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "api/routes.h"
#include "cli/cli.h"
#include "core/config.h"
#include "core/log.h"
#include "serve/serve.h"

#ifndef PRACA_VERSION
#define PRACA_VERSION "unknown"
#endif

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(config_usage(), stderr);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[1], "help")) {
            fputs(config_usage(), stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--version") || !strcmp(argv[1], "version")) {
            printf("praca %s\n", PRACA_VERSION);
            return 0;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    static struct config cfg;
    config_defaults(&cfg);
    char err[256];
    char *positional[CONFIG_POSITIONAL_MAX];
    int npos = 0;
    if (config_from_env(&cfg, err, sizeof err) ||
        config_from_args(&cfg, argc, argv, 2, positional, &npos, err, sizeof err)) {
        fprintf(stderr, "praca: %s\n", err);
        return 2;
    }
    log_set_level((enum log_level)cfg.log_level);
    if (strcmp(cfg.sync, "normal") && strcmp(cfg.sync, "full")) {
        fprintf(stderr, "praca: --sync: normal or full, not '%s'\n", cfg.sync);
        return 2;
    }
    if (strcmp(cfg.log_format, "text") && strcmp(cfg.log_format, "json")) {
        fprintf(stderr, "praca: --log-format: text or json, not '%s'\n", cfg.log_format);
        return 2;
    }
    log_set_json(!strcmp(cfg.log_format, "json"));
    const char *cmd = argv[1];
    if (!strcmp(cmd, "migrate") && npos == 0)
        return cli_migrate(&cfg);
    if (!strcmp(cmd, "backup"))
        return cli_backup(&cfg, positional, npos);
    if (!strcmp(cmd, "serve") && npos == 0)
        return serve_run(&cfg);
    if (!strcmp(cmd, "admin"))
        return cli_admin(&cfg, positional, npos);
    if (!strcmp(cmd, "import"))
        return cli_import(&cfg, positional, npos);
    if (!strcmp(cmd, "export"))
        return cli_export(&cfg, positional, npos);
    if (!strcmp(cmd, "routes") &&
        (npos == 0 || (npos == 1 && !strcmp(positional[0], "markdown")))) {
        api_routes_print(stdout, npos == 1);
        return 0;
    }
    fprintf(stderr, "praca: unknown command or argument (see praca --help)\n");
    return 2;
}
