/* Message places: see place.h. */
#include "api/reply.h"
#include "api/input.h"
#include "api/place.h"

#include <string.h>

#include "core/clock.h"
#include "state/state.h"
#include "store/messages.h"

static int not_found(struct api_call *c)
{
    api__error(c, 404, "Canal não encontrado");
    return -1;
}

static void server_release(void *srv)
{
    state_server_unref(srv);
}

/* Finds channel cid of server p->sid in memory (a thread: also its parent, whose permissions
 * apply). */
static int place_find(struct api_call *c, struct place *p, const char *cid)
{
    p->cid = cid;
    int found;
    if (!(p->srv = state_server(c->svc->state, c->db, p->sid, &found))) {
        if (found < 0) {
            api__internal(c);
            return -1;
        }
        return not_found(c);
    }
    if (api__at_end(c, server_release, p->srv)) {
        state_server_unref(p->srv);
        p->srv = NULL;
        return -1;
    }
    int64_t ch = state_server_channel(p->srv, cid);
    if (ch < 0)
        return not_found(c);
    const struct state_channel *x = &p->srv->shape->channels[ch];
    p->channel = ch;
    p->type = x->type;
    p->perm_channel = ch;
    if (!strcmp(x->type, "thread")) {
        /* A thread takes its parent's permissions. */
        p->parent_id = x->parent_id;
        if ((p->perm_channel = state_server_channel(p->srv, x->parent_id)) < 0)
            return not_found(c);
    }
    return 0;
}

/* Finds channel cid of server p->sid in memory, with the caller's permissions there. */
static int place_channel(struct api_call *c, struct place *p, const char *cid)
{
    if (place_find(c, p, cid))
        return -1;
    const struct state_member *me = state_server_member(p->srv, p->a.user_id);
    if (!me)
        return not_found(c);
    p->perms = state_server_channel_perms(p->srv, me, (size_t)p->perm_channel, clock_now_ms());
    /* A member knows the channel exists: missing VER_CANAL is a missing permission, not 404. */
    if (api__require_in(c, p->perms, PERM_VER_CANAL)) {
        return -1;
    }
    return 0;
}

int api__place(struct api_call *c, struct place *p)
{
    memset(p, 0, offsetof(struct place, a));
    if (!(p->sid = api__server(c, &p->a, 0)))
        return -1;
    const char *cid = api__param_id(c, "cid", "Canal não encontrado");
    return cid ? place_channel(c, p, cid) : -1;
}

int api__place_at(struct api_call *c, const char *sid, const char *cid, struct place *p)
{
    memset(p, 0, offsetof(struct place, a));
    if (api__access(c, sid, &p->a))
        return -1;
    p->sid = sid;
    return place_channel(c, p, cid);
}

int api__place_trusted(struct api_call *c, const char *sid, const char *cid, uint64_t perms,
                       struct place *p)
{
    memset(p, 0, sizeof *p);
    p->sid = sid;
    if (place_find(c, p, cid))
        return -1;
    p->perms = perms;
    return 0;
}

int api__place_message(struct api_call *c, const struct place *p, const char **mid,
                       struct store_message_ref *ref)
{
    *mid = api__param_id(c, "mid", "Mensagem não encontrada");
    return *mid ? api__place_message_at(c, p, *mid, ref) : -1;
}

int api__place_message_at(struct api_call *c, const struct place *p, const char *mid,
                          struct store_message_ref *ref)
{
    int found = store_message_ref(c->db, mid, ref);
    if (found < 0) {
        api__internal(c);
        return -1;
    }
    if (!found || strcmp(ref->channel_id, p->cid) != 0) {
        api__error(c, 404, "Mensagem não encontrada");
        return -1;
    }
    return 0;
}
