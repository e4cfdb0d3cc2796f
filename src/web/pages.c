/* Pages: see pages.h. Lookups are by exact name in the compiled-in table, so nothing outside
 * it can ever be served. */
#include "web/pages.h"

#include <http_parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "core/embed.h"
#include "web/pwa.h"

extern const struct embedded_file praca_web[];
extern const struct embedded_file praca_docs[]; /* docs/api.md and docs/openapi.json */

#define CSP_BEFORE_CONNECT                                                                         \
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "        \
    "media-src 'self'; worker-src 'self'; manifest-src 'self'; connect-src 'self'"
#define CSP_AFTER_CONNECT                                                                          \
    "; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

/* The policy, with the one other origin pages may connect to (set once before serving). */
static char csp[512] = CSP_BEFORE_CONNECT CSP_AFTER_CONNECT;

int web_pages_connect_also(const char *url)
{
    if (!url || !*url)
        return 0;
    /* scheme://host[:port] only: a path or anything after it is not part of an origin */
    const char *host = strstr(url, "://");
    size_t len = host ? strcspn(host + 3, "/?# ;'\"") + (size_t)(host + 3 - url) : 0;
    if (!host || len == (size_t)(host + 3 - url))
        return -1;
    int n = snprintf(csp, sizeof csp, "%s %.*s%s", CSP_BEFORE_CONNECT, (int)len, url,
                     CSP_AFTER_CONNECT);
    return n > 0 && (size_t)n < sizeof csp ? 0 : -1;
}

static const struct {
    const char *path;
    const char *file;
} pages[] = {
    {"/login", "login.html"},
    {"/reset", "reset.html"},
    {"/oauth2/authorize", "authorize.html"},
    {"/developers", "developers.html"},
    {"/app", "app.html"},
    {"/explorar", "explore.html"},
    {"/docs", "docs.html"},
};

static const char *content_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot)
        return "application/octet-stream";
    if (!strcmp(dot, ".html"))
        return "text/html; charset=utf-8";
    if (!strcmp(dot, ".css"))
        return "text/css; charset=utf-8";
    if (!strcmp(dot, ".js"))
        return "text/javascript; charset=utf-8";
    if (!strcmp(dot, ".svg"))
        return "image/svg+xml";
    if (!strcmp(dot, ".png"))
        return "image/png";
    if (!strcmp(dot, ".md"))
        return "text/plain; charset=utf-8"; /* browsers show it instead of downloading it */
    if (!strcmp(dot, ".webmanifest"))
        return "application/manifest+json";
    return "application/octet-stream";
}

static const struct embedded_file *find(const char *name, size_t len)
{
    return embed_find(praca_web, name, len);
}

void web__security_headers(struct http_response *res)
{
    http_response_add_header(res, "Content-Security-Policy", csp);
    http_response_add_header(res, "X-Frame-Options", "DENY");
    http_response_add_header(res, "Referrer-Policy", "same-origin");
}

void web__answer(struct http_exchange *ex, int status, const char *type, const char *body,
                 size_t len)
{
    char *copy = malloc(len + 1);
    if (copy)
        memcpy(copy, body, len);
    http_response_set(&ex->res, status, type, copy, copy ? len : 0);
    if (ex->req->method == HTTP_HEAD)
        ex->res.body_len = 0;
    http_exchange_done(ex);
}

/* The ETag of a file: a hash of its bytes (the same bytes always give the same tag). */
static void etag_of(const struct embedded_file *f, char out[24])
{
    char hex[CRYPTO_SHA256_HEX + 1];
    crypto_sha256_hex(f->data, f->len, hex);
    snprintf(out, 24, "\"%.16s\"", hex);
}

void web__serve(struct http_exchange *ex, const struct embedded_file *f, int page)
{
    char etag[24];
    etag_of(f, etag);
    http_response_add_header(&ex->res, "ETag", etag);
    ex->res.cache_control = page ? "no-cache" : "public, max-age=300";
    web__security_headers(&ex->res);
    struct slice inm = http_request_header(ex->req, "if-none-match");
    if (inm.ptr && slice_eq(inm, etag)) {
        web__answer(ex, 304, NULL, "", 0);
        return;
    }
    web__answer(ex, 200, content_type(f->name), (const char *)f->data, f->len);
}

/* Whether all n bytes are ASCII letters or digits (an invite code). */
static int is_code(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
              (p[i] >= '0' && p[i] <= '9')))
            return 0;
    return 1;
}

static void not_found(struct http_exchange *ex)
{
    static const char fallback[] = "Página não encontrada";
    const struct embedded_file *f = find("404.html", 8);
    web__security_headers(&ex->res);
    ex->res.cache_control = "no-cache";
    if (f)
        web__answer(ex, 404, "text/html; charset=utf-8", (const char *)f->data, f->len);
    else
        web__answer(ex, 404, "text/plain; charset=utf-8", fallback, sizeof fallback - 1);
}

int web_handle(struct http_exchange *ex)
{
    struct slice path = ex->req->path;
    if (path.len >= 4 && !memcmp(path.ptr, "/api", 4) && (path.len == 4 || path.ptr[4] == '/'))
        return 0;
    if (path.len >= 10 && !memcmp(path.ptr, "/socket.io", 10))
        return 0;
    if (ex->req->method != HTTP_GET && ex->req->method != HTTP_HEAD) {
        web__security_headers(&ex->res);
        http_response_add_header(&ex->res, "Allow", "GET, HEAD");
        static const char text[] = "Método não permitido";
        web__answer(ex, 405, "text/plain; charset=utf-8", text, sizeof text - 1);
        return 1;
    }
    if (slice_eq(path, "/")) {
        http_response_add_header(&ex->res, "Location", "/app");
        web__answer(ex, 302, NULL, "", 0);
        return 1;
    }
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        if (slice_eq(path, pages[i].path)) {
            const struct embedded_file *f = find(pages[i].file, strlen(pages[i].file));
            if (f)
                web__serve(ex, f, 1);
            else
                not_found(ex);
            return 1;
        }
    }
    static const char invite[] = "/invite/"; /* /invite/<code>: letters and digits */
    if (path.len > sizeof invite - 1 && path.len <= sizeof invite - 1 + 32 &&
        !memcmp(path.ptr, invite, sizeof invite - 1) &&
        is_code(path.ptr + sizeof invite - 1, path.len - (sizeof invite - 1))) {
        const struct embedded_file *f = find("invite.html", 11);
        if (f)
            web__serve(ex, f, 1);
        else
            not_found(ex);
        return 1;
    }
    if (web__pwa_handle(ex))
        return 1;
    const struct embedded_file *doc = embed_find(praca_docs, "api.md", 6);
    if (slice_eq(path, "/docs/api.md") && doc) {
        web__serve(ex, doc, 1);
        return 1;
    }
    static const char prefix[] = "/static/";
    if (path.len > sizeof prefix - 1 && !memcmp(path.ptr, prefix, sizeof prefix - 1)) {
        const char *name = path.ptr + sizeof prefix - 1;
        size_t len = path.len - (sizeof prefix - 1);
        const struct embedded_file *f = memchr(name, '/', len) ? NULL : find(name, len);
        /* pages only at their paths, 404.html never; the service worker only at /sw.js */
        if (f && !strstr(f->name, ".html") && !web__pwa_own(f)) {
            web__serve(ex, f, 0);
            return 1;
        }
    }
    not_found(ex);
    return 1;
}
