/*
 * A server's portable archive from the page (docs/importing.md, "From another Praça"): its owner
 * starts one (POST /api/servers/:sid/archives), follows it (GET …/archives) and downloads it for
 * a week (GET …/archives/:id/file). It is made as `praca export` makes it (store/archive.h), as
 * people's data archives are (exports.h): one at a time per node and per person, so however
 * large the server its memory stays flat and no request waits on it.
 */
#include <http_parser.h>
#include <stdio.h>

#include "api/access.h"
#include "api/exports.h"
#include "api/limits.h"
#include "api/reply.h"
#include "store/archive.h"

static const struct api_limit ARCHIVE_LIMIT = {"server-archive", 3, 24 * 3600 * 1000};

static int write_server(FILE *f, struct api_service *svc, struct store *db, const char *user_id,
                        const char *server_id)
{
    (void)user_id;
    struct store_archive_counts n;
    return store_archive_write(f, db, &svc->files, server_id, &n) ? -1 : 0;
}

/* The server, when the caller owns it (else answered). */
static const char *owned_server(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (sid && !a.is_owner) {
        api__error(c, 403, "Só o dono pode exportar o servidor");
        return NULL;
    }
    return sid;
}

static void archive_start(struct api_call *c)
{
    const char *sid = owned_server(c);
    if (sid && !api__limit_hit(c, &ARCHIVE_LIMIT))
        api__archive_start(c, sid, "archive", write_server);
}

static void archives_list(struct api_call *c)
{
    const char *sid = owned_server(c);
    if (sid)
        api__archive_list(c, sid, "archives");
}

static void archive_file(struct api_call *c)
{
    const char *sid = owned_server(c);
    if (sid)
        api__archive_send(c, sid, "application/x-ndjson", "servidor-%.8s.praca");
}

const struct api_route api_server_archive_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/archives", archive_start, API_PERSON),
    API_ROUTE(GET, "/api/servers/:sid/archives", archives_list, API_PERSON),
    API_ROUTE(GET, "/api/servers/:sid/archives/:id/file", archive_file, API_PERSON),
    {0},
};
