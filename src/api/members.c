/*
 * Members: list, leave, kick, ban / unban, and the moderation edit (timeout, nickname).
 * Moderation in a server that requires 2FA is refused to bots and to people without it, and
 * nobody acts on the owner, on themselves, or on someone ranked at or above them.
 */
#include <http_parser.h>
#include <string.h>

#include "core/jsonout.h"
#include "api/access.h"
#include "api/audit.h"
#include "api/api.h"
#include "api/reply.h"
#include "api/limits.h"
#include "api/input.h"
#include "api/voice.h"
#include "api/events.h"
#include "api/installs.h"
#include "core/clock.h"
#include "domain/permissions.h"
#include "store/people.h"
#include "store/members.h"

#define TIMEOUT_MAX_MS (28LL * 24 * 3600 * 1000) /* as Discord: at most 28 days */
#define REASON_MAX     512

static void member_list(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (!sid)
        return;
    struct slice v;
    long long limit = 1000;
    char after[UUID_LEN + 1] = "";
    if (http_query_param(c->req->query, "limit", &v) && slice_to_i64(v, 1, 1000, &limit)) {
        api__bad(c, "limit", "deve ser um número inteiro de 1 a 1000");
        return;
    }
    if (http_query_param(c->req->query, "after", &v) &&
        (!uuid_valid(v.ptr, v.len) || slice_copy(v, after, sizeof after))) {
        api__bad(c, "after", "deve ser um UUID");
        return;
    }
    json_t *list = store_members_json(c->db, sid, after, limit, !c->me.is_bot);
    if (!list) {
        api__internal(c);
        return;
    }
    api__member_status(c, list);
    api__reply(c, 200, json_pack("{so}", "members", list));
}

static void member_leave(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (!sid)
        return;
    if (a.is_owner) {
        api__error(c, 403,
                   "O dono não pode sair do servidor; transfira-o a outro membro ou apague-o");
        return;
    }
    if (api__limit_hit(c, &API_LIMIT_LEAVE))
        return;
    int64_t changes = 0;
    if (store_member_remove(c->svc->writer, sid, c->me.user_id, &changes) < 0) {
        api__internal(c);
        return;
    }
    if (changes && !a.s.is_bot)
        api__event_person_removed(c, sid, c->me.user_id, NULL);
    else if (changes)
        api__event_member_remove(c, sid, c->me.user_id, NULL);
    api__ok(c);
}

/* The checks shared by kick, ban and the moderation edit, for a target who is a member. */
static int moderate_gate(struct api_call *c, uint64_t bits, const char **sid, const char **uid,
                         struct access *actor, struct access *target)
{
    if (!(*sid = api__server(c, actor, bits)) || api__moderation_allowed(c, actor))
        return -1;
    *uid = api__param_id(c, "uid", "Membro não encontrado");
    if (!*uid || api__access_of(c, *sid, *uid, target, "Membro não encontrado"))
        return -1;
    return api__outranks(c, actor, target);
}

static void member_kick(struct api_call *c)
{
    const char *sid, *uid;
    struct access actor, target;
    if (moderate_gate(c, PERM_EXPULSAR_MEMBROS, &sid, &uid, &actor, &target))
        return;
    char app_id[UUID_LEN + 1];
    int bot_app = target.s.is_bot ? api__app_of_bot(c, uid, app_id) : 0;
    if (bot_app < 0) {
        api__internal(c);
        return;
    }
    if (bot_app) { /* kicking a bot uninstalls its application */
        if (api__uninstall(c, app_id, uid, sid, "kicked") >= 0) {
            api__audit(c, sid, "member.kick", "member", uid, NULL);
            api__ok(c);
        }
        return;
    }
    int64_t changes = 0;
    if (store_member_remove(c->svc->writer, sid, uid, &changes) < 0) {
        api__internal(c);
        return;
    }
    if (changes)
        api__audit(c, sid, "member.kick", "member", uid, NULL);
    if (changes)
        api__event_person_removed(c, sid, uid, "kicked"); /* a bot's kick returned above */
    api__ok(c);
}

static void ban_put(struct api_call *c)
{
    struct access actor, target;
    const char *sid = api__server(c, &actor, PERM_BANIR_MEMBROS);
    if (!sid || api__moderation_allowed(c, &actor))
        return;
    const char *uid = api__param_id(c, "uid", "Usuário não encontrado");
    if (!uid)
        return;
    /* A ban may also target someone who is not (or no longer) a member. */
    int is_bot;
    int exists = store_user_kind(c->db, uid, &is_bot);
    if (exists <= 0) {
        if (exists < 0)
            api__internal(c);
        else
            api__error(c, 404, "Usuário não encontrado");
        return;
    }
    if (store_access_load(c->db, sid, uid, &target.s) != STORE_DONE) {
        api__internal(c);
        return;
    }
    if (target.s.is_member && (api__access_of(c, sid, uid, &target, "Membro não encontrado") ||
                               api__outranks(c, &actor, &target)))
        return;
    json_t *body = c->req->body.len ? api__body(c) : NULL;
    const char *reason = NULL;
    if (c->req->body.len &&
        (!body || api__in_str(c, body, "reason", 0, REASON_MAX, API_IN_NULLABLE, &reason) < 0))
        return;
    char app_id[UUID_LEN + 1];
    if (is_bot && target.s.is_member && api__app_of_bot(c, uid, app_id) == 1 &&
        api__uninstall(c, app_id, uid, sid, NULL) < 0)
        return;
    if (store_ban(c->svc->writer, sid, uid, reason, c->me.user_id) < 0) {
        api__internal(c);
        return;
    }
    if (target.s.is_member && !is_bot)
        api__event_person_removed(c, sid, uid, "banned");
    else if (target.s.is_member)
        api__event_member_remove(c, sid, uid, "banned");
    api__audit(c, sid, "member.ban", "member", uid,
               reason ? json_pack("[{sssnss}]", "key", "reason", "old", "new", reason) : NULL);
    json_t *ban = json_pack("{sssssossso}", "serverId", sid, "userId", uid, "reason",
                            jsonout_str_or_null(reason), "bannedBy", c->me.user_id, "createdAt",
                            jsonout_time(clock_now_ms()));
    api__reply(c, 200, json_pack("{so}", "ban", ban));
}

static void ban_delete(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_BANIR_MEMBROS);
    if (!sid || api__moderation_allowed(c, &a))
        return;
    const char *uid = api__param_id(c, "uid", "Banimento não encontrado");
    int64_t changes = 0;
    if (!uid)
        return;
    if (store_unban(c->svc->writer, sid, uid, &changes) < 0) {
        api__internal(c);
        return;
    }
    if (!changes) {
        api__error(c, 404, "Banimento não encontrado");
        return;
    }
    api__audit(c, sid, "member.unban", "member", uid, NULL);
    api__ok(c);
}

static void ban_list(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_BANIR_MEMBROS);
    if (!sid)
        return;
    json_t *list = store_bans_json(c->db, sid);
    api__reply_list(c, "bans", list);
}

static void member_patch(struct api_call *c)
{
    const char *sid, *uid;
    struct access actor, target;
    if (moderate_gate(c, PERM_MODERAR_MEMBROS, &sid, &uid, &actor, &target))
        return;
    json_t *body = api__body(c);
    const char *reason = NULL, *nick = NULL;
    int64_t until = 0;
    if (!body)
        return;
    int t = api__in_time(c, body, "timeoutUntil", &until);
    if (t < 0 ||
        api__in_str(c, body, "timeoutReason", 0, REASON_MAX, API_IN_NULLABLE, &reason) < 0 ||
        api__in_str(c, body, "nickname", 1, 32, API_IN_NULLABLE | API_IN_TRIM, &nick) < 0)
        return;
    int64_t now = clock_now_ms();
    if (t == 1 && until > now + TIMEOUT_MAX_MS) {
        api__bad(c, "timeoutUntil", "deve estar no máximo 28 dias no futuro");
        return;
    }
    if (t == 1 && until <= now)
        until = 0; /* a time in the past lifts the timeout */
    int set_timeout = t >= 1, rc;
    int set_nick = json_object_get(body, "nickname") != NULL;
    json_t *before = store_member_json(c->db, sid, uid, &rc);
    if (!before || store_member_update(c->svc->writer, sid, uid, set_timeout, until,
                                       until ? reason : NULL, set_nick, nick) < 0) {
        json_decref(before);
        api__internal(c);
        return;
    }
    json_t *after = store_member_json(c->db, sid, uid, &rc);
    static const char *const KEYS[] = {"nickname", "timeoutUntil", "timeoutReason", NULL};
    api__audit_update(c, sid,
                      set_timeout ? (until ? "member.timeout" : "member.timeout.remove")
                                  : "member.update",
                      "member", uid, before, after, KEYS);
    api__event_server_changed(c, sid, "members");
    api__reply_member(c, sid, uid);
}

const struct api_route api_member_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/members", member_list, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/members/@me", member_leave, API_ANY, .tells_bots = 1,
              .limit = &API_LIMIT_LEAVE),
    API_ROUTE(DELETE, "/api/servers/:sid/members/:uid", member_kick, API_ANY, .tells_bots = 1),
    API_ROUTE(PATCH, "/api/servers/:sid/members/:uid", member_patch, API_ANY),
    API_ROUTE(GET, "/api/servers/:sid/bans", ban_list, API_ANY),
    API_ROUTE(PUT, "/api/servers/:sid/bans/:uid", ban_put, API_ANY, .tells_bots = 1),
    API_ROUTE(DELETE, "/api/servers/:sid/bans/:uid", ban_delete, API_ANY),
    {0},
};
