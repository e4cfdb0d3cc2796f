/*
 * A server's own emoji (the seed's customEmojiId made real): uploaded by whoever holds
 * GERENCIAR_SERVIDOR as one PNG, GIF or WebP (animated kept), fitted within 128 × 128 and
 * written again as WebP through the files pipeline (nothing of the upload's metadata stays), at
 * most 256 KB so made and --server-emoji-max per server; listed for members and bots; renamed;
 * deleted (its reactions stay, shown by name). An emoji's picture is seen by anyone signed in
 * with its URL, as messages and reactions in any server show it.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/access.h"
#include "api/api.h"
#include "api/attachments.h"
#include "api/audit.h"
#include "api/events.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "core/clock.h"
#include "domain/emoji.h"
#include "domain/files.h"
#include "http/upload.h"
#include "media/probe.h"
#include "store/emojis.h"

#define EMOJI_SIDE       128
#define EMOJI_BYTES_MAX  (256 * 1024)       /* as made, after fitting */
#define EMOJI_UPLOAD_MAX (10 * 1000 * 1000) /* as sent */
#define MINUTE_MS        (60 * 1000)

static const char *NONE = "Emoji não encontrado";

/* name, folded (domain/emoji.h), from the JSON body: 0, or -1 answered. */
static int in_name(struct api_call *c, json_t *body, char out[RULE_EMOJI_NAME_MAX + 1])
{
    const char *name;
    if (api__in_str(c, body, "name", 1, RULE_EMOJI_NAME_MAX, API_IN_REQUIRED, &name) < 0)
        return -1;
    size_t len = strlen(name);
    memcpy(out, name, len + 1);
    if (!rule_emoji_name_fold(out, len)) {
        api__bad(c, "name", "deve ter de 2 a 32 letras sem acento, números ou _");
        return -1;
    }
    return 0;
}

/* The one picture of the upload made into an emoji and kept: 0 with its blob, or -1 answered. */
static int picture(struct api_call *c, struct store_new_emoji *e)
{
    const struct http_upload *up = c->req->upload;
    if (!up || up->nfiles != 1) {
        api__bad(c, "image", "envie uma imagem, um arquivo em multipart/form-data");
        return -1;
    }
    const struct http_upload_file *f = &up->files[0];
    if (f->size > EMOJI_UPLOAD_MAX) {
        api__error(c, 413, "A imagem passa de 10 MB");
        return -1;
    }
    char type[128], out[HTTP_UPLOAD_PATH];
    struct media_image_header h;
    media_type(f->path, type, sizeof type);
    if (strcmp(type, "image/png") && strcmp(type, "image/gif") && strcmp(type, "image/webp")) {
        api__bad(c, "image", "deve ser uma imagem PNG, GIF ou WebP");
        return -1;
    }
    int fd = api__spool_file(c->svc, "emoji", out, sizeof out);
    if (fd < 0) {
        api__internal(c);
        return -1;
    }
    close(fd);
    struct stat st;
    if (media_image_file_header(f->path, &h) ||
        media_emoji(f->path, &h, out, EMOJI_SIDE, &e->animated) || stat(out, &st)) {
        unlink(out);
        api__bad(c, "image", "imagem malformada, ou grande demais para ser lida");
        return -1;
    }
    if (st.st_size > EMOJI_BYTES_MAX) {
        unlink(out);
        api__bad(c, "image", "passa de 256 KB mesmo reduzida a 128 × 128: use menos quadros");
        return -1;
    }
    size_t size;
    if (api__file_keep(c, out, e->blob, &size)) {
        api__internal(c);
        return -1;
    }
    return 0;
}

static void emoji_create(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    struct api_limit limit = {"upload", (uint32_t)c->svc->cfg->uploads_per_minute, MINUTE_MS};
    json_t *body;
    char name[RULE_EMOJI_NAME_MAX + 1], id[UUID_LEN + 1];
    if (!sid || !(body = api__body(c)) || in_name(c, body, name) || api__limit_hit(c, &limit))
        return;
    uuid_v7(id);
    struct store_new_emoji e = {.id = id,
                                .server_id = sid,
                                .name = name,
                                .created_by = c->me.user_id,
                                .max = c->svc->cfg->server_emoji_max,
                                .now = clock_now_ms()};
    if (picture(c, &e))
        return;
    char full[96];
    snprintf(full, sizeof full, "O servidor já tem %lld emoji, o máximo", (long long)e.max);
    if (api__store_answer(c, store_emoji_create(c->svc->writer, &e),
                          &(struct api_store_words){
                              .taken = "name: já existe um emoji com esse nome", .full = full}))
        return;
    int rc;
    json_t *made = store_emoji_json(c->db, id, &rc);
    if (!made) {
        api__internal(c);
        return;
    }
    api__audit(c, sid, "emoji.create", "emoji", id,
               json_pack("[{sssnss}]", "key", "name", "old", "new", name));
    api__event_server_changed(c, sid, "emojis");
    api__reply(c, 201, json_pack("{so}", "emoji", made));
}

static void emoji_list(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, 0);
    if (sid)
        api__reply_list(c, "emojis", store_emojis_json(c->db, sid));
}

static void emoji_rename(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    const char *eid = sid ? api__param_id(c, "eid", NONE) : NULL;
    json_t *body;
    char name[RULE_EMOJI_NAME_MAX + 1];
    if (!eid || !(body = api__body(c)) || in_name(c, body, name))
        return;
    int rc;
    json_t *before = store_emoji_json(c->db, eid, &rc);
    struct store_emoji_rename r = {.server_id = sid, .id = eid, .name = name};
    if (api__store_answer(
            c, store_emoji_rename(c->svc->writer, &r),
            &(struct api_store_words){.missing = NONE,
                                      .taken = "name: já existe um emoji com esse nome"})) {
        json_decref(before);
        return;
    }
    json_t *after = store_emoji_json(c->db, eid, &rc);
    static const char *const KEYS[] = {"name", NULL};
    api__audit_update(c, sid, "emoji.update", "emoji", eid, before, json_incref(after), KEYS);
    api__event_server_changed(c, sid, "emojis");
    if (after)
        api__reply(c, 200, json_pack("{so}", "emoji", after));
    else
        api__internal(c);
}

static void emoji_delete(struct api_call *c)
{
    struct access a;
    const char *sid = api__server(c, &a, PERM_GERENCIAR_SERVIDOR);
    const char *eid = sid ? api__param_id(c, "eid", NONE) : NULL;
    if (!eid)
        return;
    int rc;
    json_t *before = store_emoji_json(c->db, eid, &rc);
    if (api__store_answer(c, store_emoji_delete(c->svc->writer, sid, eid),
                          &(struct api_store_words){.missing = NONE})) {
        json_decref(before);
        return;
    }
    static const char *const KEYS[] = {"name", NULL};
    api__audit(c, sid, "emoji.delete", "emoji", eid, api__audit_changes(before, NULL, KEYS));
    json_decref(before);
    api__event_server_changed(c, sid, "emojis");
    api__ok(c);
}

/* What a reaction or a message shows of an emoji, deleted or not (a deleted one by its name). */
static void emoji_get(struct api_call *c)
{
    const char *eid = api__param_id(c, "eid", NONE);
    if (!eid)
        return;
    int rc;
    json_t *e = store_emoji_json(c->db, eid, &rc);
    if (!e) {
        if (rc < 0)
            api__internal(c);
        else
            api__error(c, 404, NONE);
        return;
    }
    api__reply(c, 200, json_pack("{so}", "emoji", e));
}

static void emoji_image(struct api_call *c)
{
    const char *eid = api__param_id(c, "eid", NONE);
    char blob[CRYPTO_SHA256_HEX + 1];
    int animated;
    int found = eid ? store_emoji_blob(c->db, eid, blob, &animated) : 0;
    if (found < 0)
        api__internal(c);
    else if (!found && eid)
        api__error(c, 404, NONE);
    else if (found)
        api__blob_send(c, blob, "image/webp", NULL);
}

int api__custom_emoji_usable(struct api_call *c, const char *sid, const char *mid,
                             const char *custom)
{
    if (!custom)
        return 0;
    int ok = store_emoji_usable(c->db, custom, sid, c->me.user_id);
    if (!ok)
        ok = store_emoji_reacted(c->db, mid, custom, c->me.user_id);
    if (ok < 0)
        api__internal(c);
    else if (!ok)
        api__bad(c, "customEmojiId", "não é um emoji deste servidor nem de um servidor seu");
    return ok > 0 ? 0 : -1;
}

const struct api_route api_emoji_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/emojis", emoji_list, API_ANY),
    API_ROUTE(POST, "/api/servers/:sid/emojis", emoji_create, API_ANY, .body = API_BODY_UPLOAD),
    API_ROUTE(PATCH, "/api/servers/:sid/emojis/:eid", emoji_rename, API_ANY),
    API_ROUTE(DELETE, "/api/servers/:sid/emojis/:eid", emoji_delete, API_ANY),
    API_ROUTE(GET, "/api/emojis/:eid", emoji_get, API_ANY),
    API_ROUTE(GET, "/api/emojis/:eid/image", emoji_image, API_ANY),
    {0},
};
