/* Message places: see place.h. */
#include "api/place.h"

#include <string.h>

#include "store/messages.h"
#include "store/servers.h"

int api_place(struct api_call *c, struct place *p)
{
    memset(p, 0, sizeof *p);
    if (!(p->sid = api_server(c, &p->a, 0)))
        return -1;
    p->cid = api_param_id(c, "cid", "Canal não encontrado");
    if (!p->cid)
        return -1;
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
    const char *perm_cid = p->cid;
    if (!strcmp(type, "thread"))
        perm_cid = p->parent_id = json_string_value(json_object_get(ch, "parentId"));
    if (api_channel(c, &p->a, perm_cid, &p->perm_channel, &p->perms)) {
        api_place_cleanup(p);
        return -1;
    }
    return 0;
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
    if (!*mid)
        return -1;
    int found = store_message_ref(c->db, *mid, ref);
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
