/* The media proxy: an image a stored message shows (an embed's image or thumbnail, a Components
 * V2 thumbnail or gallery item, a link preview's image), fetched by praca for a person who can see
 * the message, so the page, whose Content-Security-Policy loads nothing from other sites, shows it
 * without telling that site who reads. Only URLs the message holds are fetched, and only images
 * come back. */
#include <http_parser.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/api.h"
#include "api/limits.h"
#include "api/reply.h"
#include "api/endpoint.h"
#include "api/place.h"
#include "domain/urls.h"
#include "store/messages.h"

/* The image types passed on, as the answer names them (anything else, SVG included, is not). */
static const char *const IMAGE_TYPES[] = {"image/png", "image/jpeg", "image/gif", "image/webp",
                                          "image/avif"};

static int is_url(json_t *media, const char *url)
{
    const char *v = json_string_value(json_object_get(media, "url"));
    return v && !strcmp(v, url);
}

/* 1 when a Components V2 list shows url as an image (type 11 thumbnails and type 12 galleries,
 * at any depth). */
static int in_components(json_t *list, const char *url)
{
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *c = json_array_get(list, i), *items = json_object_get(c, "items");
        if (is_url(json_object_get(c, "media"), url) ||
            in_components(json_object_get(c, "components"), url))
            return 1;
        json_t *accessory = json_object_get(c, "accessory");
        if (accessory && is_url(json_object_get(accessory, "media"), url))
            return 1;
        for (size_t k = 0; k < json_array_size(items); k++)
            if (is_url(json_object_get(json_array_get(items, k), "media"), url))
                return 1;
    }
    return 0;
}

static int shows(json_t *message, const char *url)
{
    json_t *embeds = json_object_get(message, "embeds");
    for (size_t i = 0; i < json_array_size(embeds); i++) {
        json_t *e = json_array_get(embeds, i);
        if (is_url(json_object_get(e, "image"), url) ||
            is_url(json_object_get(e, "thumbnail"), url))
            return 1;
    }
    json_t *previews = json_object_get(message, "previews");
    for (size_t i = 0; i < json_array_size(previews); i++) {
        const char *image =
            json_string_value(json_object_get(json_array_get(previews, i), "image"));
        if (image && !strcmp(image, url))
            return 1;
    }
    return in_components(json_object_get(message, "components"), url);
}

/* The fetch's outcome, from the calls' thread to a worker. */
struct fetch {
    struct api_later *later;
    int sent;
    struct endpoint_result r;
};

static void fetched_reply(struct api_call *c, void *arg)
{
    struct fetch *f = arg;
    const char *type = NULL;
    /* The media type exactly (parameters aside): image/pngx is not image/png. */
    size_t n = strcspn(f->r.content_type, "; \t");
    for (size_t i = 0; i < sizeof IMAGE_TYPES / sizeof IMAGE_TYPES[0]; i++)
        if (n == strlen(IMAGE_TYPES[i]) && !strncasecmp(f->r.content_type, IMAGE_TYPES[i], n))
            type = IMAGE_TYPES[i];
    if (f->sent || !f->r.body) {
        api__error(c, 502,
                   "A imagem não pôde ser lida: sem resposta a tempo, endereço recusado ou "
                   "maior que 4 MB");
    } else if (f->r.status != 200) {
        char msg[96];
        snprintf(msg, sizeof msg, "O site da imagem respondeu %ld", f->r.status);
        api__error(c, 502, msg);
    } else if (!type) {
        api__error(c, 502, "O endereço não é de uma imagem PNG, JPEG, GIF, WebP ou AVIF");
    } else {
        /* Kept by the browser of the one who asked for an hour, so a page shown again
         * does not fetch it again; another sign-in on that browser asks anew. */
        c->res->cache_control = "private, max-age=3600";
        http_response_add_header(c->res, "Vary", "Cookie, Authorization");
        api__reply_bytes(c, 200, type, f->r.body, f->r.body_len);
        f->r.body = NULL;
    }
    api__endpoint_result_cleanup(&f->r);
    free(f);
}

static void fetched(void *arg, int sent, struct endpoint_result *r)
{
    struct fetch *f = arg;
    f->sent = sent;
    f->r = *r;
    api__later_resume(f->later, fetched_reply, f);
}

/* The url query parameter, decoded, when it is an absolute http(s) URL; -1 when answered. */
static int url_param(struct api_call *c, char url[URL_MAX + 1])
{
    struct slice v;
    size_t len;
    const char *why;
    if (!http_query_param(c->req->query, "url", &v)) {
        api__bad(c, "url", "obrigatório");
        return -1;
    }
    if (http_url_decode(v, url, URL_MAX + 1, &len) || len > URL_MAX) {
        api__bad(c, "url", "deve ter até 2048 caracteres");
        return -1;
    }
    if ((why = rule_url_check_http(url, len))) {
        api__bad(c, "url", why);
        return -1;
    }
    return 0;
}

static void fetch_for(struct api_call *c, const char *url)
{
    struct fetch *f = calloc(1, sizeof *f);
    if (!f || !(f->later = api__later(c))) {
        free(f);
        api__internal(c);
        return;
    }
    if (api__endpoint_fetch(c->svc->endpoints, c->me.user_id, url,
                            c->svc->cfg->allow_private_endpoints, fetched, f) == 0)
        return;
    api__later_cancel(c);
    free(f);
    api__busy(c, "Muitas imagens sendo buscadas agora; tente de novo em instantes");
}

/* GET /api/servers/:sid/channels/:cid/messages/:mid/media?url=… */
static void media(struct api_call *c)
{
    struct place p;
    const char *mid;
    struct store_message_ref ref;
    char url[URL_MAX + 1];
    if (api__place(c, &p))
        return;
    if (!api__place_message(c, &p, &mid, &ref) && !url_param(c, url)) {
        int rc;
        json_t *message = store_message_json(c->db, mid, &rc);
        if (!message)
            api__internal(c);
        else if (!shows(message, url))
            api__error(c, 404, "Esta mensagem não mostra essa imagem");
        else
            fetch_for(c, url);
        json_decref(message);
    }
}

const struct api_route api_media_routes[] = {
    API_ROUTE(GET, "/api/servers/:sid/channels/:cid/messages/:mid/media", media, API_PERSON),
    {0},
};
