/* GET /api/openapi.json: docs/openapi.json, compiled into the binary (with docs/api.md). */
#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/embed.h"

extern const struct embedded_file praca_docs[];

static void openapi(struct api_call *c)
{
    const struct embedded_file *f = embed_find(praca_docs, "openapi.json", 12);
    char *text = f ? malloc(f->len + 1) : NULL;
    if (!text) {
        api__internal(c);
        return;
    }
    memcpy(text, f->data, f->len + 1);
    c->answered = 1;
    http_response_set(c->res, 200, "application/json; charset=utf-8", text, f->len);
}

const struct api_route api_openapi_routes[] = {
    API_ROUTE(GET, "/api/openapi.json", openapi, API_PUBLIC),
    {0},
};
