/* Message places: see place.h. */
#include "api/place.h"

#include <string.h>

#include "store/messages.h"
#include "store/servers.h"

/* Loads channel cid of server p->sid with the caller's permissions there. */
static int place_channel(struct api_call *c, struct place *p, const char *cid)
{
    p->cid = cid;
    int rc;
    json_t *ch = store_channel_json(c->db, p->cid, &rc);
    if (!ch && rc < 0) {
        api_internal(c);
        return -1;
    }
    const char *type = ch ? json_string_value(json_object_get(ch, "type")) : "";
    const char *sid = ch ? json_string_value(json_object_get(ch, "serverId")) : NULL;
    if (!ch || !sid || strcmp(sid, p->sid) != 0) {
        json_decref(ch);
        api_error(c, 404, "Canal não encontrado");
        return -1;
    }
    p->channel = ch;
    p->type = type;
    if (strcmp(type, "thread")) {
        /* The channel's own overwrites apply: no need to load it again. */
        p->perms = api_channel_perms(&p->a, ch);
        if (!(p->perms & PERM_VER_CANAL)) {
            api_place_cleanup(p);
            api_error(c, 404, "Canal não encontrado");
            return -1;
        }
        p->perm_channel = json_incref(ch);
        return 0;
    }
    p->parent_id = json_string_value(json_object_get(ch, "parentId"));
    if (api_channel(c, &p->a, p->parent_id, &p->perm_channel, &p->perms)) {
        api_place_cleanup(p);
        return -1;
    }
    return 0;
}

int api_place(struct api_call *c, struct place *p)
{
    memset(p, 0, sizeof *p);
    if (!(p->sid = api_server(c, &p->a, 0)))
        return -1;
    const char *cid = api_param_id(c, "cid", "Canal não encontrado");
    return cid ? place_channel(c, p, cid) : -1;
}

int api_place_at(struct api_call *c, const char *sid, const char *cid, struct place *p)
{
    memset(p, 0, sizeof *p);
    if (api_access(c, sid, &p->a))
        return -1;
    p->sid = sid;
    return place_channel(c, p, cid);
}

void api_place_cleanup(struct place *p)
{
    json_decref(p->channel);
    json_decref(p->perm_channel);
    p->channel = p->perm_channel = NULL;
}

int api_place_message(struct api_call *c, const struct place *p, const char **mid,
                      struct store_message_ref *ref)
{
    *mid = api_param_id(c, "mid", "Mensagem não encontrada");
    return *mid ? api_place_message_at(c, p, *mid, ref) : -1;
}

int api_place_message_at(struct api_call *c, const struct place *p, const char *mid,
                         struct store_message_ref *ref)
{
    int found = store_message_ref(c->db, mid, ref);
    if (found < 0) {
        api_internal(c);
        return -1;
    }
    if (!found || strcmp(ref->channel_id, p->cid) != 0) {
        api_error(c, 404, "Mensagem não encontrada");
        return -1;
    }
    return 0;
}
