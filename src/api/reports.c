/*
 * Reports: a person reports a message (in a server or a DM) or a member, with a reason from a
 * short list and words of their own. A server's reports go to its people with
 * GERENCIAR_MENSAGENS (GET/PATCH /api/servers/:sid/reports…), each step in its audit log; a
 * DM's go to the instance's operators (`praca admin reports`). The message is copied when
 * reported, so deleting it later takes nothing from the report. See docs/api.md, "Reports".
 */
#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "api/access.h"
#include "api/audit.h"
#include "api/dm.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/place.h"
#include "api/reply.h"
#include "core/clock.h"
#include "domain/permissions.h"
#include "domain/reports.h"
#include "store/messages.h"
#include "store/reports.h"

static const struct api_limit REPORT_LIMIT = {"report", 20, 3600 * 1000};

struct filing {
    const char *sid, *cid, *mid, *target; /* sid NULL: a DM's, for the operators */
};

/* The message as it was, for the report to keep (malloc'd JSON text), or NULL. */
static char *copy_of(struct api_call *c, const char *mid)
{
    static const char *const KEPT[] = {"id",       "fromId",        "content",
                                       "embeds",   "attachments",   "createdAt",
                                       "editedAt", "applicationId", NULL};
    int rc;
    json_t *m = store_message_json(c->db, mid, &rc), *copy = json_object();
    for (const char *const *k = KEPT; m && *k; k++)
        json_object_set(copy, *k, json_object_get(m, *k));
    char *text = m ? json_dumps(copy, JSON_COMPACT) : NULL;
    json_decref(m);
    json_decref(copy);
    return text;
}

/* Reads {reason, details?}, files the report and answers 201 (200 when the same reporter's
 * open report of it was there already). */
static void file(struct api_call *c, const struct filing *f)
{
    json_t *body = api__body(c);
    const char *reason, *details = NULL;
    if (!body || api__in_str(c, body, "reason", 1, 32, API_IN_REQUIRED, &reason) < 0 ||
        api__in_str(c, body, "details", 0, RULE_REPORT_DETAILS_MAX, API_IN_NULLABLE | API_IN_TRIM,
                    &details) < 0)
        return;
    if (!rule_report_reason_known(reason)) {
        api__bad(c, "reason",
                 "deve ser spam, harassment, hate, violence, sexual, self_harm, "
                 "impersonation ou other");
        return;
    }
    if (!strcmp(f->target, c->me.user_id)) {
        api__bad(c, f->mid ? "messageId" : "userId", "não é possível denunciar a si mesmo");
        return;
    }
    if (api__limit_hit(c, &REPORT_LIMIT))
        return;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    char *content = f->mid ? copy_of(c, f->mid) : NULL;
    struct store_report_new r = {.id = id,
                                 .server_id = f->sid,
                                 .channel_id = f->cid,
                                 .message_id = f->mid,
                                 .target_id = f->target,
                                 .reporter_id = c->me.user_id,
                                 .reason = reason,
                                 .details = details && *details ? details : NULL,
                                 .content = content,
                                 .now = clock_now_ms()};
    int rc = (!f->mid || content) ? store_report_create(c->svc->writer, &r) : STORE_ERR;
    free(content);
    json_t *report = rc < 0 ? NULL : store_report_json(c->db, r.existing[0] ? r.existing : id, &rc);
    if (!report) {
        api__internal(c);
        return;
    }
    if (f->sid && !r.existing[0])
        api__audit(c, f->sid, "report.create", f->mid ? "message" : "member",
                   f->mid ? f->mid : f->target,
                   json_pack("[{sssnss}]", "key", "reason", "old", "new", reason));
    api__reply(c, r.existing[0] ? 200 : 201, json_pack("{so}", "report", report));
}

/* POST /api/servers/:sid/channels/:cid/messages/:mid/report: anyone who sees the message. */
static void message_report(struct api_call *c)
{
    struct place p;
    if (api__place(c, &p))
        return;
    const char *mid;
    struct store_message_ref ref;
    if (!api__place_message(c, &p, &mid, &ref)) {
        struct filing f = {p.sid, p.cid, mid, ref.author_id};
        file(c, &f);
    }
}

/* POST /api/dms/:cid/messages/:mid/report: one of the DM's two people; to the operators. */
static void dm_message_report(struct api_call *c)
{
    const char *cid = api__dm_of_caller(c);
    const char *mid = cid ? api__param_id(c, "mid", "Mensagem não encontrada") : NULL;
    struct store_message_ref ref;
    int found = mid ? store_message_ref(c->db, mid, &ref) : 0;
    if (!mid)
        return;
    if (found < 0) {
        api__internal(c);
    } else if (!found || strcmp(ref.channel_id, cid)) {
        api__error(c, 404, "Mensagem não encontrada");
    } else {
        struct filing f = {NULL, cid, mid, ref.author_id};
        file(c, &f);
    }
}

/* POST /api/servers/:sid/members/:uid/report: a member, by another member. */
static void member_report(struct api_call *c)
{
    struct access a, target;
    const char *sid = api__server(c, &a, 0);
    const char *uid = sid ? api__param_id(c, "uid", "Membro não encontrado") : NULL;
    if (!uid || api__access_of(c, sid, uid, &target, "Membro não encontrado"))
        return;
    struct filing f = {sid, NULL, NULL, uid};
    file(c, &f);
}

/* GET /api/servers/:sid/reports?status=&before=: GERENCIAR_MENSAGENS. */
static void reports_list(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_MENSAGENS);
    if (!sid)
        return;
    struct slice v;
    char status[16] = "open", before[UUID_LEN + 1] = "";
    if (http_query_param(c->req->query, "status", &v) &&
        (slice_copy(v, status, sizeof status) ||
         (strcmp(status, "all") && !rule_report_status_known(status)))) {
        api__bad(c, "status", "deve ser open, resolved, dismissed ou all");
        return;
    }
    if (http_query_param(c->req->query, "before", &v) &&
        (!uuid_valid(v.ptr, v.len) || slice_copy(v, before, sizeof before))) {
        api__bad(c, "before", "deve ser um UUID");
        return;
    }
    json_t *list = store_reports_json(c->db, sid, strcmp(status, "all") ? status : NULL,
                                      before[0] ? before : NULL);
    if (!list)
        api__internal(c);
    else
        api__reply(c, 200, json_pack("{so}", "reports", list));
}

/* PATCH /api/servers/:sid/reports/:rid {status, note?}: settled (or opened again), in the
 * audit log as report.resolve, report.dismiss or report.reopen. */
static void report_settle(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_MENSAGENS);
    const char *rid = sid ? api__param_id(c, "rid", "Denúncia não encontrada") : NULL;
    json_t *body = rid ? api__body(c) : NULL;
    const char *status, *note = NULL;
    if (!body || api__audit_reason_check(c) ||
        api__in_str(c, body, "status", 1, 16, API_IN_REQUIRED, &status) < 0 ||
        api__in_str(c, body, "note", 0, RULE_REPORT_NOTE_MAX, API_IN_NULLABLE | API_IN_TRIM,
                    &note) < 0)
        return;
    if (!rule_report_status_known(status)) {
        api__bad(c, "status", "deve ser open, resolved ou dismissed");
        return;
    }
    struct store_report_settle s = {
        rid, sid, status, c->me.user_id, note && *note ? note : NULL, clock_now_ms(), 0};
    int rc = store_report_settle(c->svc->writer, &s);
    json_t *report = rc < 0 || !s.changes ? NULL : store_report_json(c->db, rid, &rc);
    if (rc < 0) {
        api__internal(c);
        return;
    }
    if (!report) {
        api__error(c, 404, "Denúncia não encontrada");
        return;
    }
    const char *action = !strcmp(status, "resolved")    ? "report.resolve"
                         : !strcmp(status, "dismissed") ? "report.dismiss"
                                                        : "report.reopen";
    api__audit(c, sid, action, "report", rid,
               s.note ? json_pack("[{sssnss}]", "key", "note", "old", "new", s.note) : NULL);
    api__reply(c, 200, json_pack("{so}", "report", report));
}

const struct api_route api_report_routes[] = {
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/messages/:mid/report", message_report,
              API_PERSON),
    API_ROUTE(POST, "/api/dms/:cid/messages/:mid/report", dm_message_report, API_PERSON),
    API_ROUTE(POST, "/api/servers/:sid/members/:uid/report", member_report, API_PERSON),
    API_ROUTE(GET, "/api/servers/:sid/reports", reports_list, API_PERSON),
    API_ROUTE(PATCH, "/api/servers/:sid/reports/:rid", report_settle, API_PERSON),
    {0},
};
