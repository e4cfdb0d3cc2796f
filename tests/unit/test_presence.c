/* Who is shown online on one node: connections counted, the saved status, invisible. */
#include <criterion/criterion.h>

#include "state/presence.h"

static const char *shown(struct presence *p, const char *user_id)
{
    const char *out = NULL;
    cr_assert_eq(state_presence_statuses(p, &user_id, 1, &out), 0);
    return out;
}

Test(presence, online_while_a_connection_is_open)
{
    struct presence *p = state_presence_new();
    cr_assert_str_eq(shown(p, "u1"), "offline");
    state_presence_connected(p, "u1");
    state_presence_connected(p, "u1");
    cr_assert_str_eq(shown(p, "u1"), "online");
    state_presence_disconnected(p, "u1");
    cr_assert_str_eq(shown(p, "u1"), "online", "one connection is left");
    state_presence_disconnected(p, "u1");
    cr_assert_str_eq(shown(p, "u1"), "offline");
    state_presence_disconnected(p, "u1"); /* one too many changes nothing */
    state_presence_connected(p, "u1");
    cr_assert_str_eq(shown(p, "u1"), "online");
    state_presence_free(p);
}

Test(presence, the_saved_status_shows_while_connected)
{
    struct presence *p = state_presence_new();
    json_t *activity = json_pack("{ssss}", "type", "playing", "name", "xadrez");
    state_presence_set(p, "u1", "dnd", activity);
    json_decref(activity);
    cr_assert_str_eq(shown(p, "u1"), "offline", "saved, not connected");
    state_presence_connected(p, "u1");
    cr_assert_str_eq(shown(p, "u1"), "dnd");
    json_t *o = state_presence_json(p, "u1");
    cr_assert_str_eq(json_string_value(json_object_get(o, "status")), "dnd");
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(o, "activity"), "name")),
                     "xadrez");
    cr_assert(json_is_true(json_object_get(o, "connected")));
    json_decref(o);
    state_presence_set(p, "u1", "invisible", NULL);
    cr_assert_str_eq(shown(p, "u1"), "offline", "invisible shows offline");
    state_presence_free(p);
}

Test(presence, many_at_once_in_order)
{
    struct presence *p = state_presence_new();
    state_presence_connected(p, "b");
    state_presence_set(p, "c", "idle", NULL);
    state_presence_connected(p, "c");
    const char *ids[] = {"a", "b", "c"}, *out[3];
    cr_assert_eq(state_presence_statuses(p, ids, 3, out), 0);
    cr_assert_str_eq(out[0], "offline");
    cr_assert_str_eq(out[1], "online");
    cr_assert_str_eq(out[2], "idle");
    state_presence_free(p);
}
