/* Every route that changes something counts a limit: its own, or the write limit the
 * dispatcher counts for it; a public one (no account to count against) must name its own. */
#include <criterion/criterion.h>
#include <http_parser.h>
#include <string.h>

#include "api/api.h"
#include "api/limits.h"

Test(route_limits, every_mutating_route_counts_a_limit)
{
    size_t mutating = 0, own = 0;
    for (size_t t = 0; api_route_tables[t]; t++)
        for (const struct api_route *r = api_route_tables[t]; r->pattern; r++) {
            if (!api__route_mutates(r))
                continue;
            mutating++;
            own += r->limit != NULL;
            cr_expect_not_null(api__route_limit(r), "%s %s changes something and counts no limit",
                               http_method_str(r->method), r->pattern);
        }
    cr_assert_gt(mutating, 80, "the tables were walked");
    cr_assert_gt(own, 20, "routes with limits of their own name them");
}

Test(route_limits, the_interaction_token_routes_count_the_bots_own)
{
    static const struct {
        int method;
        const char *pattern;
        const struct api_limit *limit;
    } want[] = {
        {HTTP_PATCH, "/api/interactions/:id/:token/messages/@original", &API_LIMIT_BOT_EDIT},
        {HTTP_DELETE, "/api/interactions/:id/:token/messages/@original", &API_LIMIT_WRITE},
        {HTTP_POST, "/api/interactions/:id/:token/followups", &API_LIMIT_BOT_SEND},
        {HTTP_PATCH, "/api/bot/servers/:sid/channels/:cid/messages/:mid", &API_LIMIT_BOT_EDIT},
        {HTTP_POST, "/api/bot/servers/:sid/channels/:cid/messages", &API_LIMIT_BOT_SEND},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const struct api_route *found = NULL;
        for (size_t t = 0; api_route_tables[t]; t++)
            for (const struct api_route *r = api_route_tables[t]; r->pattern; r++)
                if (r->method == want[i].method && !strcmp(r->pattern, want[i].pattern))
                    found = r;
        cr_assert_not_null(found, "%s", want[i].pattern);
        cr_expect_eq(api__route_limit(found), want[i].limit, "%s counts %s", want[i].pattern,
                     want[i].limit->action);
    }
}
