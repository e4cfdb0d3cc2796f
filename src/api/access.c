/* Permission checks: see access.h. */
#include "api/reply.h"
#include "api/input.h"
#include "api/access.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "domain/intents.h"
#include "domain/permissions.h"
#include "state/presence.h"
#include "state/state.h"
#include "store/apps.h"
#include "store/perm_channels.h"
#include "store/channels.h"
#include "store/members.h"
#include "store/roles.h"

/* What the permission rules need to know of the caller in this server. */
static struct perm_member member_of(const struct access *a)
{
    return (struct perm_member){
        .is_owner = a->is_owner,
        .timed_out = a->timed_out,
        .everyone = a->s.everyone,
        .roles = a->s.role_perms,
        .nroles = a->s.nroles,
    };
}

static void compute(struct access *a)
{
    struct perm_member m = member_of(a);
    a->base = rule_perm_base(&m);
}

int api__access_quiet(struct api_call *c, const char *sid, const char *uid, struct access *a)
{
    /* Not the whole struct: the role arrays are 11 KiB, and only nroles of them are read. */
    a->server_id = a->user_id = NULL;
    a->is_owner = a->timed_out = 0;
    a->base = 0;
    int found;
    struct state_server *srv = state_server(c->svc->state, c->db, sid, &found);
    if (!srv)
        return found < 0 ? -1 : 1;
    state_server_access(srv, uid, &a->s);
    state_server_unref(srv);
    if (!a->s.is_member)
        return 1;
    a->server_id = sid;
    a->user_id = uid;
    a->is_owner = strcmp(a->s.owner_id, uid) == 0;
    a->timed_out = a->s.timeout_until > clock_now_ms();
    compute(a);
    return 0;
}

int api__access_visitor(struct api_call *c, const char *sid, struct access *a)
{
    int found;
    struct state_server *srv = state_server(c->svc->state, c->db, sid, &found);
    if (!srv)
        return found < 0 ? -1 : 1;
    state_server_access(srv, "", &a->s); /* no member: @everyone's bits and overwrites only */
    state_server_unref(srv);
    a->server_id = sid;
    a->user_id = "";
    a->is_owner = a->timed_out = 0;
    compute(a);
    return 0;
}

int api__may_read(struct api_call *c, const char *cid)
{
    struct store_perm_channels rows, parent = {0};
    int ok = store_perm_channel_read(c->db, cid, &rows);
    if (ok <= 0)
        return ok;
    const struct store_perm_channel *ch = &rows.list[0];
    struct access a;
    if (!strcmp(ch->type, "category")) {
        ok = 0;
    } else if (!strcmp(ch->type, "dm")) {
        ok = store_dm_member(c->db, cid, c->me.user_id);
    } else if (!ch->server_id[0] || (ok = api__access_quiet(c, ch->server_id, c->me.user_id, &a))) {
        ok = ok < 0 ? -1 : 0;
    } else {
        /* A thread is read as its channel is; a channel's parent is its category. */
        const struct store_perm_channel *from = ch;
        if (!strcmp(ch->type, "thread")) {
            ok = store_perm_channel_read(c->db, ch->parent_id, &parent);
            from = ok > 0 ? &parent.list[0] : NULL;
        }
        if (from)
            ok = (api__channel_perms(&a, from) & PERM_VER_CANAL) != 0;
    }
    store_perm_channels_cleanup(&parent);
    store_perm_channels_cleanup(&rows);
    return ok;
}

int api__not_banned(struct api_call *c, const char *sid)
{
    int banned = store_is_banned(c->db, sid, c->me.user_id);
    if (banned < 0)
        api__internal(c);
    else if (banned)
        api__error(c, 403, "Você foi banido deste servidor");
    return banned ? -1 : 0;
}

static int load(struct api_call *c, const char *sid, const char *uid, struct access *a,
                const char *not_found)
{
    int rc = api__access_quiet(c, sid, uid, a);
    if (rc < 0)
        api__internal(c);
    else if (rc > 0)
        api__error(c, 404, not_found);
    return rc ? -1 : 0;
}

int api__access(struct api_call *c, const char *sid, struct access *a)
{
    return load(c, sid, c->me.user_id, a, "Servidor não encontrado");
}

int api__access_of(struct api_call *c, const char *sid, const char *uid, struct access *a,
                   const char *not_found)
{
    return load(c, sid, uid, a, not_found);
}

static void missing(struct api_call *c, uint64_t bits)
{
    char msg[128];
    const char *name = NULL;
    for (int i = 0; i < 64 && !name; i++)
        if (bits & (UINT64_C(1) << i))
            name = rule_perm_name(UINT64_C(1) << i);
    snprintf(msg, sizeof msg, "Sem permissão: é preciso %s", name ? name : "permissão");
    api__error(c, 403, msg);
}

int api__require_in(struct api_call *c, uint64_t perms, uint64_t bits)
{
    uint64_t lacking = bits & ~perms;
    if (!lacking)
        return 0;
    missing(c, lacking);
    return -1;
}

int api__require(struct api_call *c, const struct access *a, uint64_t bits)
{
    return api__require_in(c, a->base, bits);
}

uint64_t api__channel_perms(const struct access *a, const struct store_perm_channel *channel)
{
    struct perm_overwrite list[PERM_OVERWRITES_MAX];
    size_t n =
        channel->noverwrites < PERM_OVERWRITES_MAX ? channel->noverwrites : PERM_OVERWRITES_MAX;
    for (size_t i = 0; i < n; i++) {
        const struct store_perm_overwrite *o = &channel->overwrites[i];
        list[i] = (struct perm_overwrite){o->target_id, o->is_member, o->allow, o->deny};
    }
    const char *role_ids[ACCESS_MAX_ROLES];
    for (size_t r = 0; r < a->s.nroles; r++)
        role_ids[r] = a->s.role_ids[r];
    struct perm_overwrites folded;
    rule_perm_overwrites_fold(list, n, a->server_id, role_ids, a->s.nroles, a->user_id, &folded);
    struct perm_member m = member_of(a);
    return rule_perm_channel(&m, &folded);
}

json_t *api__channels_seen(const struct access *a, const struct store_perm_channels *rows,
                           json_t *channels)
{
    unsigned char *seen = calloc(rows->n + 1, 1);
    json_t *out = seen ? json_array() : NULL;
    if (!out) {
        free(seen);
        return NULL;
    }
    for (size_t i = 0; i < rows->n; i++)
        seen[i] |= (api__channel_perms(a, &rows->list[i]) & PERM_VER_CANAL) != 0;
    for (size_t i = 0; i < rows->n; i++) {
        const struct store_perm_channel *parent =
            seen[i] && strcmp(rows->list[i].type, "category")
                ? store_perm_channels_find(rows, rows->list[i].parent_id)
                : NULL;
        if (parent && !strcmp(parent->type, "category"))
            seen[parent - rows->list] |= 2; /* shown for a channel in it, not seen itself */
    }
    /* Channels first, then categories, each in the order of channels. */
    for (int categories = 0; categories < 2; categories++) {
        size_t i;
        json_t *ch;
        json_array_foreach(channels, i, ch)
        {
            const struct store_perm_channel *r =
                store_perm_channels_find(rows, json_string_value(json_object_get(ch, "id")));
            if (r && (strcmp(r->type, "category") == 0) == categories && seen[r - rows->list])
                json_array_append(out, ch);
        }
    }
    free(seen);
    return out;
}

static void rows_free(void *rows)
{
    store_perm_channels_cleanup(rows);
    free(rows);
}

/* rows, read with answer rc (< 0 an error), held until the request ends; NULL when it has
 * answered 500 (then released). */
static const struct store_perm_channels *hold(struct api_call *c, struct store_perm_channels *rows,
                                              int rc)
{
    if (rc >= 0 && !api__at_end(c, rows_free, rows))
        return rows;
    if (rc < 0)
        api__internal(c); /* else api__at_end has */
    rows_free(rows);
    return NULL;
}

int api__perm_channel(struct api_call *c, const char *cid, const struct store_perm_channel **row)
{
    struct store_perm_channels *rows = malloc(sizeof *rows);
    int rc = rows ? store_perm_channel_read(c->db, cid, rows) : STORE_ERR;
    *row = NULL;
    if (!rows)
        api__internal(c);
    if (!rows || !hold(c, rows, rc))
        return -1;
    if (rc > 0)
        *row = &rows->list[0];
    return rc;
}

const struct store_perm_channels *api__server_perm_channels(struct api_call *c, const char *sid)
{
    struct store_perm_channels *rows = malloc(sizeof *rows);
    if (!rows) {
        api__internal(c);
        return NULL;
    }
    return hold(c, rows, store_perm_channels_of_server(c->db, sid, rows));
}

static const struct store_perm_channel *channel_of(struct api_call *c, const struct access *a,
                                                   const char *cid, uint64_t *perms, int categories)
{
    const struct store_perm_channel *ch;
    int found = api__perm_channel(c, cid, &ch);
    if (found < 0)
        return NULL;
    if (!found || strcmp(ch->server_id, a->server_id) != 0 ||
        (!categories && !strcmp(ch->type, "category"))) {
        api__error(c, 404, "Canal não encontrado");
        return NULL;
    }
    *perms = api__channel_perms(a, ch);
    /* A member knows it exists: 403, not 404. */
    return api__require_in(c, *perms, PERM_VER_CANAL) ? NULL : ch;
}

const struct store_perm_channel *api__channel(struct api_call *c, const struct access *a,
                                              const char *cid, uint64_t *perms)
{
    return channel_of(c, a, cid, perms, 0);
}

const struct store_perm_channel *api__channel_or_category(struct api_call *c,
                                                          const struct access *a, const char *cid,
                                                          uint64_t *perms)
{
    return channel_of(c, a, cid, perms, 1);
}

int api__bot_intent(struct api_call *c, uint32_t intent)
{
    struct store_app app;
    int found = store_app_find(c->db, c->me.app_id, &app);
    uint32_t intents = app.intents;
    store_app_cleanup(&app);
    if (found <= 0) {
        api__internal(c);
        return -1;
    }
    if (intents & intent)
        return 0;
    const char *name = "";
    for (int i = 0; i < INTENT_COUNT; i++)
        if (intent == (1u << i))
            name = rule_intent_name(i);
    char msg[96];
    snprintf(msg, sizeof msg, "Intent %s desligada para esta aplicação", name);
    api__error(c, 403, msg);
    return -1;
}

int api__moderation_allowed(struct api_call *c, const struct access *a)
{
    if (!a->s.requires_2fa)
        return 0;
    if (c->me.is_bot) {
        api__error_flag(
            c, 403, "Este servidor exige verificação em duas etapas para moderar; bots não podem",
            "requires2FA");
        return -1;
    }
    if (!a->s.mfa_enabled) {
        api__error_flag(c, 403, "Este servidor exige verificação em duas etapas para moderar",
                        "requires2FA");
        return -1;
    }
    return 0;
}

int api__outranks(struct api_call *c, const struct access *actor, const struct access *target)
{
    if (target->is_owner) {
        api__error(c, 403, "Não é possível agir sobre o dono do servidor");
        return -1;
    }
    if (strcmp(actor->user_id, target->user_id) == 0) {
        api__error(c, 403, "Não é possível agir sobre si mesmo");
        return -1;
    }
    if (!actor->is_owner && actor->s.top_key <= target->s.top_key) {
        api__error(c, 403, "Sem permissão: o membro tem um cargo igual ou acima do seu");
        return -1;
    }
    return 0;
}

static int role_not_below(struct api_call *c)
{
    api__error(c, 403, "Sem permissão: o cargo está igual ou acima do seu cargo mais alto");
    return -1;
}

int api__role_below(struct api_call *c, const struct access *actor, int64_t key)
{
    return actor->is_owner || key < actor->s.top_key ? 0 : role_not_below(c);
}

int api__rank_below(struct api_call *c, const struct access *actor, int64_t rank)
{
    if (actor->is_owner)
        return 0;
    int64_t top;
    if (store_role_rank_of_key(c->db, actor->server_id, actor->s.top_key, &top) != STORE_DONE) {
        api__internal(c);
        return -1;
    }
    return rank < top ? 0 : role_not_below(c);
}

const char *api__server(struct api_call *c, struct access *a, uint64_t bits)
{
    const char *sid = api__param_id(c, "sid", "Servidor não encontrado");
    if (!sid || api__access(c, sid, a) || (bits && api__require(c, a, bits)))
        return NULL;
    return sid;
}

/* Each member's shown status, in one read for the list ("offline" when presence cannot say). */
void api__member_status(struct api_call *c, json_t *members)
{
    json_t *one[1] = {members};
    size_t n = json_is_array(members) ? json_array_size(members) : 1;
    json_t **m = json_is_array(members) ? calloc(n ? n : 1, sizeof *m) : one;
    const char **ids = calloc(n ? n : 1, sizeof *ids), **shown = calloc(n ? n : 1, sizeof *shown);
    size_t k = 0;
    for (size_t i = 0; m && ids && i < n; i++) {
        json_t *member = m == one ? members : json_array_get(members, i);
        const char *uid = json_string_value(json_object_get(member, "userId"));
        if (uid) {
            m[k] = member;
            ids[k++] = uid;
        }
    }
    int known = m && ids && shown && !state_presence_statuses(c->svc->presence, ids, k, shown);
    for (size_t i = 0; m && i < k; i++)
        json_object_set_new(m[i], "status", json_string(known ? shown[i] : "offline"));
    if (m != one)
        free(m);
    free(ids);
    free(shown);
}

void api__reply_member(struct api_call *c, const char *sid, const char *uid)
{
    int rc;
    json_t *member = store_member_json(c->db, sid, uid, &rc);
    if (!member) {
        api__internal(c);
        return;
    }
    api__member_status(c, member);
    api__reply(c, 200, json_pack("{so}", "member", member));
}
