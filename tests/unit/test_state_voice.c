/* Voice sessions: one per user per server, moves, rejoins, removal, listing and the JSON. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "state/voice.h"

#define SERVER_A "01a1fe3b-0000-7000-8000-00000000000a"
#define SERVER_B "01a1fe3b-0000-7000-8000-00000000000b"
#define ROOM_1   "01a1fe3b-0000-7000-8000-000000000c01"
#define ROOM_2   "01a1fe3b-0000-7000-8000-000000000c02"
#define ROOM_B   "01a1fe3b-0000-7000-8000-000000000cb1"
#define ANA      "01a1fe3b-0000-7000-8000-0000000000a1"
#define BOT      "01a1fe3b-0000-7000-8000-0000000000b0"
#define BIA      "01a1fe3b-0000-7000-8000-0000000000a2"

static struct voice_session session(const char *server, const char *channel, const char *user,
                                    const char *socket, int64_t joined_at)
{
    struct voice_session s = {.can_speak = 1, .joined_at = joined_at};
    strcpy(s.server_id, server);
    strcpy(s.channel_id, channel);
    strcpy(s.user_id, user);
    strcpy(s.socket_id, socket);
    return s;
}

static long count(struct state_voice *v, enum voice_key key, const char *value)
{
    struct voice_session *list;
    long n = state_voice_list(v, key, value, &list);
    free(list);
    return n;
}

Test(state_voice, a_user_holds_one_session_per_server)
{
    struct state_voice *v = state_voice_new();
    struct voice_session s = session(SERVER_A, ROOM_1, ANA, "sock1", 100), before;
    cr_assert_eq(state_voice_put(v, &s, &before), 0);
    s = session(SERVER_B, ROOM_B, ANA, "sock1", 110);
    cr_assert_eq(state_voice_put(v, &s, &before), 0, "another server: a second session");
    s = session(SERVER_A, ROOM_2, ANA, "sock2", 120);
    cr_assert_eq(state_voice_put(v, &s, &before), 1, "same server: the session moves");
    cr_assert_str_eq(before.channel_id, ROOM_1);
    cr_assert_eq(count(v, VOICE_BY_CHANNEL, ROOM_1), 0);
    cr_assert_eq(count(v, VOICE_BY_CHANNEL, ROOM_2), 1);
    cr_assert_eq(count(v, VOICE_BY_USER, ANA), 2);
    cr_assert_eq(count(v, VOICE_BY_SERVER, SERVER_A), 1);
    cr_assert_eq(count(v, VOICE_BY_SOCKET, "sock1"), 1);
    state_voice_free(v);
}

Test(state_voice, a_rejoin_of_the_same_channel_keeps_joined_at_and_changes_flags)
{
    struct state_voice *v = state_voice_new();
    struct voice_session s = session(SERVER_A, ROOM_1, ANA, "sock1", 100), before, now;
    state_voice_put(v, &s, &before);
    s = session(SERVER_A, ROOM_1, ANA, "sock2", 500);
    s.self_muted = 1;
    cr_assert_eq(state_voice_put(v, &s, &before), 1);
    cr_assert(state_voice_find(v, ANA, ROOM_1, &now));
    cr_assert_eq(now.joined_at, 100);
    cr_assert_eq(now.self_muted, 1);
    cr_assert_str_eq(now.socket_id, "sock2", "the session now belongs to the new connection");
    state_voice_free(v);
}

Test(state_voice, lists_in_joining_order_and_removes)
{
    struct state_voice *v = state_voice_new();
    struct voice_session a = session(SERVER_A, ROOM_1, ANA, "s1", 100),
                         b = session(SERVER_A, ROOM_1, BOT, "s2", 200), out;
    state_voice_put(v, &a, &out);
    state_voice_put(v, &b, &out);
    struct voice_session *list;
    cr_assert_eq(state_voice_list(v, VOICE_BY_CHANNEL, ROOM_1, &list), 2);
    cr_assert_str_eq(list[0].user_id, ANA);
    cr_assert_str_eq(list[1].user_id, BOT);
    free(list);
    cr_assert_eq(state_voice_remove(v, ANA, SERVER_B, &out), 0, "not in that server");
    cr_assert_eq(state_voice_remove(v, ANA, SERVER_A, &out), 1);
    cr_assert_str_eq(out.channel_id, ROOM_1);
    cr_assert_eq(state_voice_find(v, ANA, ROOM_1, &out), 0);
    cr_assert_eq(state_voice_list(v, VOICE_BY_CHANNEL, ROOM_2, &list), 0);
    cr_assert_null(list);
    state_voice_free(v);
}

Test(state_voice, two_joined_in_one_millisecond_stay_in_the_order_they_came)
{
    struct state_voice *v = state_voice_new();
    struct voice_session first = session(SERVER_A, ROOM_1, BOT, "s1", 300),
                         second = session(SERVER_A, ROOM_1, ANA, "s2", 300), out;
    state_voice_put(v, &first, &out);
    state_voice_put(v, &second, &out);
    struct voice_session *list;
    cr_assert_eq(state_voice_list(v, VOICE_BY_CHANNEL, ROOM_1, &list), 2);
    cr_assert_str_eq(list[0].user_id, BOT, "first come, though its ID sorts after");
    cr_assert_str_eq(list[1].user_id, ANA);
    free(list);
    state_voice_free(v);
}

Test(state_voice, can_speak_changes_only_once)
{
    struct state_voice *v = state_voice_new();
    struct voice_session s = session(SERVER_A, ROOM_1, ANA, "s1", 100), out;
    state_voice_put(v, &s, &out);
    cr_assert_eq(state_voice_set_can_speak(v, ANA, ROOM_1, 0), 1);
    cr_assert_eq(state_voice_set_can_speak(v, ANA, ROOM_1, 0), 0);
    cr_assert_eq(state_voice_set_can_speak(v, ANA, ROOM_2, 1), 0, "not in that channel");
    state_voice_free(v);
}

Test(state_voice, participants_show_muted_without_falar)
{
    struct voice_session list[3] = {session(SERVER_A, ROOM_1, ANA, "s1", 0),
                                    session(SERVER_A, ROOM_1, BOT, "s2", 0),
                                    session(SERVER_A, ROOM_1, BOT, "s3", 0)};
    list[1].can_speak = 0;
    list[2].self_muted = 1;
    list[2].self_deafened = 1;
    json_t *j = state_voice_participants_json(list, 3, 0);
    char *text = json_dumps(j, JSON_COMPACT);
    cr_assert_str_eq(text, "[{\"userId\":\"" ANA "\",\"muted\":false,\"deafened\":false},"
                           "{\"userId\":\"" BOT "\",\"muted\":true,\"deafened\":false},"
                           "{\"userId\":\"" BOT "\",\"muted\":true,\"deafened\":true}]");
    free(text);
    json_decref(j);
    j = state_voice_participants_json(list, 1, 1);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(j, 0), "joinedAt")),
                     "1970-01-01T00:00:00.000Z");
    json_decref(j);
}

/* What the store told the relay: each change of this node's own sessions. */
struct told {
    int n, removed;
    struct voice_session last;
};

static void note(void *arg, const struct voice_session *s, int removed)
{
    struct told *t = arg;
    t->n++;
    t->removed = removed;
    t->last = *s;
}

Test(state_voice, another_nodes_sessions_are_applied_and_told_apart)
{
    struct state_voice *v = state_voice_new();
    struct told told = {0};
    state_voice_on_change(v, note, &told);
    struct voice_session mine = session(SERVER_A, ROOM_1, ANA, "s1", 100), before;
    cr_assert_eq(state_voice_put(v, &mine, &before), 0);
    cr_assert_eq(told.n, 1, "this node's own put is told");
    cr_assert_eq(told.removed, 0);

    struct voice_session theirs = session(SERVER_A, ROOM_1, BOT, "s9", 200);
    strcpy(theirs.node, "b0b0b0b0b0b0b0b0");
    cr_assert_eq(state_voice_apply(v, &theirs, 0, &before), 0, "added");
    cr_assert_eq(told.n, 1, "another node's put is not told back");
    cr_assert_eq(count(v, VOICE_BY_CHANNEL, ROOM_1), 2);

    /* Heard of after this node's own, though it joined before: listed first all the same. */
    struct voice_session earlier = session(SERVER_A, ROOM_1, BIA, "s8", 50);
    strcpy(earlier.node, "b0b0b0b0b0b0b0b0");
    cr_assert_eq(state_voice_apply(v, &earlier, 0, &before), 0);
    struct voice_session *list;
    cr_assert_eq(state_voice_list(v, VOICE_BY_CHANNEL, ROOM_1, &list), 3);
    cr_assert_str_eq(list[0].user_id, BIA, "joining order across nodes");
    cr_assert_str_eq(list[1].user_id, ANA);
    cr_assert_str_eq(list[2].user_id, BOT);
    free(list);
    cr_assert_eq(state_voice_apply(v, &earlier, 1, &before), 1);

    /* A removal from a node that no longer holds the session changes nothing. */
    struct voice_session stale = theirs;
    strcpy(stale.node, "c0c0c0c0c0c0c0c0");
    cr_assert_eq(state_voice_apply(v, &stale, 1, &before), -1);
    cr_assert_eq(count(v, VOICE_BY_CHANNEL, ROOM_1), 2);

    /* Ana joins through another node: her session here is replaced, and told as removed. */
    struct voice_session moved = session(SERVER_A, ROOM_2, ANA, "s7", 300);
    strcpy(moved.node, "b0b0b0b0b0b0b0b0");
    cr_assert_eq(state_voice_apply(v, &moved, 0, &before), 1);
    cr_assert_str_eq(before.channel_id, ROOM_1);
    cr_assert_eq(told.n, 2);
    cr_assert_eq(told.removed, 1);
    cr_assert_str_eq(told.last.user_id, ANA);

    struct voice_session *gone;
    cr_assert_eq(state_voice_drop_node(v, "b0b0b0b0b0b0b0b0", &gone), 2, "both went with node b");
    free(gone);
    cr_assert_eq(count(v, VOICE_BY_SERVER, SERVER_A), 0);
    state_voice_free(v);
}

Test(state_voice, a_session_as_text_and_back)
{
    struct voice_session s = session(SERVER_B, ROOM_B, BOT, "sock-1", 1764000000123), back;
    strcpy(s.node, "a1a1a1a1a1a1a1a1");
    s.is_bot = 1;
    s.self_muted = 1;
    char *text = state_voice_session_text(&s);
    cr_assert_not_null(text);
    cr_assert_eq(state_voice_session_parse(text, strlen(text), &back), 0);
    free(text);
    cr_assert_str_eq(back.server_id, SERVER_B);
    cr_assert_str_eq(back.channel_id, ROOM_B);
    cr_assert_str_eq(back.user_id, BOT);
    cr_assert_str_eq(back.socket_id, "sock-1");
    cr_assert_str_eq(back.node, "a1a1a1a1a1a1a1a1");
    cr_assert(back.is_bot && back.self_muted && !back.self_deafened && back.can_speak);
    cr_assert_eq(back.joined_at, 1764000000123);
    cr_assert_eq(state_voice_session_parse("{\"s\":1}", 7, &back), -1);
    cr_assert_eq(state_voice_session_parse("nope", 4, &back), -1);
}
