/* Message composition: see compose.h. */
#include "api/reply.h"
#include "api/input.h"
#include "api/compose.h"

#include "api/access.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "domain/automod.h"
#include "domain/mentions.h"
#include "domain/message_rules.h"
#include "store/messages.h"
#include "state/server.h"

/* nonce (a string of 1–64 characters, or an integer as Discord allows) and enforceNonce. */
static int read_nonce(struct api_call *c, json_t *body, struct draft *d)
{
    json_t *n = json_object_get(body, "nonce");
    if (json_is_integer(n)) {
        snprintf(d->nonce_text, sizeof d->nonce_text, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(n));
        d->nonce = d->nonce_text;
    } else if (n && !json_is_null(n) &&
               api__in_str(c, body, "nonce", 1, MESSAGE_NONCE_MAX, 0, &d->nonce) < 0) {
        return -1;
    }
    if (api__in_bool(c, body, "enforceNonce", 0, &d->enforce_nonce) < 0)
        return -1;
    if (d->enforce_nonce && !d->nonce) {
        api__bad(c, "nonce", "obrigatório com enforceNonce");
        return -1;
    }
    return 0;
}

int api__draft_read(struct api_call *c, json_t *body, int rich, int64_t base_flags, struct draft *d)
{
    memset(d, 0, sizeof *d);
    int rc = api__in_str(c, body, "content", 0, MSG_CONTENT_MAX, API_IN_NULLABLE, &d->content);
    if (rc < 0)
        return -1;
    d->content_set = rc == 1;
    json_t *reply = json_object_get(body, "replyToId");
    if (reply && !json_is_null(reply)) {
        if (!json_is_string(reply)) {
            api__bad(c, "replyToId", "deve ser um texto");
            return -1;
        }
        d->reply_to_id = json_string_value(reply);
    }
    if (read_nonce(c, body, d))
        return -1;
    if (!rich)
        return 0;
    d->flags = base_flags;
    rc = api__in_int(c, body, "flags", 0, MSG_FLAG_COMPONENTS_V2, API_IN_NULLABLE, &d->flags);
    if (rc < 0)
        return -1;
    d->flags_set = rc == 1;
    if (d->flags != 0 && d->flags != MSG_FLAG_COMPONENTS_V2) {
        api__bad(c, "flags", "só 0 ou 32768 (IS_COMPONENTS_V2) são aceitos");
        return -1;
    }
    struct rule_error err;
    json_t *embeds = json_object_get(body, "embeds");
    if (embeds && !json_is_null(embeds)) {
        d->embeds_set = 1;
        if (!(d->embeds = rule_message_clean_embeds(embeds, &err)))
            return api__rule_refused(c, &err);
        if (api__at_end_json(c, d->embeds)) {
            d->embeds = NULL;
            return -1;
        }
    }
    json_t *components = json_object_get(body, "components");
    if (components && !json_is_null(components)) {
        d->components_set = 1;
        d->components =
            rule_message_clean_components(components, d->flags == MSG_FLAG_COMPONENTS_V2, &err);
        if (!d->components)
            return api__rule_refused(c, &err);
        if (api__at_end_json(c, d->components)) {
            d->components = NULL;
            return -1;
        }
    }
    return 0;
}

int api__draft_check(struct api_call *c, const char *content, json_t *embeds, json_t *components,
                     int64_t flags, size_t files)
{
    int has_content = content && *content;
    int has_embeds = json_array_size(embeds) > 0;
    int has_components = json_array_size(components) > 0;
    if (flags == MSG_FLAG_COMPONENTS_V2) {
        if (has_content) {
            api__bad(c, "content", "deve estar ausente com a flag IS_COMPONENTS_V2");
            return -1;
        }
        if (has_embeds) {
            api__bad(c, "embeds", "deve estar ausente com a flag IS_COMPONENTS_V2");
            return -1;
        }
        if (!has_components) {
            api__bad(c, "components", "obrigatório com a flag IS_COMPONENTS_V2");
            return -1;
        }
    }
    if (!has_content && !has_embeds && !has_components && !files) {
        api__bad(c, "content", "obrigatório (envie content, embeds, components ou arquivos)");
        return -1;
    }
    return 0;
}

int api__mentions(struct api_call *c, const struct state_server *srv, const char *content,
                  int allow_everyone, struct mentions_out *out)
{
    memset(out, 0, sizeof *out);
    size_t len = content ? strlen(content) : 0;
    char names[MENTIONS_MAX][33];
    struct mention_user users[MENTIONS_MAX];
    size_t ncand = len ? rule_mentions_candidates(content, len, names, MENTIONS_MAX) : 0,
           nusers = 0;
    for (size_t i = 0; i < ncand; i++) {
        const struct state_member *m = state_server_member_by_username(srv, names[i]);
        if (m) {
            users[nusers].id = m->user_id;
            users[nusers].username = names[i];
            nusers++;
        }
    }
    /* Mentionable roles above @everyone, highest first (the state keeps them in that order). */
    size_t nroles = 0;
    struct mention_role roles[250];
    const struct state_shape *sh = srv->shape;
    for (size_t i = 0; len && memchr(content, '@', len) && i < sh->nroles && nroles < 250; i++)
        if (sh->roles[i].mentionable)
            roles[nroles++] = (struct mention_role){sh->roles[i].id, sh->roles[i].name};
    struct mention_result res;
    rule_mentions_resolve(content ? content : "", len, users, nusers, roles, nroles, allow_everyone,
                          &res);
    out->users = json_array();
    out->roles = json_array();
    if (api__at_end_json(c, out->users) | api__at_end_json(c, out->roles)) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    for (size_t i = 0; i < res.nusers; i++)
        json_array_append_new(out->users, json_string(res.user_ids[i]));
    for (size_t i = 0; i < res.nroles; i++)
        json_array_append_new(out->roles, json_string(res.role_ids[i]));
    out->everyone = res.everyone;
    out->total = res.total;
    return 0;
}

/* The text auto-moderation reads: the content and the words shown in embeds. */
static char *moderated_text(const char *content, json_t *embeds)
{
    struct buf b;
    buf_init(&b, 64 * 1024);
    buf_append_str(&b, content ? content : "");
    static const char *keys[] = {"title", "description"};
    size_t i, k;
    json_t *e, *f;
    json_array_foreach(embeds, i, e)
    {
        for (size_t j = 0; j < 2; j++)
            if (json_is_string(json_object_get(e, keys[j]))) {
                buf_append_str(&b, "\n");
                buf_append_str(&b, json_string_value(json_object_get(e, keys[j])));
            }
        json_array_foreach(json_object_get(e, "fields"), k, f)
        {
            buf_append_str(&b, "\n");
            buf_append_str(&b, json_string_value(json_object_get(f, "name")));
            buf_append_str(&b, "\n");
            buf_append_str(&b, json_string_value(json_object_get(f, "value")));
        }
    }
    return buf_detach(&b, NULL);
}

int api__automod(struct api_call *c, const struct state_server *srv, const char *content,
                 json_t *embeds, size_t mentions)
{
    if (!srv->shape->automod_on)
        return 0;
    char *text = moderated_text(content, embeds);
    int blocked = text && rule_automod_blocks(text, strlen(text), srv->shape->automod_words,
                                              srv->shape->automod_max, mentions);
    free(text);
    if (blocked) {
        api__error_flag(c, 422, "Mensagem bloqueada pela moderação automática do servidor",
                        "automod");
        return -1;
    }
    return 0;
}
