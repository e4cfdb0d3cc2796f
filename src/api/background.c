/* Calls for a person with no request: see background.h. */
#include "api/background.h"

#include <stdio.h>
#include <string.h>

#include "store/db.h"

void api__as_person_begin(struct api_as_person *a, struct api_service *svc, struct store *db,
                          const char *user_id)
{
    memset(a, 0, sizeof *a);
    a->c = api__thread_call(svc, db);
    a->c.req = &a->req;
    a->c.res = &a->res;
    snprintf(a->c.me.user_id, sizeof a->c.me.user_id, "%s", user_id);
}

void api__as_person_refusal(const struct api_as_person *a, char *out, size_t cap)
{
    json_t *body = a->res.body ? json_loadb(a->res.body, a->res.body_len, 0, NULL) : NULL;
    const char *why = json_string_value(json_object_get(body, "error"));
    snprintf(out, cap, "%s", why ? why : "Erro interno");
    json_decref(body);
}

void api__as_person_end(struct api_as_person *a)
{
    api__call_end(&a->c);
    http_response_cleanup(&a->res);
    store_read_release(a->c.db);
}
