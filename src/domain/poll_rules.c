/* Poll rules: see poll_rules.h. */
#include "domain/poll_rules.h"

#include <string.h>

#include "domain/emoji.h"
#include "domain/text.h"

/* A trimmed text of 1 to max characters without control characters, or NULL. */
static json_t *short_text(const json_t *v, size_t max)
{
    if (!json_is_string(v))
        return NULL;
    size_t len = json_string_length(v);
    const char *s = rule_text_trim(json_string_value(v), &len);
    size_t chars = rule_text_chars(s, len);
    if (!chars || chars > max || rule_text_has_control(s, len, 0))
        return NULL;
    return json_stringn(s, len);
}

static json_t *answer_read(const json_t *in, size_t id, const char **why)
{
    json_t *text =
        json_is_object(in) ? short_text(json_object_get(in, "text"), POLL_ANSWER_MAX) : NULL;
    if (!text) {
        *why = "cada resposta precisa de text com 1 a 55 caracteres";
        return NULL;
    }
    const json_t *emoji = json_object_get(in, "emoji");
    if (emoji && !json_is_null(emoji) &&
        (!json_is_string(emoji) || json_string_length(emoji) > RULE_EMOJI_MAX_BYTES ||
         !rule_emoji_valid(json_string_value(emoji), json_string_length(emoji)))) {
        json_decref(text);
        *why = "emoji de uma resposta deve ser um emoji";
        return NULL;
    }
    return json_pack("{sIsoso}", "id", (json_int_t)id, "text", text, "emoji",
                     emoji && json_is_string(emoji) ? json_incref((json_t *)emoji) : json_null());
}

static int hours_read(const json_t *poll, int64_t *hours, const char **why)
{
    const json_t *h = json_object_get(poll, "durationHours");
    *hours = POLL_HOURS_DEFAULT;
    if (!h || json_is_null(h))
        return 0;
    if (!json_is_integer(h) || json_integer_value(h) < 1 ||
        json_integer_value(h) > POLL_HOURS_MAX) {
        *why = "deve ser um inteiro de 1 a 168 (7 dias)";
        return -1;
    }
    *hours = json_integer_value(h);
    return 0;
}

/* NULL with *field and *why set, for the chained checks below. */
static json_t *refused(const char **field, const char **why, const char *f, const char *w)
{
    *field = f;
    *why = w;
    return NULL;
}

static json_t *answers_read(const json_t *answers, const char **field, const char **why)
{
    size_t n = json_array_size(answers);
    if (!json_is_array(answers) || n < POLL_ANSWERS_MIN || n > POLL_ANSWERS_MAX)
        return refused(field, why, "poll.answers", "deve ter de 2 a 10 respostas");
    json_t *kept = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *a = answer_read(json_array_get(answers, i), i + 1, why);
        if (!a) {
            json_decref(kept);
            *field = "poll.answers";
            return NULL;
        }
        json_array_append_new(kept, a);
    }
    return kept;
}

json_t *rule_poll_read(const json_t *poll, int64_t *hours, const char **field, const char **why)
{
    if (!json_is_object(poll))
        return refused(field, why, "poll", "deve ser um objeto {question, answers}");
    const json_t *multiple = json_object_get(poll, "multiple");
    if (multiple && !json_is_null(multiple) && !json_is_boolean(multiple))
        return refused(field, why, "poll.multiple", "deve ser true ou false");
    if (hours_read(poll, hours, why)) {
        *field = "poll.durationHours";
        return NULL;
    }
    json_t *question = short_text(json_object_get(poll, "question"), POLL_QUESTION_MAX);
    if (!question)
        return refused(field, why, "poll.question", "deve ter de 1 a 300 caracteres");
    json_t *answers = answers_read(json_object_get(poll, "answers"), field, why);
    if (!answers) {
        json_decref(question);
        return NULL;
    }
    return json_pack("{sosos b}", "question", question, "answers", answers, "multiple",
                     json_is_true(multiple));
}

int rule_poll_choice(const json_t *answer_ids, size_t n_answers, int multiple,
                     int out[POLL_ANSWERS_MAX], const char **why)
{
    size_t n = json_array_size(answer_ids);
    if (!json_is_array(answer_ids) || n > n_answers || n > POLL_ANSWERS_MAX) {
        *why = "deve ser uma lista de IDs de respostas da enquete";
        return -1;
    }
    if (n > 1 && !multiple) {
        *why = "esta enquete aceita uma resposta só";
        return -1;
    }
    int seen[POLL_ANSWERS_MAX + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(answer_ids, i);
        json_int_t id = json_is_integer(v) ? json_integer_value(v) : 0;
        if (id < 1 || (size_t)id > n_answers || seen[id]) {
            *why = "deve ser uma lista de IDs de respostas da enquete, sem repetir";
            return -1;
        }
        seen[id] = 1;
    }
    int k = 0;
    for (size_t id = 1; id <= n_answers; id++)
        if (seen[id])
            out[k++] = (int)id;
    return k;
}
