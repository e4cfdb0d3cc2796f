/* The installable app's files: see pwa.h. */
#include "web/pwa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/crypto.h"

extern const struct embedded_file praca_web[];

#define SW_MAX ((size_t)64 << 10)

static char version[40];

void web_pwa_set_version(const char *v)
{
    snprintf(version, sizeof version, "%s", v ? v : "");
}

/* Whether the worker keeps f: the static files the pages load (not the pages themselves,
 * served at their own paths, nor the worker). */
static int kept(const struct embedded_file *f)
{
    return !strstr(f->name, ".html") && strcmp(f->name, "sw.js") &&
           strcmp(f->name, "manifest.webmanifest");
}

const char *web__pwa_version(void)
{
    if (version[0])
        return version;
    /* SHA-256 of each file's name and hash, in the table's order: the same pages, the same
     * version on every node and every start. */
    struct buf all;
    buf_init(&all, SW_MAX * 4);
    char hex[CRYPTO_SHA256_HEX + 1];
    for (const struct embedded_file *f = praca_web; f->name; f++) {
        crypto_sha256_hex(f->data, f->len, hex);
        buf_append_str(&all, f->name);
        buf_append_str(&all, hex);
    }
    crypto_sha256_hex(all.data ? all.data : "", all.len, hex);
    buf_cleanup(&all);
    snprintf(version, sizeof version, "%.16s", hex);
    return version;
}

int web__pwa_own(const struct embedded_file *f)
{
    return !strcmp(f->name, "sw.js") || !strcmp(f->name, "manifest.webmanifest");
}

/* static/sw.js with "__PRACA_VERSION__" and "__PRACA_FILES__" set in. */
static void worker(struct http_exchange *ex)
{
    const struct embedded_file *f = embed_find(praca_web, "sw.js", 5);
    struct buf out, files;
    buf_init(&out, SW_MAX);
    buf_init(&files, SW_MAX);
    int rc = 0;
    for (const struct embedded_file *g = praca_web; g->name && !rc; g++)
        if (kept(g))
            rc = buf_appendf(&files, "%s'/static/%s'", files.len ? ", " : "", g->name);
    const char *text = f ? (const char *)f->data : "";
    const char *v = strstr(text, "__PRACA_VERSION__"), *l = strstr(text, "__PRACA_FILES__");
    rc = rc || !f || !v || !l || l < v;
    if (!rc)
        rc = buf_append(&out, text, (size_t)(v - text)) ||
             buf_append_str(&out, web__pwa_version()) ||
             buf_append(&out, v + 17, (size_t)(l - v - 17)) ||
             buf_append(&out, files.data ? files.data : "", files.len) ||
             buf_append_str(&out, l + 15);
    web__security_headers(&ex->res);
    ex->res.cache_control = "no-cache"; /* a browser asks each time it looks for an update */
    if (rc)
        web__answer(ex, 500, "text/plain; charset=utf-8", "sw.js", 5);
    else
        web__answer(ex, 200, "text/javascript; charset=utf-8", out.data, out.len);
    buf_cleanup(&out);
    buf_cleanup(&files);
}

int web__pwa_handle(struct http_exchange *ex)
{
    struct slice path = ex->req->path;
    if (slice_eq(path, "/sw.js")) {
        worker(ex);
        return 1;
    }
    const char *name = slice_eq(path, "/favicon.ico")            ? "icon-32.png"
                       : slice_eq(path, "/manifest.webmanifest") ? "manifest.webmanifest"
                                                                 : NULL;
    const struct embedded_file *f = name ? embed_find(praca_web, name, strlen(name)) : NULL;
    if (!f)
        return 0;
    web__serve(ex, f, 1);
    return 1;
}
