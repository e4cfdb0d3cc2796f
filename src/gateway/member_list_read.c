/* A member list's statuses and status texts, as a worker reads them to build it. */
#include "gateway/member_list_read.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/map.h"
#include "core/vec.h"
#include "state/presence.h"

#define STATUS_BATCH 512 /* statuses read at once while a list is built */

const char *gateway__list_status_name(const char *s)
{
    static const char *const KNOWN[] = {"online", "idle", "dnd"};
    for (size_t i = 0; i < 3; i++)
        if (s && !strcmp(s, KNOWN[i]))
            return KNOWN[i];
    return "offline";
}

const char *gateway__list_status_one(void *arg, const char *user_id)
{
    const char *out = "offline";
    if (state_presence_statuses(arg, &user_id, 1, &out))
        out = "offline";
    return gateway__list_status_name(out);
}

static const char *status_known(void *arg, const char *user_id)
{
    const char *s = map_get(arg, user_id);
    return s ? s : "offline";
}

struct ids {
    const char **v;
    size_t n, cap;
    int failed;
};

static void collect_id(struct pmap_value *v, void *arg)
{
    struct ids *ids = arg;
    if (!ids->failed && VEC_RESERVE(ids->v, ids->n, ids->cap, 64))
        ids->failed = 1;
    else if (!ids->failed)
        ids->v[ids->n++] = ((const struct state_member *)v)->user_id;
}

static void shown_in(const char *user_id, void *activity, void *list)
{
    if (state_member_list_activity(list, user_id, activity) < 0)
        log_error("gateway: %s's custom status left out of a member list: no memory", user_id);
}

static void drop_shown(const char *user_id, void *activity, void *arg)
{
    (void)user_id;
    (void)arg;
    json_decref(activity);
}

/* Builds the list with every member's status read first, STATUS_BATCH at a time (one round
 * trip each with several nodes), keeping those not offline. */
struct state_member_list *gateway__list_build(struct presence *p, struct state_server *srv,
                                              const char *cid)
{
    struct ids ids = {0};
    struct map online, shown; /* user ID → status; → custom status (json) */
    map_init(&online);
    map_init(&shown);
    pmap_each(&srv->members, collect_id, &ids);
    const char *out[STATUS_BATCH];
    json_t *activity[STATUS_BATCH];
    for (size_t i = 0; !ids.failed && i < ids.n; i += STATUS_BATCH) {
        size_t n = ids.n - i < STATUS_BATCH ? ids.n - i : STATUS_BATCH;
        if (state_presence_shown_many(p, ids.v + i, n, out, activity)) {
            ids.failed = 1;
            break;
        }
        for (size_t k = 0; k < n; k++) {
            if (!ids.failed && strcmp(gateway__list_status_name(out[k]), "offline") &&
                map_set(&online, ids.v[i + k], (void *)gateway__list_status_name(out[k])))
                ids.failed = 1;
            if (activity[k] && (ids.failed || map_set(&shown, ids.v[i + k], activity[k]))) {
                json_decref(activity[k]);
                ids.failed = 1;
            }
        }
    }
    struct state_member_list *l =
        ids.failed ? NULL : state_member_list_build(srv, cid, status_known, &online);
    if (l)
        map_each(&shown, shown_in, l);
    map_each(&shown, drop_shown, NULL);
    map_cleanup(&shown);
    map_cleanup(&online);
    free(ids.v);
    return l;
}
