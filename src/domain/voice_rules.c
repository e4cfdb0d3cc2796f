/* Voice event payloads: see voice_rules.h. */
#include "domain/voice_rules.h"

#include <string.h>

static int not_object(json_t *payload, struct rule_error *err)
{
    if (payload && !json_is_object(payload))
        return rule__json_fail(err, "payload", "deve ser um objeto");
    return 0;
}

/* An ID field: 1 copied, 0 absent and optional, -1 invalid. */
static int read_id(json_t *payload, const char *key, int required, char out[UUID_LEN + 1],
                   struct rule_error *err)
{
    json_t *v = json_object_get(payload, key);
    if (!v || (!required && json_is_null(v)))
        return required ? rule__json_fail(err, key, "obrigatório") : 0;
    if (!json_is_string(v))
        return rule__json_fail(err, key, "deve ser um texto");
    if (!uuid_valid(json_string_value(v), json_string_length(v)))
        return rule__json_fail(err, key, "deve ser um UUID");
    memcpy(out, json_string_value(v), UUID_LEN + 1);
    return 1;
}

static int read_flag(json_t *payload, const char *key, int *out, struct rule_error *err)
{
    json_t *v = json_object_get(payload, key);
    *out = 0;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v))
        return rule__json_fail(err, key, "deve ser verdadeiro ou falso");
    *out = json_is_true(v);
    return 1;
}

int rule_voice_read_join(json_t *payload, struct voice_join_req *out, struct rule_error *err)
{
    memset(out, 0, sizeof *out);
    if (not_object(payload, err) || read_id(payload, "channelId", 1, out->channel_id, err) < 0 ||
        read_flag(payload, "muted", &out->muted, err) < 0 ||
        read_flag(payload, "deafened", &out->deafened, err) < 0)
        return 400;
    return 0;
}

int rule_voice_read_leave(json_t *payload, struct voice_leave_req *out, struct rule_error *err)
{
    memset(out, 0, sizeof *out);
    if (not_object(payload, err) || read_id(payload, "channelId", 0, out->channel_id, err) < 0)
        return 400;
    return 0;
}

int rule_voice_read_signal(json_t *payload, int attachments, struct voice_signal_req *out,
                           struct rule_error *err)
{
    memset(out, 0, sizeof *out);
    if (not_object(payload, err) || read_id(payload, "channelId", 1, out->channel_id, err) < 0 ||
        read_id(payload, "toUserId", 1, out->to_user_id, err) < 0)
        return 400;
    json_t *data = json_object_get(payload, "data");
    if (!data || json_is_null(data)) {
        rule__json_fail(err, "data", "obrigatório");
        return 400;
    }
    if (attachments > 0) {
        rule__json_fail(err, "data", "deve ser JSON, sem anexos binários");
        return 400;
    }
    /* Measured without building the text: json_dumpb with no buffer only counts. */
    size_t len = json_dumpb(data, NULL, 0, JSON_COMPACT | JSON_ENCODE_ANY);
    if (len == 0 || len > VOICE_SIGNAL_MAX) {
        rule__json_fail(err, "data", "no máximo %d bytes", VOICE_SIGNAL_MAX);
        return 413;
    }
    out->data = data;
    return 0;
}

int rule_voice_refusal(enum voice_verdict v, const char **message)
{
    switch (v) {
    case VOICE_ALLOWED:
        *message = NULL;
        return 200;
    case VOICE_NOT_VOICE:
        *message = "channelId: não é um canal de voz";
        return 400;
    case VOICE_NO_PERMISSION:
        *message = "Sem permissão: é preciso CONECTAR_VOZ";
        return 403;
    case VOICE_NO_INTENT:
        *message = "Intent voice.connect desligada para esta aplicação";
        return 403;
    case VOICE_FAILED:
        *message = "Erro interno; tente novamente em instantes";
        return 500;
    case VOICE_NO_CHANNEL:
    case VOICE_NOT_MEMBER:
    case VOICE_HIDDEN:
        break;
    }
    *message = "Canal não encontrado"; /* a channel one cannot see is not told apart */
    return 404;
}
