/*
 * Polls on messages: a send's `poll` read and kept with its message, a person's vote (their
 * choices replaced at once; none takes the vote back), a poll read with the reader's choices,
 * and its end by the author. Votes reach people's pages as MESSAGE_POLL_UPDATE; bots get no vote
 * events (as for reactions) and read the counts from the message.
 */
#include "api/polls.h"

#include <http_parser.h>
#include <string.h>

#include "api/input.h"
#include "api/events.h"
#include "api/limits.h"
#include "api/place.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "domain/poll_rules.h"
#include "store/polls.h"

#define HOUR_MS (3600 * 1000LL)

/* The poll as the new message shows it: no votes yet. */
static char *new_view(const json_t *kept, int64_t ends_at)
{
    json_t *view = json_deep_copy(kept);
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(view, "answers"), i, a)
        json_object_set_new(a, "count", json_integer(0));
    char at[CLOCK_ISO_LEN + 1];
    clock_format_iso(ends_at, at);
    json_object_set_new(view, "endsAt", json_string(at));
    json_object_set_new(view, "ended", json_false());
    json_object_set_new(view, "voters", json_integer(0));
    json_object_set_new(view, "myVotes", json_array());
    char *text = jsonout_dump(view, NULL);
    json_decref(view);
    return text;
}

int api__poll_take(struct api_call *c, json_t *body, struct store_new_poll *out, int *has)
{
    *has = 0;
    json_t *in = json_object_get(body, "poll");
    if (!in || json_is_null(in))
        return 0;
    int64_t hours;
    const char *field, *why;
    json_t *kept = rule_poll_read(in, &hours, &field, &why);
    if (!kept) {
        api__bad(c, field, why);
        return -1;
    }
    if (api__at_end_json(c, kept))
        return -1;
    json_t *answers = json_object_get(kept, "answers");
    memset(out, 0, sizeof *out);
    out->question = json_string_value(json_object_get(kept, "question"));
    out->multiple = json_is_true(json_object_get(kept, "multiple"));
    out->n_answers = json_array_size(answers);
    out->ends_at = clock_now_ms() + hours * HOUR_MS;
    char *answers_json = jsonout_dump(answers, NULL);
    if (!answers_json || api__at_end_free(c, answers_json))
        goto oom;
    out->answers_json = answers_json;
    char *view = new_view(kept, out->ends_at);
    if (!view || api__at_end_free(c, view))
        goto oom;
    out->view_json = view;
    *has = 1;
    return 0;
oom:
    api__internal(c);
    return -1;
}

/* The poll of message mid at p: 0 with it found, -1 answered (404 when the message has none). */
static int poll_here(struct api_call *c, struct place *p, const char **mid,
                     struct store_message_ref *ref, struct store_poll_head *head)
{
    if (api__place(c, p) || api__place_message(c, p, mid, ref))
        return -1;
    int found = store_poll_head(c->db, *mid, head);
    if (found < 0)
        api__internal(c);
    else if (!found)
        api__error(c, 404, "Esta mensagem não tem enquete");
    return found == 1 ? 0 : -1;
}

/* Answers {poll} with the caller's own choices (a bot has none); with tell, the poll's counts go
 * to the people who can see it as MESSAGE_POLL_UPDATE first. */
static void reply_poll(struct api_call *c, const struct place *p, const char *mid, int tell)
{
    int rc;
    json_t *poll = store_poll_json(c->db, mid, c->me.is_bot ? NULL : c->me.user_id, &rc);
    if (!poll) {
        api__internal(c);
        return;
    }
    if (tell) {
        json_t *shown = json_deep_copy(poll);
        json_object_del(shown, "myVotes"); /* each page keeps its own */
        api__event_people(c, "MESSAGE_POLL_UPDATE", p, mid,
                          json_pack("{s:s,s:s,s:s,s:o}", "serverId", p->sid, "channelId", p->cid,
                                    "messageId", mid, "poll", shown));
    }
    api__reply(c, 200, json_pack("{so}", "poll", poll));
}

static void poll_read(struct api_call *c)
{
    struct place p;
    const char *mid;
    struct store_message_ref ref;
    struct store_poll_head head;
    if (!poll_here(c, &p, &mid, &ref, &head))
        reply_poll(c, &p, mid, 0);
}

static void vote(struct api_call *c)
{
    struct place p;
    const char *mid, *why;
    struct store_message_ref ref;
    struct store_poll_head head;
    json_t *body;
    int chosen[POLL_ANSWERS_MAX];
    if (poll_here(c, &p, &mid, &ref, &head) || !(body = api__body(c)))
        return;
    if (p.a.timed_out) {
        api__error(c, 403, "Você está em timeout neste servidor");
        return;
    }
    int n = rule_poll_choice(json_object_get(body, "answerIds"), head.n_answers, head.multiple,
                             chosen, &why);
    if (n < 0) {
        api__bad(c, "answerIds", why);
        return;
    }
    if (api__limit_hit(c, &API_LIMIT_POLL_VOTE))
        return;
    struct store_poll_vote v = {.message_id = mid,
                                .user_id = c->me.user_id,
                                .answers = chosen,
                                .n = (size_t)n,
                                .now = clock_now_ms()};
    int rc = store_poll_vote(c->svc->writer, &v);
    if (rc == STORE_REFUSED)
        api__bad(c, "poll", "a enquete já terminou");
    else if (!api__store_answer(
                 c, rc, &(struct api_store_words){.missing = "Esta mensagem não tem enquete"}))
        reply_poll(c, &p, mid, 1);
}

static void end(struct api_call *c)
{
    struct place p;
    const char *mid;
    struct store_message_ref ref;
    struct store_poll_head head;
    if (poll_here(c, &p, &mid, &ref, &head))
        return;
    if (strcmp(ref.author_id, c->me.user_id)) {
        api__error(c, 403, "Só quem criou a enquete pode encerrá-la");
        return;
    }
    struct store_poll_end e = {.message_id = mid, .now = clock_now_ms()};
    int rc = store_poll_end(c->svc->writer, &e);
    if (api__store_answer(c, rc,
                          &(struct api_store_words){.missing = "Esta mensagem não tem enquete"}))
        return;
    if (!e.changes) {
        api__bad(c, "poll", "a enquete já terminou");
        return;
    }
    reply_poll(c, &p, mid, 1);
}

const struct api_route api_poll_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/channels/:cid/messages/:mid/poll", poll_read, API_ANY),
    API_ROUTE(PUT, "/api/servers/:sid/channels/:cid/messages/:mid/poll/vote", vote, API_PERSON,
              .limit = &API_LIMIT_POLL_VOTE),
    API_ROUTE(POST, "/api/servers/:sid/channels/:cid/messages/:mid/poll/end", end, API_ANY),
    {0},
};
