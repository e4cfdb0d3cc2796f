/* `praca routes`: see routes.h. */
#include "api/routes.h"

#include <http_parser.h>

#include "api/api.h"
#include "api/limits.h"

static const char *const AUTH[] = {"public", "person", "bot", "person or bot"};
static const char *const LANE[] = {"worker", "writer", "hashing"};
static const char *const BODY[] = {"small", "large", "upload", "import"};

/* A window as the docs say it: "10 per 10 s", "20 per minute", "10 per hour". */
static void window(char *out, size_t size, const struct api_limit *l)
{
    int64_t ms = l->window_ms;
    if (ms == 3600 * 1000)
        snprintf(out, size, "%u per hour", l->count);
    else if (ms == 60 * 1000)
        snprintf(out, size, "%u per minute", l->count);
    else if (ms % 1000 == 0)
        snprintf(out, size, "%u per %lld s", l->count, (long long)(ms / 1000));
    else
        snprintf(out, size, "%u per %lld ms", l->count, (long long)ms);
}

/* What a route counts: its limit's name and window, or why it has none. */
static void limit_of(char *out, size_t size, const struct api_route *r, int markdown)
{
    const struct api_limit *l = api__route_limit(r);
    char w[48];
    if (!l)
        snprintf(out, size, "%s", markdown ? "—" : "-");
    else if (!l->count) /* counted by the handler against its own key (an address, a token) */
        snprintf(out, size, "%s", l->action);
    else {
        window(w, sizeof w, l);
        snprintf(out, size, "%s: %s", l->action, w);
    }
}

void api_routes_print(FILE *out, int markdown)
{
    if (markdown)
        fputs("| method | path | caller | lane | body | limit | counted ahead |\n"
              "|---|---|---|---|---|---|---|\n",
              out);
    for (size_t t = 0; api_route_tables[t]; t++)
        for (const struct api_route *r = api_route_tables[t]; r->pattern; r++) {
            char limit[96];
            limit_of(limit, sizeof limit, r, markdown);
            const char *method = http_method_str((enum http_method)r->method);
            const char *ahead = api__limit_ahead(r) ? "yes" : "no";
            if (markdown)
                fprintf(out, "| %s | `%s` | %s | %s | %s | %s | %s |\n", method, r->pattern,
                        AUTH[r->auth], LANE[api__lane(r)], BODY[r->body], limit, ahead);
            else
                fprintf(out, "%-6s %-72s %-13s %-7s %-6s %-34s %s\n", method, r->pattern,
                        AUTH[r->auth], LANE[api__lane(r)], BODY[r->body], limit, ahead);
        }
}
