/*
 * POST /api/gateway/ticket: a single-use ticket for the caller's session, for pages signed in
 * with the HttpOnly cookie, which cannot read their token: they CONNECT to the gateway with
 * {ticket} instead (state/tickets.h).
 */
#include <http_parser.h>

#include "api/api.h"
#include "api/reply.h"
#include "api/limits.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "state/state.h"
#include "state/tickets.h"

static void ticket(struct api_call *c)
{
    if (api__limit_hit(c, &API_LIMIT_GATEWAY_TICKETS))
        return;
    char t[CRYPTO_TOKEN_LEN + 1];
    int64_t now = clock_now_ms();
    int rc =
        state_tickets_issue(state_tickets(c->svc->state), c->me.token_hash, c->me.user_id, now, t);
    if (rc == -2) {
        api__error(c, 429,
                   "Tickets demais em aberto para esta conta (no máximo 8); use os que "
                   "já tem ou espere um minuto");
        return;
    }
    if (rc) { /* -3: past the pace the gateway admits sessions at (Retry-After: 1) */
        api__busy(c, "Muitas conexões sendo abertas agora; tente de novo em instantes");
        return;
    }
    api__reply(c, 200,
               json_pack("{ssso}", "ticket", t, "expiresAt", jsonout_time(now + TICKET_TTL_MS)));
}

const struct api_route api_ticket_routes[] = {
    API_ROUTE(POST, "/api/gateway/ticket", ticket, API_PERSON, .limit = &API_LIMIT_GATEWAY_TICKETS),
    {0},
};
