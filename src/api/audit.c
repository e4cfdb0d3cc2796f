/* The audit log: see audit.h. Also GET /api/servers/:sid/audit-log. */
#include "api/audit.h"

#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/access.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "core/log.h"
#include "core/uuid.h"
#include "domain/text.h"
#include "http/request.h"
#include "store/audit.h"

#define AUDIT_PAGE_MAX 100

/* The reason decoded into out (cap ≥ 4 * AUDIT_REASON_MAX + 1): 1 given, 0 none, -1 bad. */
static int reason_of(const struct api_call *c, char *out, size_t cap)
{
    struct slice v = http_request_header(c->req, "x-audit-log-reason");
    out[0] = 0;
    if (!v.ptr)
        return 0;
    size_t len = 0;
    if (v.len > cap * 3 || http_url_decode(v, out, cap, &len))
        return -1;
    out[len] = 0;
    size_t chars = rule_text_chars(out, len);
    if (strlen(out) != len || chars > AUDIT_REASON_MAX || rule_text_has_control(out, len, 0))
        return -1;
    return len > 0;
}

int api__audit_reason_check(struct api_call *c)
{
    char reason[4 * AUDIT_REASON_MAX + 1];
    if (reason_of(c, reason, sizeof reason) >= 0)
        return 0;
    api__bad(c, "X-Audit-Log-Reason",
             "deve ter até 512 caracteres, em UTF-8 codificado para URL, sem controles");
    return -1;
}

void api__audit(struct api_call *c, const char *sid, const char *action, const char *target_type,
                const char *target_id, json_t *changes)
{
    char reason[4 * AUDIT_REASON_MAX + 1], id[UUID_LEN + 1];
    int has_reason = reason_of(c, reason, sizeof reason) == 1;
    char *text = changes && json_array_size(changes) ? jsonout_dump(changes, NULL) : NULL;
    json_decref(changes);
    uuid_v7(id);
    struct store_audit_entry e = {.id = id,
                                  .server_id = sid,
                                  .actor_id = c->me.user_id,
                                  .application_id = c->me.is_bot ? c->me.app_id : NULL,
                                  .action = action,
                                  .target_type = target_type,
                                  .target_id = target_id,
                                  .changes_json = text,
                                  .reason = has_reason ? reason : NULL,
                                  .now = clock_now_ms()};
    /* On the writer lane the entry joins the change's own transaction. */
    int rc = c->held ? store_audit_insert_at(c->db, &e) : store_audit_insert(c->svc->writer, &e);
    if (rc < 0)
        log_error("audit: %s in %s not recorded", action, sid);
    free(text);
}

json_t *api__audit_changes(json_t *before, json_t *after, const char *const *keys)
{
    json_t *out = json_array();
    for (; *keys; keys++) {
        json_t *old = json_object_get(before, *keys), *now = json_object_get(after, *keys);
        if ((old || now) && !(old && now && json_equal(old, now)))
            json_array_append_new(out, json_pack("{sssOsO}", "key", *keys, "old",
                                                 old ? old : json_null(), "new",
                                                 now ? now : json_null()));
    }
    return out;
}

void api__audit_update(struct api_call *c, const char *sid, const char *action,
                       const char *target_type, const char *target_id, json_t *before,
                       json_t *after, const char *const *keys)
{
    api__audit(c, sid, action, target_type, target_id, api__audit_changes(before, after, keys));
    json_decref(before);
    json_decref(after);
}

void api__audit_object(struct api_call *c, const char *sid, const char *action,
                       const char *target_type, const char *target_id, json_t *what, int gone)
{
    json_t *changes = json_array();
    const char *key;
    json_t *v;
    json_object_foreach(what, key, v)
    {
        if (!json_is_null(v))
            json_array_append_new(changes,
                                  json_pack("{sssOsO}", "key", key, "old", gone ? v : json_null(),
                                            "new", gone ? json_null() : v));
    }
    json_decref(what);
    api__audit(c, sid, action, target_type, target_id, changes);
}

/* GET /api/servers/:sid/audit-log[?actorId&action&targetId&before&limit] (VER_AUDITORIA) */
static void audit_list(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_VER_AUDITORIA);
    if (!sid)
        return;
    struct slice v;
    char actor[UUID_LEN + 1] = "", target[UUID_LEN + 1] = "", before[UUID_LEN + 1] = "",
                          action[48] = "";
    struct {
        const char *name;
        char *out;
        size_t cap;
        int id;
    } filters[] = {{"actorId", actor, sizeof actor, 1},
                   {"targetId", target, sizeof target, 1},
                   {"before", before, sizeof before, 1},
                   {"action", action, sizeof action, 0}};
    for (size_t i = 0; i < sizeof filters / sizeof *filters; i++) {
        if (!http_query_param(c->req->query, filters[i].name, &v))
            continue;
        if (slice_copy(v, filters[i].out, filters[i].cap) ||
            (filters[i].id && !uuid_valid(filters[i].out, strlen(filters[i].out)))) {
            api__bad(c, filters[i].name, filters[i].id ? "deve ser um ID" : "ação desconhecida");
            return;
        }
    }
    long long limit = 50;
    if (http_query_param(c->req->query, "limit", &v) &&
        slice_to_i64(v, 1, AUDIT_PAGE_MAX, &limit)) {
        api__bad(c, "limit", "deve ser um número de 1 a 100");
        return;
    }
    struct store_audit_query q = {.server_id = sid,
                                  .actor_id = actor[0] ? actor : NULL,
                                  .action = action[0] ? action : NULL,
                                  .target_id = target[0] ? target : NULL,
                                  .before = before[0] ? before : NULL,
                                  .limit = limit,
                                  .now = clock_now_ms()};
    int has_more = 0;
    json_t *list = store_audit_json(c->db, &q, &has_more);
    if (!list) {
        api__internal(c);
        return;
    }
    api__reply(c, 200, json_pack("{sosb}", "entries", list, "hasMore", has_more));
}

const struct api_route api_audit_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/audit-log", audit_list, API_ANY),
    {0},
};
