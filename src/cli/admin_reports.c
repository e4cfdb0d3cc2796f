/*
 * praca admin reports: what people reported in DMs, which reach no server's moderators but the
 * instance's operators. `reports [--all]` lists them (open ones, or every one), newest first, with
 * the message as it was reported; `reports resolve|dismiss|reopen <id> [--note TEXT]` settles one.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "store/reports.h"

#define OPERATOR "operator" /* who settled a report from the command line */

static const char USAGE[] =
    "usage: praca admin reports [--all]\n"
    "       praca admin reports resolve|dismiss|reopen <id> [--note TEXT]\n";

static const char *text(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "-";
}

static void print_one(json_t *r)
{
    json_t *content = json_object_get(r, "content");
    printf("%s  %s  %s\n  reported: %s (@%s)  by: %s (@%s)  reason: %s\n", text(r, "id"),
           text(r, "createdAt"), text(r, "status"), text(r, "targetName"),
           text(r, "targetUsername"), text(r, "reporterName"), text(r, "reporterUsername"),
           text(r, "reason"));
    if (json_string_value(json_object_get(r, "details")))
        printf("  details: %s\n", text(r, "details"));
    if (content)
        printf("  message %s: %s\n", text(content, "id"), text(content, "content"));
    if (json_string_value(json_object_get(r, "note")))
        printf("  note: %s\n", text(r, "note"));
}

static int list(const struct config *cfg, int all)
{
    struct store *db = cli_open_store(cfg);
    json_t *reports = db ? store_reports_json(db, NULL, all ? NULL : "open", NULL) : NULL;
    store_close(db);
    if (!reports) {
        fputs("praca admin: the reports could not be read\n", stderr);
        return 1;
    }
    size_t i;
    json_t *r;
    json_array_foreach(reports, i, r)
    {
        print_one(r);
    }
    if (!json_array_size(reports))
        puts(all ? "no reports" : "no open reports");
    json_decref(reports);
    return 0;
}

static int settle(const struct config *cfg, const char *status, char **words, int n)
{
    const char *id = NULL, *note = NULL;
    for (int i = 2; i < n; i++) {
        if (!strcmp(words[i], "--note") && i + 1 < n)
            note = words[++i];
        else if (!id)
            id = words[i];
        else
            id = NULL, i = n;
    }
    if (!id) {
        fputs(USAGE, stderr);
        return 2;
    }
    struct store *db = cli_open_store(cfg);
    struct store_report_settle s = {id, NULL, status, OPERATOR, note, clock_now_ms(), 0};
    int rc = db ? store_report_settle_db(db, &s) : STORE_ERR;
    store_close(db);
    if (rc < 0 || !s.changes) {
        fprintf(stderr, "praca admin: %s\n",
                rc < 0 ? "the report could not be changed" : "no report of a DM with that id");
        return 1;
    }
    log_info("reports: %s %s by the operator%s%s", id, status, note ? ": " : "", note ? note : "");
    printf("report %s %s\n", id, status);
    return 0;
}

int cli_admin_reports(const struct config *cfg, char **words, int n)
{
    const char *what = n > 1 ? words[1] : "";
    if (n == 1 || (n == 2 && !strcmp(what, "--all")))
        return list(cfg, n == 2);
    if (!strcmp(what, "resolve"))
        return settle(cfg, "resolved", words, n);
    if (!strcmp(what, "dismiss"))
        return settle(cfg, "dismissed", words, n);
    if (!strcmp(what, "reopen"))
        return settle(cfg, "open", words, n);
    fputs(USAGE, stderr);
    return 2;
}
