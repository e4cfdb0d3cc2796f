/*
 * Message body rules: see message_rules.h. The checks walk the JSON once, building the clean
 * copy as they go; every failure names its path ("embeds.0.fields.3.value").
 */
#include "domain/message_rules.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "domain/text.h"
#include "domain/urls.h"

struct walk {
    struct rule_error *err;
    size_t count; /* components seen, for the limit of 40 */
    json_t *ids;  /* customIds seen (object used as a set) */
};

static int opt_url(json_t *src, json_t *dst, const char *key, const char *base,
                   struct rule_error *err, int required, int allow_attachment)
{
    char path[RULE_PATH_MAX];
    json_t *v;
    int rc = rule__json_text(src, key, base, path, err, required, &v);
    if (rc <= 0)
        return rc;
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    int attachment = allow_attachment && len > 13 && strncmp(s, "attachment://", 13) == 0;
    if (!attachment && rule_url_check_http(s, len))
        return rule__json_fail(err, path, "deve ser uma URL http ou https");
    json_object_set(dst, key, v);
    return 1;
}

/* An object field {url} (image, thumbnail, media). */
static int url_object(json_t *src, json_t *dst, const char *key, const char *base,
                      struct rule_error *err, int required, int allow_attachment)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, key);
    json_t *v = json_object_get(src, key);
    if (!v || json_is_null(v))
        return required ? rule__json_fail(err, path, "obrigatório") : 0;
    if (!json_is_object(v))
        return rule__json_fail(err, path, "deve ser um objeto");
    json_t *clean = json_object();
    int rc = opt_url(v, clean, "url", path, err, 1, allow_attachment);
    if (rc < 0) {
        json_decref(clean);
        return -1;
    }
    json_object_set_new(dst, key, clean);
    return 1;
}

/* ---- embeds ---- */

static int embed_sub_object(json_t *src, json_t *dst, const char *key, const char *base,
                            struct rule_error *err, const char *text_key, size_t text_max)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, key);
    json_t *v = json_object_get(src, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_object(v))
        return rule__json_fail(err, path, "deve ser um objeto");
    json_t *clean = json_object();
    int ok = rule__json_str(v, clean, text_key, 1, text_max, path, err, 1) >= 0 &&
             opt_url(v, clean, "url", path, err, 0, 0) >= 0 &&
             opt_url(v, clean, "iconUrl", path, err, 0, 0) >= 0;
    if (!ok) {
        json_decref(clean);
        return -1;
    }
    if (!strcmp(key, "footer"))
        json_object_del(clean, "url"); /* footers have no link */
    json_object_set_new(dst, key, clean);
    return 1;
}

static int embed_field(json_t *f, json_t *clean, const char *fp, struct rule_error *err, void *arg)
{
    (void)arg;
    return rule__json_str(f, clean, "name", 1, 256, fp, err, 1) < 0 ||
                   rule__json_str(f, clean, "value", 1, 1024, fp, err, 1) < 0 ||
                   rule__json_bool(f, clean, "inline", fp, err) < 0
               ? -1
               : 0;
}

static int embed_fields(json_t *src, json_t *dst, const char *base, struct rule_error *err)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, "fields");
    json_t *v = json_object_get(src, "fields");
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_array(v))
        return rule__json_fail(err, path, "deve ser uma lista");
    if (json_array_size(v) > 25)
        return rule__json_fail(err, path, "deve ter no máximo 25 campos");
    json_t *out = rule__json_objects(v, path, err, embed_field, NULL);
    if (!out)
        return -1;
    json_object_set_new(dst, "fields", out);
    return 1;
}

static size_t str_chars(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? rule_text_chars(json_string_value(v), json_string_length(v)) : 0;
}

size_t rule__message_embeds_chars(json_t *embeds)
{
    size_t total = 0, i, k;
    json_t *e, *f;
    json_array_foreach(embeds, i, e)
    {
        total += str_chars(e, "title") + str_chars(e, "description");
        total += str_chars(json_object_get(e, "footer"), "text");
        total += str_chars(json_object_get(e, "author"), "name");
        json_array_foreach(json_object_get(e, "fields"), k, f) total +=
            str_chars(f, "name") + str_chars(f, "value");
    }
    return total;
}

static json_t *clean_embed(json_t *e, const char *path, struct rule_error *err)
{
    if (!json_is_object(e)) {
        rule__json_fail(err, path, "deve ser um objeto");
        return NULL;
    }
    json_t *out = json_object();
    int ok = rule__json_str(e, out, "title", 0, 256, path, err, 0) >= 0 &&
             rule__json_str(e, out, "description", 0, 4096, path, err, 0) >= 0 &&
             opt_url(e, out, "url", path, err, 0, 0) >= 0 &&
             rule__json_int(e, out, "color", 0, 0xFFFFFF, path, err, 0) >= 0 &&
             embed_sub_object(e, out, "footer", path, err, "text", 2048) >= 0 &&
             url_object(e, out, "image", path, err, 0, 1) >= 0 &&
             url_object(e, out, "thumbnail", path, err, 0, 1) >= 0 &&
             embed_sub_object(e, out, "author", path, err, "name", 256) >= 0 &&
             embed_fields(e, out, path, err) >= 0;
    json_t *ts = json_object_get(e, "timestamp");
    if (ok && ts && !json_is_null(ts)) {
        int64_t ms;
        char tp[128];
        rule__json_sub(tp, sizeof tp, path, "timestamp");
        if (!json_is_string(ts) ||
            clock_parse(json_string_value(ts), json_string_length(ts), &ms)) {
            ok = 0;
            rule__json_fail(err, tp, "deve ser uma data ISO 8601");
        } else {
            char iso[CLOCK_ISO_LEN + 1];
            clock_format_iso(ms, iso);
            json_object_set_new(out, "timestamp", json_string(iso));
        }
    }
    if (ok && json_object_size(out) == 0) {
        ok = 0;
        rule__json_fail(err, path, "um embed precisa de ao menos um campo");
    }
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *rule_message_clean_embeds(json_t *embeds, struct rule_error *err)
{
    if (!json_is_array(embeds)) {
        rule__json_fail(err, "embeds", "deve ser uma lista");
        return NULL;
    }
    if (json_array_size(embeds) > MSG_EMBEDS_MAX) {
        rule__json_fail(err, "embeds", "deve ter no máximo %d embeds", MSG_EMBEDS_MAX);
        return NULL;
    }
    json_t *out = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(embeds, i, e)
    {
        char path[32];
        rule__json_idx(path, sizeof path, "embeds", i);
        json_t *clean = clean_embed(e, path, err);
        if (!clean) {
            json_decref(out);
            return NULL;
        }
        json_array_append_new(out, clean);
    }
    if (rule__message_embeds_chars(out) > MSG_EMBED_TOTAL_MAX) {
        json_decref(out);
        rule__json_fail(err, "embeds", "deve ter no máximo %d caracteres no total",
                        MSG_EMBED_TOTAL_MAX);
        return NULL;
    }
    return out;
}

/* ---- components ---- */

enum {
    ROW = 1,
    BUTTON = 2,
    STRING_SELECT = 3,
    USER_SELECT = 5,
    ROLE_SELECT = 6,
    MENTIONABLE_SELECT = 7,
    CHANNEL_SELECT = 8,
    SECTION = 9,
    TEXT_DISPLAY = 10,
    THUMBNAIL = 11,
    MEDIA_GALLERY = 12,
    FILE_COMPONENT = 13,
    SEPARATOR = 14,
    CONTAINER = 17
};

static int is_select(json_int_t t)
{
    return t == STRING_SELECT || (t >= USER_SELECT && t <= CHANNEL_SELECT);
}

static json_t *component(struct walk *w, json_t *c, const char *path, const json_int_t *allowed,
                         size_t nallowed);

/* A customId, unique within the message. */
static int custom_id(struct walk *w, json_t *src, json_t *dst, const char *base)
{
    if (rule__json_str(src, dst, "customId", 1, 100, base, w->err, 1) < 0)
        return -1;
    const char *id = json_string_value(json_object_get(src, "customId"));
    char path[128];
    rule__json_sub(path, sizeof path, base, "customId");
    if (json_object_get(w->ids, id))
        return rule__json_fail(w->err, path, "repetido: cada customId deve ser único na mensagem");
    json_object_set_new(w->ids, id, json_true());
    return 0;
}

/* A list of child components of the allowed types, between min and max long. */
static int children(struct walk *w, json_t *src, json_t *dst, const char *key, const char *base,
                    size_t min, size_t max, const json_int_t *allowed, size_t nallowed)
{
    char path[128];
    rule__json_sub(path, sizeof path, base, key);
    json_t *v = json_object_get(src, key);
    if (!json_is_array(v))
        return rule__json_fail(w->err, path, v ? "deve ser uma lista" : "obrigatório");
    if (json_array_size(v) < min || json_array_size(v) > max)
        return rule__json_fail(w->err, path, "deve ter entre %zu e %zu componentes", min, max);
    json_t *out = json_array();
    size_t i;
    json_t *c;
    json_array_foreach(v, i, c)
    {
        char cp[128];
        rule__json_idx(cp, sizeof cp, path, i);
        json_t *clean = component(w, c, cp, allowed, nallowed);
        if (!clean) {
            json_decref(out);
            return -1;
        }
        json_array_append_new(out, clean);
    }
    json_object_set_new(dst, key, out);
    return 0;
}

static int button(struct walk *w, json_t *c, json_t *out, const char *path)
{
    if (rule__json_int(c, out, "style", 1, 5, path, w->err, 1) < 0 ||
        rule__json_str(c, out, "label", 0, 80, path, w->err, 0) < 0 ||
        rule__json_bool(c, out, "disabled", path, w->err) < 0)
        return -1;
    char p[128];
    if (json_integer_value(json_object_get(c, "style")) == 5) {
        rule__json_sub(p, sizeof p, path, "customId");
        if (json_object_get(c, "customId"))
            return rule__json_fail(w->err, p, "botões de link (style 5) não têm customId");
        return opt_url(c, out, "url", path, w->err, 1, 0) < 0 ? -1 : 0;
    }
    rule__json_sub(p, sizeof p, path, "url");
    if (json_object_get(c, "url"))
        return rule__json_fail(w->err, p, "só botões de link (style 5) têm url");
    return custom_id(w, c, out, path);
}

static int select_option(json_t *o, json_t *co, const char *op, struct rule_error *err, void *arg)
{
    (void)arg;
    return rule__json_str(o, co, "label", 1, 100, op, err, 1) < 0 ||
                   rule__json_str(o, co, "value", 1, 100, op, err, 1) < 0 ||
                   rule__json_str(o, co, "description", 0, 100, op, err, 0) < 0 ||
                   rule__json_bool(o, co, "default", op, err) < 0
               ? -1
               : 0;
}

static int select_menu(struct walk *w, json_t *c, json_t *out, const char *path, json_int_t type)
{
    if (custom_id(w, c, out, path) < 0 ||
        rule__json_str(c, out, "placeholder", 0, 150, path, w->err, 0) < 0 ||
        rule__json_int(c, out, "minValues", 0, 25, path, w->err, 0) < 0 ||
        rule__json_int(c, out, "maxValues", 1, 25, path, w->err, 0) < 0 ||
        rule__json_bool(c, out, "disabled", path, w->err) < 0)
        return -1;
    json_t *minv = json_object_get(out, "minValues"), *maxv = json_object_get(out, "maxValues");
    char p[128];
    rule__json_sub(p, sizeof p, path, "minValues");
    if (minv && maxv && json_integer_value(minv) > json_integer_value(maxv))
        return rule__json_fail(w->err, p, "não pode passar de maxValues");
    if (type != STRING_SELECT)
        return 0;
    rule__json_sub(p, sizeof p, path, "options");
    json_t *opts = json_object_get(c, "options");
    if (!json_is_array(opts))
        return rule__json_fail(w->err, p, opts ? "deve ser uma lista" : "obrigatório");
    if (json_array_size(opts) < 1 || json_array_size(opts) > 25)
        return rule__json_fail(w->err, p, "deve ter entre 1 e 25 opções");
    if (maxv && (size_t)json_integer_value(maxv) > json_array_size(opts)) {
        rule__json_sub(p, sizeof p, path, "maxValues");
        return rule__json_fail(w->err, p, "não pode passar do número de opções");
    }
    json_t *clean_opts = rule__json_objects(opts, p, w->err, select_option, NULL);
    if (!clean_opts)
        return -1;
    json_object_set_new(out, "options", clean_opts);
    return 0;
}

static int media_item(json_t *it, json_t *ci, const char *ip, struct rule_error *err, void *arg)
{
    (void)arg;
    return url_object(it, ci, "media", ip, err, 1, 1) < 0 ||
                   rule__json_str(it, ci, "description", 0, 1024, ip, err, 0) < 0 ||
                   rule__json_bool(it, ci, "spoiler", ip, err) < 0
               ? -1
               : 0;
}

static int media_items(struct walk *w, json_t *c, json_t *out, const char *path)
{
    char p[128];
    rule__json_sub(p, sizeof p, path, "items");
    json_t *items = json_object_get(c, "items");
    if (!json_is_array(items))
        return rule__json_fail(w->err, p, items ? "deve ser uma lista" : "obrigatório");
    if (json_array_size(items) < 1 || json_array_size(items) > 10)
        return rule__json_fail(w->err, p, "deve ter entre 1 e 10 itens");
    json_t *clean = rule__json_objects(items, p, w->err, media_item, NULL);
    if (!clean)
        return -1;
    json_object_set_new(out, "items", clean);
    return 0;
}

static const json_int_t ROW_CHILDREN[] = {BUTTON,      STRING_SELECT,      USER_SELECT,
                                          ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT};
static const json_int_t SECTION_CHILDREN[] = {TEXT_DISPLAY};
static const json_int_t ACCESSORY[] = {BUTTON, THUMBNAIL};
static const json_int_t CONTAINER_CHILDREN[] = {ROW,           SECTION,        TEXT_DISPLAY,
                                                MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR};

static int row(struct walk *w, json_t *c, json_t *out, const char *path)
{
    if (children(w, c, out, "components", path, 1, 5, ROW_CHILDREN,
                 sizeof ROW_CHILDREN / sizeof ROW_CHILDREN[0]) < 0)
        return -1;
    json_t *kids = json_object_get(out, "components");
    size_t i, selects = 0;
    json_t *k;
    json_array_foreach(kids, i, k) selects +=
        is_select(json_integer_value(json_object_get(k, "type")));
    char p[128];
    rule__json_sub(p, sizeof p, path, "components");
    if (selects && json_array_size(kids) != 1)
        return rule__json_fail(w->err, p,
                               "uma fileira tem até 5 botões ou um único menu de seleção");
    return 0;
}

static int section(struct walk *w, json_t *c, json_t *out, const char *path)
{
    if (children(w, c, out, "components", path, 1, 3, SECTION_CHILDREN, 1) < 0)
        return -1;
    char p[128];
    rule__json_sub(p, sizeof p, path, "accessory");
    json_t *acc = json_object_get(c, "accessory");
    if (!acc)
        return rule__json_fail(w->err, p, "obrigatório");
    json_t *clean = component(w, acc, p, ACCESSORY, 2);
    if (!clean)
        return -1;
    json_object_set_new(out, "accessory", clean);
    return 0;
}

static json_t *component(struct walk *w, json_t *c, const char *path, const json_int_t *allowed,
                         size_t nallowed)
{
    if (!json_is_object(c)) {
        rule__json_fail(w->err, path, "deve ser um objeto");
        return NULL;
    }
    if (++w->count > MSG_COMPONENTS_MAX) {
        rule__json_fail(w->err, path, "uma mensagem tem no máximo %d componentes",
                        MSG_COMPONENTS_MAX);
        return NULL;
    }
    json_t *out = json_object();
    if (rule__json_int(c, out, "type", 1, 17, path, w->err, 1) < 0) {
        json_decref(out);
        return NULL;
    }
    json_int_t type = json_integer_value(json_object_get(c, "type"));
    int ok = 0;
    for (size_t i = 0; i < nallowed; i++)
        ok |= allowed[i] == type;
    char tp[128];
    rule__json_sub(tp, sizeof tp, path, "type");
    int rc =
        ok ? 0 : rule__json_fail(w->err, tp, "tipo %lld não é permitido aqui", (long long)type);
    if (rc == 0) {
        switch (type) {
        case ROW:
            rc = row(w, c, out, path);
            break;
        case BUTTON:
            rc = button(w, c, out, path);
            break;
        case SECTION:
            rc = section(w, c, out, path);
            break;
        case TEXT_DISPLAY:
            rc = rule__json_str(c, out, "content", 1, 4000, path, w->err, 1);
            break;
        case THUMBNAIL:
            rc = url_object(c, out, "media", path, w->err, 1, 1) < 0 ||
                         rule__json_str(c, out, "description", 0, 1024, path, w->err, 0) < 0 ||
                         rule__json_bool(c, out, "spoiler", path, w->err) < 0
                     ? -1
                     : 0;
            break;
        case MEDIA_GALLERY:
            rc = media_items(w, c, out, path);
            break;
        case FILE_COMPONENT:
            rc = url_object(c, out, "file", path, w->err, 1, 1) < 0 ||
                         rule__json_bool(c, out, "spoiler", path, w->err) < 0
                     ? -1
                     : 0;
            break;
        case SEPARATOR:
            rc = rule__json_bool(c, out, "divider", path, w->err) < 0 ||
                         rule__json_int(c, out, "spacing", 1, 2, path, w->err, 0) < 0
                     ? -1
                     : 0;
            break;
        case CONTAINER:
            rc = children(w, c, out, "components", path, 1, 10, CONTAINER_CHILDREN,
                          sizeof CONTAINER_CHILDREN / sizeof CONTAINER_CHILDREN[0]) < 0 ||
                         rule__json_int(c, out, "accentColor", 0, 0xFFFFFF, path, w->err, 0) < 0 ||
                         rule__json_bool(c, out, "spoiler", path, w->err) < 0
                     ? -1
                     : 0;
            break;
        default:
            rc = is_select(type) ? select_menu(w, c, out, path, type) : -1;
            break;
        }
    }
    if (rc < 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *rule_message_clean_components(json_t *components, int v2, struct rule_error *err)
{
    static const json_int_t LEGACY_TOP[] = {ROW};
    static const json_int_t V2_TOP[] = {ROW,           SECTION,        TEXT_DISPLAY, THUMBNAIL,
                                        MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR,    CONTAINER};
    if (!json_is_array(components)) {
        rule__json_fail(err, "components", "deve ser uma lista");
        return NULL;
    }
    if (!v2 && json_array_size(components) > 5) {
        rule__json_fail(err, "components", "deve ter no máximo 5 fileiras");
        return NULL;
    }
    struct walk w = {err, 0, json_object()};
    json_t *out = json_array();
    size_t i;
    json_t *c;
    json_array_foreach(components, i, c)
    {
        char path[32];
        rule__json_idx(path, sizeof path, "components", i);
        json_t *clean = v2 ? component(&w, c, path, V2_TOP, sizeof V2_TOP / sizeof V2_TOP[0])
                           : component(&w, c, path, LEGACY_TOP, 1);
        if (!clean) {
            json_decref(out);
            out = NULL;
            break;
        }
        json_array_append_new(out, clean);
    }
    json_decref(w.ids);
    return out;
}
