/*
 * Forwarding: a send whose body is `forward: {messageId}` posts, in the room of that send, a copy
 * of a message the caller can read anywhere (another channel, another server, a conversation):
 * its text and embeds as they are now, its author and place, and its files as the new message's
 * own. The copy's text is shown, never read for mentions: a forwarded @everyone pings nobody. A
 * forward of a forward copies the original.
 */
#include "api/forward.h"

#include <string.h>

#include "api/access.h"
#include "api/reply.h"
#include "core/clock.h"
#include "core/jsonout.h"
#include "core/uuid.h"
#include "store/messages.h"
#include "store/people.h"

#define NONE "forward.messageId: mensagem não encontrada"

/* The message at mid if the caller can read it (a new reference), or NULL answered. */
static json_t *readable(struct api_call *c, const char *mid)
{
    struct store_message_ref ref;
    int found = store_message_ref(c->db, mid, &ref);
    int ok = found > 0 ? api__may_read(c, ref.channel_id) : found;
    int rc = STORE_DONE;
    json_t *m = ok > 0 ? store_message_json(c->db, mid, &rc) : NULL;
    if (ok < 0 || rc < 0)
        api__internal(c);
    else if (!m)
        api__bad(c, "forward.messageId", "mensagem não encontrada");
    return m;
}

/* Who wrote m, as its readers saw them: a webhook's name, else the person's shown name. */
static json_t *author_name(struct api_call *c, json_t *m)
{
    json_t *hook = json_object_get(m, "webhook");
    if (json_is_object(hook))
        return json_incref(json_object_get(hook, "name"));
    int rc;
    json_t *u = store_user_json(c->db, json_string_value(json_object_get(m, "fromId")), &rc);
    const char *shown = json_string_value(json_object_get(u, "displayName"));
    if (!shown || !*shown)
        shown = json_string_value(json_object_get(u, "username"));
    json_t *name = json_string(shown ? shown : ""); /* an account deleted since */
    json_decref(u);
    return name;
}

/* What the new message shows of src: the copy src already carries, or src itself. */
static json_t *copy_of(struct api_call *c, json_t *src)
{
    json_t *inner = json_object_get(src, "forwarded");
    if (json_is_object(inner))
        return json_deep_copy(inner);
    json_t *embeds = json_object_get(src, "embeds");
    return json_pack("{s:O,s:O,s:O,s:O,s:O,s:o,s:O,s:O,s:O}", "messageId",
                     json_object_get(src, "id"), "serverId", json_object_get(src, "serverId"),
                     "channelId", json_object_get(src, "channelId"), "threadId",
                     json_object_get(src, "threadId"), "fromId", json_object_get(src, "fromId"),
                     "authorName", author_name(c, src), "content", json_object_get(src, "content"),
                     "embeds", embeds ? embeds : json_null(), "createdAt",
                     json_object_get(src, "createdAt"));
}

static int alone(struct api_call *c, json_t *body, const struct draft *d)
{
    json_t *poll = json_object_get(body, "poll");
    if ((d->content && *d->content) || d->reply_to_id || api__files_sent(c) ||
        (poll && !json_is_null(poll))) {
        api__bad(c, "forward",
                 "uma mensagem encaminhada vai sozinha (sem content, arquivos, "
                 "enquete nem resposta)");
        return -1;
    }
    return 0;
}

/* out's strings are the copy's, which the request holds. */
static int fill(struct api_call *c, json_t *copy, struct store_new_forward *out)
{
    const char *at = json_string_value(json_object_get(copy, "createdAt"));
    json_t *embeds = json_object_get(copy, "embeds");
    char *view = jsonout_dump(copy, NULL);
    char *embeds_json = json_is_array(embeds) ? jsonout_dump(embeds, NULL) : NULL;
    if (!view || api__at_end_free(c, view) || (embeds_json && api__at_end_free(c, embeds_json)) ||
        (json_is_array(embeds) && !embeds_json)) {
        if (!c->answered)
            api__internal(c);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->source_id = json_string_value(json_object_get(copy, "messageId"));
    out->source_server_id = json_string_value(json_object_get(copy, "serverId"));
    out->source_channel_id = json_string_value(json_object_get(copy, "channelId"));
    out->source_thread_id = json_string_value(json_object_get(copy, "threadId"));
    out->author_id = json_string_value(json_object_get(copy, "fromId"));
    out->author_name = json_string_value(json_object_get(copy, "authorName"));
    out->content = json_string_value(json_object_get(copy, "content"));
    out->embeds_json = embeds_json;
    out->view_json = view;
    if (!at || clock_parse(at, strlen(at), &out->created_at) || !out->source_id ||
        !out->source_channel_id || !out->author_id || !out->author_name || !out->content) {
        api__internal(c);
        return -1;
    }
    return 0;
}

int api__forward_take(struct api_call *c, json_t *body, const struct draft *d,
                      struct store_new_forward *out, struct api_files *files, int *has)
{
    *has = 0;
    json_t *fw = json_object_get(body, "forward");
    if (!fw || json_is_null(fw))
        return 0;
    const char *mid = json_string_value(json_object_get(fw, "messageId"));
    if (!json_is_object(fw) || !mid || !uuid_valid(mid, strlen(mid))) {
        api__bad(c, "forward.messageId", "deve ser o ID de uma mensagem");
        return -1;
    }
    json_t *src;
    if (alone(c, body, d) || !(src = readable(c, mid)) || api__at_end_json(c, src))
        return -1;
    if (!json_is_null(json_object_get(src, "poll"))) {
        api__bad(c, "forward.messageId", "enquetes não podem ser encaminhadas");
        return -1;
    }
    json_t *copy = copy_of(c, src);
    if (!copy || api__at_end_json(c, copy)) {
        if (!c->answered)
            api__internal(c);
        return -1;
    }
    if (fill(c, copy, out) || api__files_copy(c, mid, json_object_get(src, "attachments"), files))
        return -1;
    *has = 1;
    return 0;
}
