/* Voice event payloads: every field rule, the size edge of a signal, and what is copied. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "domain/voice_rules.h"

#define ROOM "01a1fe3b-0000-7000-8000-000000000c01"
#define ANA  "01a1fe3b-0000-7000-8000-0000000000a1"

static json_t *parse(const char *text)
{
    json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
    cr_assert_not_null(v, "bad test JSON: %s", text);
    return v;
}

/* The status and "path: reason" of a join payload. */
static int join(const char *text, char *msg, size_t cap)
{
    json_t *v = text ? parse(text) : NULL;
    struct voice_join_req req;
    struct rule_error err;
    int status = rule_voice_read_join(v, &req, &err);
    if (status)
        snprintf(msg, cap, "%s: %s", err.path, err.reason);
    json_decref(v);
    return status;
}

Test(voice_rules, join_reads_the_channel_and_flags)
{
    json_t *v = parse("{\"channelId\":\"" ROOM "\",\"muted\":true,\"deafened\":null}");
    struct voice_join_req req;
    struct rule_error err;
    cr_assert_eq(rule_voice_read_join(v, &req, &err), 0);
    cr_assert_str_eq(req.channel_id, ROOM);
    cr_assert_eq(req.muted, 1);
    cr_assert_eq(req.deafened, 0);
    json_decref(v);
}

Test(voice_rules, join_refusals_name_the_field)
{
    char msg[320];
    cr_assert_eq(join(NULL, msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "channelId: obrigatório");
    cr_assert_eq(join("{}", msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "channelId: obrigatório");
    cr_assert_eq(join("\"sala\"", msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "payload: deve ser um objeto");
    cr_assert_eq(join("[1]", msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "payload: deve ser um objeto");
    cr_assert_eq(join("{\"channelId\":null}", msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "channelId: deve ser um texto");
    cr_assert_eq(join("{\"channelId\":42}", msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "channelId: deve ser um texto");
    cr_assert_eq(join("{\"channelId\":\"" ROOM "x\"}", msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "channelId: deve ser um UUID");
    cr_assert_eq(join("{\"channelId\":\"" ROOM "\",\"deafened\":1}", msg, sizeof msg), 400);
    cr_assert_str_eq(msg, "deafened: deve ser verdadeiro ou falso");
}

Test(voice_rules, leave_takes_an_optional_channel)
{
    struct voice_leave_req req;
    struct rule_error err;
    cr_assert_eq(rule_voice_read_leave(NULL, &req, &err), 0);
    cr_assert_str_eq(req.channel_id, "");
    json_t *v = parse("{\"channelId\":null}");
    cr_assert_eq(rule_voice_read_leave(v, &req, &err), 0);
    cr_assert_str_eq(req.channel_id, "");
    json_decref(v);
    v = parse("{\"channelId\":\"" ROOM "\"}");
    cr_assert_eq(rule_voice_read_leave(v, &req, &err), 0);
    cr_assert_str_eq(req.channel_id, ROOM);
    json_decref(v);
    v = parse("{\"channelId\":\"sala\"}");
    cr_assert_eq(rule_voice_read_leave(v, &req, &err), 400);
    cr_assert_str_eq(err.path, "channelId");
    json_decref(v);
}

/* A signal whose data is a string of n characters: serialized, n + 2 bytes. */
static int signal_of(size_t n, int attachments, struct rule_error *err)
{
    char *s = malloc(n + 1);
    memset(s, 'x', n);
    s[n] = '\0';
    json_t *v = json_pack("{ssssss}", "channelId", ROOM, "toUserId", ANA, "data", s);
    free(s);
    struct voice_signal_req req;
    int status = rule_voice_read_signal(v, attachments, &req, err);
    if (!status)
        cr_assert_str_eq(json_string_value(req.data),
                         json_string_value(json_object_get(v, "data")));
    json_decref(v);
    return status;
}

Test(voice_rules, signal_data_up_to_64_kib)
{
    struct rule_error err;
    cr_assert_eq(signal_of(VOICE_SIGNAL_MAX - 2, 0, &err), 0, "exactly 65,536 bytes");
    cr_assert_eq(signal_of(VOICE_SIGNAL_MAX - 1, 0, &err), 413);
    cr_assert_str_eq(err.path, "data");
    cr_assert_str_eq(err.reason, "no máximo 65536 bytes");
    cr_assert_eq(signal_of(10, 1, &err), 400);
    cr_assert_str_eq(err.reason, "deve ser JSON, sem anexos binários");
}

Test(voice_rules, signal_needs_both_ids_and_data)
{
    struct voice_signal_req req;
    struct rule_error err;
    json_t *v =
        parse("{\"channelId\":\"" ROOM "\",\"toUserId\":\"" ANA "\",\"data\":{\"a\":[1,2]}}");
    cr_assert_eq(rule_voice_read_signal(v, 0, &req, &err), 0);
    cr_assert_str_eq(req.to_user_id, ANA);
    cr_assert(json_is_object(req.data));
    json_decref(v);
    v = parse("{\"channelId\":\"" ROOM "\",\"data\":1}");
    cr_assert_eq(rule_voice_read_signal(v, 0, &req, &err), 400);
    cr_assert_str_eq(err.path, "toUserId");
    json_decref(v);
    v = parse("{\"channelId\":\"" ROOM "\",\"toUserId\":\"" ANA "\",\"data\":null}");
    cr_assert_eq(rule_voice_read_signal(v, 0, &req, &err), 400);
    cr_assert_str_eq(err.path, "data");
    cr_assert_str_eq(err.reason, "obrigatório");
    json_decref(v);
    v = parse("{\"channelId\":\"" ROOM "\",\"toUserId\":\"" ANA "\",\"data\":false}");
    cr_assert_eq(rule_voice_read_signal(v, 0, &req, &err), 0, "any JSON value but null");
    json_decref(v);
}
