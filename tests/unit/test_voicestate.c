/* Voice sessions: one per user per server, moves, rejoins, removal, listing and the JSON. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "state/voicestate.h"

#define SERVER_A "01a1fe3b-0000-7000-8000-00000000000a"
#define SERVER_B "01a1fe3b-0000-7000-8000-00000000000b"
#define ROOM_1   "01a1fe3b-0000-7000-8000-000000000c01"
#define ROOM_2   "01a1fe3b-0000-7000-8000-000000000c02"
#define ROOM_B   "01a1fe3b-0000-7000-8000-000000000cb1"
#define ANA      "01a1fe3b-0000-7000-8000-0000000000a1"
#define BOT      "01a1fe3b-0000-7000-8000-0000000000b0"

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

static long count(struct voicestate *v, enum voice_key key, const char *value)
{
    struct voice_session *list;
    long n = voicestate_list(v, key, value, &list);
    free(list);
    return n;
}

Test(voicestate, a_user_holds_one_session_per_server)
{
    struct voicestate *v = voicestate_new();
    struct voice_session s = session(SERVER_A, ROOM_1, ANA, "sock1", 100), before;
    cr_assert_eq(voicestate_put(v, &s, &before), 0);
    s = session(SERVER_B, ROOM_B, ANA, "sock1", 110);
    cr_assert_eq(voicestate_put(v, &s, &before), 0, "another server: a second session");
    s = session(SERVER_A, ROOM_2, ANA, "sock2", 120);
    cr_assert_eq(voicestate_put(v, &s, &before), 1, "same server: the session moves");
    cr_assert_str_eq(before.channel_id, ROOM_1);
    cr_assert_eq(count(v, VOICE_BY_CHANNEL, ROOM_1), 0);
    cr_assert_eq(count(v, VOICE_BY_CHANNEL, ROOM_2), 1);
    cr_assert_eq(count(v, VOICE_BY_USER, ANA), 2);
    cr_assert_eq(count(v, VOICE_BY_SERVER, SERVER_A), 1);
    cr_assert_eq(count(v, VOICE_BY_SOCKET, "sock1"), 1);
    voicestate_free(v);
}

Test(voicestate, a_rejoin_of_the_same_channel_keeps_joined_at_and_changes_flags)
{
    struct voicestate *v = voicestate_new();
    struct voice_session s = session(SERVER_A, ROOM_1, ANA, "sock1", 100), before, now;
    voicestate_put(v, &s, &before);
    s = session(SERVER_A, ROOM_1, ANA, "sock2", 500);
    s.self_muted = 1;
    cr_assert_eq(voicestate_put(v, &s, &before), 1);
    cr_assert(voicestate_find(v, ANA, ROOM_1, &now));
    cr_assert_eq(now.joined_at, 100);
    cr_assert_eq(now.self_muted, 1);
    cr_assert_str_eq(now.socket_id, "sock2", "the session now belongs to the new connection");
    voicestate_free(v);
}

Test(voicestate, lists_in_joining_order_and_removes)
{
    struct voicestate *v = voicestate_new();
    struct voice_session a = session(SERVER_A, ROOM_1, ANA, "s1", 100),
                         b = session(SERVER_A, ROOM_1, BOT, "s2", 200), out;
    voicestate_put(v, &a, &out);
    voicestate_put(v, &b, &out);
    struct voice_session *list;
    cr_assert_eq(voicestate_list(v, VOICE_BY_CHANNEL, ROOM_1, &list), 2);
    cr_assert_str_eq(list[0].user_id, ANA);
    cr_assert_str_eq(list[1].user_id, BOT);
    free(list);
    cr_assert_eq(voicestate_remove(v, ANA, SERVER_B, &out), 0, "not in that server");
    cr_assert_eq(voicestate_remove(v, ANA, SERVER_A, &out), 1);
    cr_assert_str_eq(out.channel_id, ROOM_1);
    cr_assert_eq(voicestate_find(v, ANA, ROOM_1, &out), 0);
    cr_assert_eq(voicestate_list(v, VOICE_BY_CHANNEL, ROOM_2, &list), 0);
    cr_assert_null(list);
    voicestate_free(v);
}

Test(voicestate, can_speak_changes_only_once)
{
    struct voicestate *v = voicestate_new();
    struct voice_session s = session(SERVER_A, ROOM_1, ANA, "s1", 100), out;
    voicestate_put(v, &s, &out);
    cr_assert_eq(voicestate_set_can_speak(v, ANA, ROOM_1, 0), 1);
    cr_assert_eq(voicestate_set_can_speak(v, ANA, ROOM_1, 0), 0);
    cr_assert_eq(voicestate_set_can_speak(v, ANA, ROOM_2, 1), 0, "not in that channel");
    voicestate_free(v);
}

Test(voicestate, participants_show_muted_without_falar)
{
    struct voice_session list[3] = {session(SERVER_A, ROOM_1, ANA, "s1", 0),
                                    session(SERVER_A, ROOM_1, BOT, "s2", 0),
                                    session(SERVER_A, ROOM_1, BOT, "s3", 0)};
    list[1].can_speak = 0;
    list[2].self_muted = 1;
    list[2].self_deafened = 1;
    json_t *j = voice_participants_json(list, 3, 0);
    char *text = json_dumps(j, JSON_COMPACT);
    cr_assert_str_eq(text, "[{\"userId\":\"" ANA "\",\"muted\":false,\"deafened\":false},"
                           "{\"userId\":\"" BOT "\",\"muted\":true,\"deafened\":false},"
                           "{\"userId\":\"" BOT "\",\"muted\":true,\"deafened\":true}]");
    free(text);
    json_decref(j);
    j = voice_participants_json(list, 1, 1);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(j, 0), "joinedAt")),
                     "1970-01-01T00:00:00.000Z");
    json_decref(j);
}
