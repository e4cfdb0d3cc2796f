/*
 * Group conversations of up to STORE_DM_GROUP_MAX people: made with a list of people, named,
 * added to by anyone in them, left by anyone; only the owner removes someone else. Each change
 * reaches everyone in the group as DM_UPDATE {channel}, and whoever is no longer in it as
 * DM_REMOVE {channelId}; sends, edits, reactions, files and pins are a pair's (api/dms.c).
 */
#include <http_parser.h>
#include <string.h>

#include "api/dm.h"
#include "api/events.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "domain/text.h"
#include "store/channels.h"
#include "store/dm_groups.h"

#define GROUP_NAME_MAX 100

/* DM_UPDATE to everyone in group cid, and the answer: 200 {channel}. */
static void group_changed(struct api_call *c, const char *cid)
{
    int rc;
    json_t *ch = store_dm_json(c->db, cid, &rc);
    struct idset *people = ch ? store_dm_people(c->db, cid) : NULL;
    if (!people) {
        json_decref(ch);
        api__internal(c);
        return;
    }
    api__event_dm(c, "DM_UPDATE", cid, NULL, people, json_pack("{sO}", "channel", ch));
    api__reply(c, 200, json_pack("{so}", "channel", ch));
}

/* A group's name: empty (the page names it by its people), or a name as a person's is. */
static int read_name(struct api_call *c, json_t *body, const char **name)
{
    *name = "";
    if (api__in_str(c, body, "name", 0, GROUP_NAME_MAX, API_IN_NULLABLE | API_IN_TRIM, name) < 0)
        return -1;
    if (!*name)
        *name = "";
    if (!rule_text_name_ok(*name, strlen(*name))) {
        api__bad(c, "name", "não pode ter caracteres de controle ou de formatação");
        return -1;
    }
    return 0;
}

/* Whether the caller may bring uid into a conversation: a person, there, not blocked either
 * way. 1, or 0 when it has answered. */
static int may_bring(struct api_call *c, const char *uid)
{
    int is_bot = 0;
    if (!api__user_known(c, uid, &is_bot))
        return 0;
    if (is_bot) {
        api__error(c, 403, "Bots não recebem mensagens diretas");
        return 0;
    }
    return !api__dm_blocked(c, NULL, uid);
}

void api__dm_group_create(struct api_call *c, json_t *body)
{
    json_t *ids = json_object_get(body, "userIds");
    const char *name;
    if (!json_is_array(ids) || json_array_size(ids) < 1 ||
        json_array_size(ids) > STORE_DM_GROUP_MAX - 1) {
        api__bad(c, "userIds", "de 1 a 9 pessoas além de você");
        return;
    }
    if (json_object_get(body, "userId")) {
        api__bad(c, "userId", "use userId para uma conversa a dois, ou userIds para um grupo");
        return;
    }
    if (read_name(c, body, &name))
        return;
    const char *people[STORE_DM_GROUP_MAX];
    size_t n = 0, i;
    json_t *v;
    json_array_foreach(ids, i, v)
    {
        const char *uid = json_string_value(v);
        if (!uid || !uuid_valid(uid, strlen(uid))) {
            api__bad(c, "userIds", "cada item é o ID de uma pessoa");
            return;
        }
        if (!strcmp(uid, c->me.user_id)) {
            api__bad(c, "userIds", "você já está no grupo");
            return;
        }
        for (size_t k = 0; k < n; k++)
            if (!strcmp(people[k], uid)) {
                api__bad(c, "userIds", "uma pessoa aparece duas vezes");
                return;
            }
        if (!may_bring(c, uid))
            return;
        people[n++] = uid;
    }
    if (api__limit_hit(c, &API_LIMIT_DM_OPEN))
        return;
    char id[UUID_LEN + 1];
    uuid_v7(id);
    struct store_dm_group_new g = {.id = id,
                                   .owner = c->me.user_id,
                                   .name = name,
                                   .people = people,
                                   .n = n,
                                   .now = clock_now_ms()};
    if (!api__store_answer(c, store_dm_group_create(c->svc->writer, &g),
                           &(struct api_store_words){
                               .refused = "Só é possível chamar para um grupo quem está em um "
                                          "servidor em comum com você"}))
        group_changed(c, id);
}

/* :cid when it is a group the caller is in (its owner in owner); NULL when it has answered. */
static const char *group_of_caller(struct api_call *c, char owner[40])
{
    const char *cid = api__dm_of_caller(c);
    if (!cid)
        return NULL;
    int group = store_dm_group_of(c->db, cid, owner);
    if (group < 0)
        api__internal(c);
    else if (!group)
        api__error(c, 400, "channelId: uma conversa a dois não tem nome nem pessoas a mudar");
    return group == 1 ? cid : NULL;
}

static void group_rename(struct api_call *c)
{
    char owner[40];
    const char *cid = group_of_caller(c, owner), *name;
    json_t *body;
    if (!cid || !(body = api__body(c)) || read_name(c, body, &name))
        return;
    if (store_dm_group_rename(c->svc->writer, cid, name) < 0)
        api__internal(c);
    else
        group_changed(c, cid);
}

/* :uid of a members route; "@me" is the caller. */
static const char *member_param(struct api_call *c)
{
    if (!strcmp(api__param(c, "uid"), "@me"))
        return c->me.user_id;
    return api__param_id(c, "uid", "Usuário não encontrado");
}

static void group_add(struct api_call *c)
{
    char owner[40];
    const char *cid = group_of_caller(c, owner), *uid;
    if (!cid || !(uid = member_param(c)) || !may_bring(c, uid))
        return;
    int shared = store_people_share_server(c->db, c->me.user_id, uid);
    if (shared < 0) {
        api__internal(c);
        return;
    }
    if (!shared && strcmp(uid, c->me.user_id)) {
        api__error(c, 403,
                   "Só é possível chamar para um grupo quem está em um servidor em comum "
                   "com você");
        return;
    }
    if (!api__store_answer(
            c, store_dm_group_add(c->svc->writer, cid, uid, clock_now_ms()),
            &(struct api_store_words){.full = "channelId: um grupo tem no máximo 10 pessoas"}))
        group_changed(c, cid);
}

static void group_remove(struct api_call *c)
{
    char owner[40];
    const char *cid = group_of_caller(c, owner), *uid;
    if (!cid || !(uid = member_param(c)))
        return;
    if (strcmp(uid, c->me.user_id) && strcmp(owner, c->me.user_id)) {
        api__error(c, 403, "Só quem é dono do grupo tira outra pessoa dele");
        return;
    }
    int64_t changes = 0;
    if (store_dm_group_remove(c->svc->writer, cid, uid, &changes) < 0) {
        api__internal(c);
        return;
    }
    if (!changes) {
        api__error(c, 404, "Esta pessoa não está no grupo");
        return;
    }
    struct idset *gone = idset_new(1);
    if (!gone || idset_add(gone, uid)) {
        idset_unref(gone);
        api__internal(c);
        return;
    }
    api__event_dm(c, "DM_REMOVE", cid, NULL, gone, json_pack("{ss}", "channelId", cid));
    if (strcmp(uid, c->me.user_id) == 0) { /* left: the others are told, the caller is done */
        int rc;
        json_t *ch = store_dm_json(c->db, cid, &rc);
        struct idset *people = ch ? store_dm_people(c->db, cid) : NULL;
        if (people)
            api__event_dm(c, "DM_UPDATE", cid, NULL, people, json_pack("{so}", "channel", ch));
        else
            json_decref(ch);
        api__ok(c);
        return;
    }
    group_changed(c, cid);
}

const struct api_route api_dm_group_routes[] = {
    API_ROUTE(PATCH, "/api/dms/:cid", group_rename, API_PERSON),
    API_ROUTE(PUT, "/api/dms/:cid/members/:uid", group_add, API_PERSON),
    API_ROUTE(DELETE, "/api/dms/:cid/members/:uid", group_remove, API_PERSON),
    {0},
};
