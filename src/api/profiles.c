/*
 * What others see of a person: GET /api/users/:uid/profile (name, picture, about, banner colour)
 * for whoever shares a server or a conversation with them; and their picture: PUT
 * /api/users/@me/avatar (one image, multipart), DELETE …/avatar, GET
 * /api/users/:uid/avatar/:key[?size=64]. Only two square WebP copies are kept,
 * cut from the image's middle at the sizes the pages draw (256 and 64 pixels) and encoded anew,
 * so nothing of the upload's metadata (a phone's GPS position) survives, and the upload itself
 * is never stored. The key in the URL is the picture's: a new picture is a new URL, and so each
 * is cached for a year.
 */
#include <http_parser.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api/attachments.h"
#include "api/events.h"
#include "api/input.h"
#include "api/limits.h"
#include "api/reply.h"
#include "domain/files.h"
#include "http/upload.h"
#include "media/probe.h"
#include "state/presence.h"
#include "store/avatars.h"
#include "store/channels.h"
#include "store/people.h"

#define AVATAR_LARGE     256
#define AVATAR_SMALL     64
#define AVATAR_BYTES_MAX (10 * 1000 * 1000)
#define MINUTE_MS        (60 * 1000)

/* One square copy of the image at path stored as a blob: 0; 1 when the image cannot be made
 * into one; -1 on a failure of ours. */
static int square(struct api_call *c, const char *path, const struct media_image_header *h,
                  int side, char hash[CRYPTO_SHA256_HEX + 1])
{
    char out[HTTP_UPLOAD_PATH];
    int fd = api__spool_file(c->svc, "avatar", out, sizeof out);
    if (fd < 0)
        return -1;
    close(fd);
    if (media_square(path, h, out, side)) {
        unlink(out);
        return 1;
    }
    size_t size;
    return api__file_keep(c, out, hash, &size) ? -1 : 0;
}

/* The one image of the upload, checked: it, or NULL when it has answered. */
static struct http_upload_file *the_image(struct api_call *c, struct media_image_header *h)
{
    const struct http_upload *up = c->req->upload;
    if (!up || up->nfiles != 1) {
        api__bad(c, "avatar", "envie uma imagem, um arquivo em multipart/form-data");
        return NULL;
    }
    struct http_upload_file *f = &up->files[0];
    if (f->size > AVATAR_BYTES_MAX) {
        api__error(c, 413, "A imagem passa de 10 MB");
        return NULL;
    }
    char type[128];
    media_type(f->path, type, sizeof type);
    if (!rule_file_is_image(type)) {
        api__bad(c, "avatar", "deve ser uma imagem PNG, JPEG, GIF ou WebP");
        return NULL;
    }
    if (media_image_file_header(f->path, h)) {
        api__bad(c, "avatar", "imagem malformada");
        return NULL;
    }
    return f;
}

static void avatar_put(struct api_call *c)
{
    struct api_limit limit = {"upload", (uint32_t)c->svc->cfg->uploads_per_minute, MINUTE_MS};
    struct media_image_header h;
    struct http_upload_file *f = the_image(c, &h);
    if (!f || api__limit_hit(c, &limit))
        return;
    struct store_avatar a = {.user_id = c->me.user_id};
    int rc = square(c, f->path, &h, AVATAR_LARGE, a.large);
    if (!rc)
        rc = square(c, f->path, &h, AVATAR_SMALL, a.small);
    if (rc > 0) {
        api__bad(c, "avatar", "imagem malformada ou grande demais para ser lida");
        return;
    }
    if (rc < 0 || store_avatar_set(c->svc->writer, &a) < 0) {
        api__internal(c);
        return;
    }
    api__event_profile_changed(c);
    api__me_reply(c);
}

static void avatar_delete(struct api_call *c)
{
    struct store_avatar a = {.user_id = c->me.user_id};
    if (store_avatar_set(c->svc->writer, &a) < 0) {
        api__internal(c);
        return;
    }
    api__event_profile_changed(c);
    api__me_reply(c);
}

/* Seen by anyone signed in, person or bot, who has its URL (as a member list or a DM gives it),
 * the way a chat service's pictures are. */
static void avatar_get(struct api_call *c)
{
    static const char *NONE = "Imagem não encontrada";
    const char *uid = api__param_id(c, "uid", NONE);
    const char *key = api__param(c, "key");
    if (!uid)
        return;
    struct store_avatar a;
    int found = store_avatar_get(c->db, uid, &a);
    if (found < 0) {
        api__internal(c);
        return;
    }
    if (!found || !a.large[0] || strlen(key) != STORE_AVATAR_KEY_LEN ||
        strncmp(a.large, key, STORE_AVATAR_KEY_LEN)) {
        api__error(c, 404, NONE);
        return;
    }
    struct slice size;
    int sized = http_query_param(c->req->query, "size", &size);
    if (sized && !slice_eq(size, "64") && !slice_eq(size, "256")) {
        api__bad(c, "size", "deve ser 64 ou 256");
        return;
    }
    api__blob_send(c, sized && slice_eq(size, "64") ? a.small : a.large, "image/webp", NULL);
}

/* A stranger's profile is not there for the caller: 404, never a 403 that says it is. */
static void profile_get(struct api_call *c)
{
    static const char *NONE = "Pessoa não encontrada";
    const char *uid = api__param_id(c, "uid", NONE);
    if (!uid)
        return;
    int rc = store_people_acquainted(c->db, c->me.user_id, uid);
    json_t *user = rc > 0 ? store_user_profile_json(c->db, uid, &rc) : NULL;
    if (rc < 0)
        api__internal(c);
    else if (!user)
        api__error(c, 404, NONE);
    else {
        json_object_set_new(user, "presence", state_presence_shown_json(c->svc->presence, uid));
        api__reply(c, 200, json_pack("{so}", "user", user));
    }
}

const struct api_route api_profile_routes[] = {
    API_ROUTE(GET, "/api/users/:uid/profile", profile_get, API_ANY),
    API_ROUTE(PUT, "/api/users/@me/avatar", avatar_put, API_PERSON, .body = API_BODY_UPLOAD),
    API_ROUTE(DELETE, "/api/users/@me/avatar", avatar_delete, API_PERSON),
    API_ROUTE(GET, "/api/users/:uid/avatar/:key", avatar_get, API_ANY),
    {0},
};
